import CCurl
import Foundation
import TapedeckCore

/// Thin typed access to one libcurl easy handle. Every variadic call goes through the C shims.
struct CurlEasy {
    let handle: UnsafeMutableRawPointer

    /// Thrown when libcurl refuses an option; carries the option and curl's reason.
    struct OptionError: Error, CustomStringConvertible {
        let option: CURLoption
        let code: CURLcode
        var description: String {
            "libcurl refused option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))"
        }
    }

    func set(_ option: CURLoption, _ value: Int) throws {
        try check(option, tdk_easy_setopt_long(handle, option, value))
    }

    func set(_ option: CURLoption, _ value: Bool) throws {
        try set(option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, offset value: Int64) throws {
        try check(option, tdk_easy_setopt_off(handle, option, curl_off_t(value)))
    }

    /// Sets a string option; libcurl copies strings, so the Swift string need not outlive the call.
    func set(_ option: CURLoption, _ value: String) throws {
        try check(option, tdk_easy_setopt_string(handle, option, value))
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws {
        try check(option, tdk_easy_setopt_pointer(handle, option, value))
    }

    func set(_ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) throws {
        try check(option, tdk_easy_setopt_slist(handle, option, list))
    }

    /// Sets a blob option with `CURL_BLOB_COPY`, so `data` need not outlive the call.
    func set(_ option: CURLoption, blob data: Data) throws {
        var copy = data
        let code = copy.withUnsafeMutableBytes { bytes -> CURLcode in
            var blob = curl_blob(data: bytes.baseAddress, len: bytes.count, flags: UInt32(CURL_BLOB_COPY))
            return tdk_easy_setopt_blob(handle, option, &blob)
        }
        try check(option, code)
    }

    private func check(_ option: CURLoption, _ code: CURLcode) throws {
        guard code == CURLE_OK else { throw OptionError(option: option, code: code) }
    }

    func long(_ info: CURLINFO) -> Int {
        var value = 0
        return tdk_easy_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    func offset(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return tdk_easy_getinfo_off(handle, info, &value) == CURLE_OK ? Int64(value) : 0
    }

    func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard tdk_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// Microsecond time info as seconds.
    func seconds(_ info: CURLINFO) -> Double {
        Double(offset(info)) / 1_000_000
    }

    /// The peer certificate chain gathered with `CURLOPT_CERTINFO`, leaf first, as DER.
    func certificateChain() -> [Data] {
        var info: UnsafeMutablePointer<curl_certinfo>?
        guard tdk_easy_getinfo_certinfo(handle, &info) == CURLE_OK, let info else { return [] }
        let count = Int(info.pointee.num_of_certs)
        guard count > 0, let lists = info.pointee.certinfo else { return [] }
        var chain: [Data] = []
        for index in 0..<count {
            var node = lists[index]
            while let current = node {
                if let text = current.pointee.data, strncmp(text, "Cert:", 5) == 0 {
                    chain += PEMCertificates.blocks(in: String(cString: text + 5)).compactMap(\.der)
                }
                node = current.pointee.next
            }
        }
        return chain
    }
}

/// A `curl_slist` built from Swift strings and freed on deinit.
final class CurlStringList {
    private(set) var pointer: UnsafeMutablePointer<curl_slist>?

    init(_ strings: [String]) {
        for string in strings {
            pointer = curl_slist_append(pointer, string)
        }
    }

    deinit { curl_slist_free_all(pointer) }
}
