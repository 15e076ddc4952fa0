#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes all of `bytes` to the file descriptor `fd` with write(2), retrying interrupted and partial writes: `nil`
/// when every byte was written, else the `errno` of the write that failed.
///
/// ```swift
/// if let code = data.withUnsafeBytes({ writeFully(fd, $0) }) { print(String(cString: strerror(code))) }
/// ```
package func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return nil
}
