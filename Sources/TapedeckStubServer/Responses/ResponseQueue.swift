import CMicroHTTPD
import Foundation
import Glibc
import TapedeckCore

/// Turns a ``StubResponse`` into a libmicrohttpd response and queues it.
enum ResponseQueue {
    /// In-memory bodies up to this size are copied into libmicrohttpd; larger ones are read from the `Data`.
    static let copyLimit = 64 * 1024
    /// Block size for bodies produced through the content-reader callback. libmicrohttpd allocates the block zeroed
    /// with each response, so a body known to be shorter gets a block of its own length (see ``callbackResponse``).
    static let blockSize = 256 * 1024
    /// Block size for a relayed body of unknown length: an upstream hands the proxy at most 16 KiB at a time (libcurl's
    /// write size), and an event stream's answers are small.
    static let relayBlockSize = 64 * 1024

    static func queue(_ stub: StubResponse, on connection: ConnectionHandle, core: StubServerCore) -> MHD_Result {
        var stub = stub
        guard let response = makeResponse(&stub, connection: connection, core: core) else { return .NO }
        addHeaders(stub.headers, to: response)
        let status = (100...999).contains(stub.status) ? UInt32(stub.status) : 500
        let result = MHD_queue_response(connection.pointer, status, response)
        MHD_destroy_response(response)
        return result
    }

    static func addHeaders(_ headers: HTTPHeaders, to response: OpaquePointer) {
        for field in headers where !isFramingHeader(field.name) {
            _ = MHD_add_response_header(response, field.name, field.value)
        }
    }

    private static func isFramingHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "content-length" || lower == "transfer-encoding"
    }

    private static func makeResponse(_ stub: inout StubResponse, connection: ConnectionHandle, core: StubServerCore) -> OpaquePointer? {
        if let relay = stub.relay {
            let producer = BodyProducer(source: .relayed(relay.body), length: relay.length ?? Int64.max, chunkSize: blockSize,
                                        interval: .zero, connection: connection, core: core)
            return callbackResponse(size: relay.length.map { UInt64($0) } ?? tdk_mhd_size_unknown(), producer: producer,
                                    blockSize: relayBlockSize)
        }
        switch stub.body {
        case .empty:
            return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .data(let data) where data.count <= copyLimit:
            return data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .data(let data):
            let producer = BodyProducer(source: .data(data), length: Int64(data.count), chunkSize: blockSize,
                                        interval: .zero, connection: connection, core: core)
            return callbackResponse(size: UInt64(data.count), producer: producer)
        case .generated(let length):
            return generatedResponse(offset: 0, length: length, connection: connection, core: core, cutAt: stub.truncateAfter)
        case .generatedRange(let offset, let length):
            return generatedResponse(offset: offset, length: length, connection: connection, core: core)
        case .chunked(let chunked):
            let source: BodyProducer.Source = chunked.generatedLength == nil ? .data(chunked.data) : .generated(offset: chunked.generatedOffset)
            let producer = BodyProducer(source: source, length: chunked.length, chunkSize: chunked.chunkSize,
                                        interval: chunked.interval, connection: connection, core: core, schedule: chunked.schedule,
                                        ending: chunked.ending)
            return callbackResponse(size: tdk_mhd_size_unknown(), producer: producer, blockSize: chunked.chunkSize)
        case .file(let url):
            let fd = open(url.path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard fd >= 0, fstat(fd, &info) == 0 else {
                let reason = String(cString: strerror(errno))
                if fd >= 0 { close(fd) }
                stub = .text("Stub file \(url.path) cannot be read: \(reason)\n", status: 500)
                return makeResponse(&stub, connection: connection, core: core)
            }
            return MHD_create_response_from_fd64(UInt64(info.st_size), fd)
        }
    }

    private static func generatedResponse(
        offset: Int64, length: Int64, connection: ConnectionHandle, core: StubServerCore, cutAt: Int64? = nil
    ) -> OpaquePointer? {
        let producer = BodyProducer(source: .generated(offset: max(0, offset)), length: max(0, length), chunkSize: blockSize,
                                    interval: .zero, connection: connection, core: core)
        producer.cutAt = cutAt
        return callbackResponse(size: UInt64(max(0, length)), producer: producer)
    }

    /// A response whose body `producer` writes into libmicrohttpd's block: `blockSize` bytes at most, and no more than
    /// a body of known `size` needs (the block is allocated zeroed for every response).
    private static func callbackResponse(size: UInt64, producer: BodyProducer, blockSize: Int = blockSize) -> OpaquePointer? {
        var block = min(blockSize, ResponseQueue.blockSize)
        if size != tdk_mhd_size_unknown() { block = Int(min(UInt64(block), size)) }
        let context = Unmanaged.passRetained(producer)
        let response = MHD_create_response_from_callback(
            size, max(1, block),
            { context, position, buffer, maximum in
                let producer = Unmanaged<BodyProducer>.fromOpaque(context!).takeUnretainedValue()
                return producer.read(at: Int64(position), into: UnsafeMutableRawBufferPointer(start: buffer, count: maximum))
            },
            context.toOpaque(),
            { context in Unmanaged<BodyProducer>.fromOpaque(context!).release() })
        // libmicrohttpd calls the free callback only for a response it created.
        if response == nil { context.release() }
        return response
    }
}

