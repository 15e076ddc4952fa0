import Foundation

extension JSONWriter {
    /// A growable run of bytes written through a raw pointer: the writer appends a few bytes at a time, and for
    /// appends that small an `Array`'s per-call checks cost more than the bytes themselves.
    ///
    /// A reference type (one buffer per writer, never shared between threads): the storage is freed when the last
    /// reference goes. Its fields skip the run-time exclusivity checks of class properties, which would otherwise
    /// cost more than the appends they guard; every access is a short, non-reentrant read or write.
    public final class Output {
        @usableFromInline @exclusivity(unchecked) var base: UnsafeMutablePointer<UInt8>
        @usableFromInline @exclusivity(unchecked) var count = 0
        @usableFromInline @exclusivity(unchecked) var capacity: Int

        /// An empty buffer with room for `capacity` bytes.
        @inlinable
        public init(capacity: Int) {
            self.capacity = max(capacity, 16)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        /// The bytes written so far; valid until the next append.
        @inlinable public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

        /// A copy of the bytes written so far.
        @inlinable public var array: [UInt8] { Array(bytes) }

        /// A copy of the bytes written so far, as `Data`.
        @inlinable public var data: Data { Data(bytes) }

        /// Appends one byte.
        @inlinable @inline(__always)
        public func append(_ byte: UInt8) {
            if count == capacity { grow(toHold: count + 1) }
            base[count] = byte
            count += 1
        }

        /// Appends bytes as they are.
        @inlinable @inline(__always)
        public func append(_ bytes: UnsafeRawBufferPointer) {
            guard let source = bytes.baseAddress, bytes.count > 0 else { return }
            if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
            UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
            count += bytes.count
        }

        /// Appends bytes as they are.
        @inlinable
        public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            append(UnsafeRawBufferPointer(bytes))
        }

        /// Appends the UTF-8 bytes of a literal.
        @inlinable
        public func append(_ text: StaticString) {
            append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        /// Appends bytes as they are.
        @inlinable
        public func append(contentsOf bytes: [UInt8]) {
            bytes.withUnsafeBytes { append($0) }
        }

        /// Appends bytes as they are.
        @inlinable
        public func append(contentsOf data: Data) {
            data.withUnsafeBytes { append($0) }
        }

        /// Appends the UTF-8 bytes of `text`, unquoted and unescaped.
        @inlinable
        public func append(utf8 text: String) {
            var text = text
            text.withUTF8 { append($0) }
        }

        @usableFromInline
        func grow(toHold needed: Int) {
            let newCapacity = max(needed, capacity * 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: base, count: count)
            base.deallocate()
            base = grown
            capacity = newCapacity
        }
    }
}
