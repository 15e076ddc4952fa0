import Foundation

/// How libcurl's result codes become the `URLError` codes a Foundation user expects.
///
/// | CURLcode | meaning | URLError.Code |
/// |---|---|---|
/// | 1 `UNSUPPORTED_PROTOCOL` | scheme other than http/https (also on redirect) | `.unsupportedURL` (-1002) |
/// | 1 after connecting, with no status line received | the server answered without HTTP framing | `.badServerResponse` (-1011) |
/// | 3 `URL_MALFORMAT` | URL curl cannot parse (e.g. no host) | `.badURL` (-1000) |
/// | 5, 6 `COULDNT_RESOLVE_PROXY/HOST` | name resolution failed | `.cannotFindHost` (-1003) |
/// | 7 `COULDNT_CONNECT`, 45 `INTERFACE_FAILED`, 97 `PROXY` | connection refused or unroutable | `.cannotConnectToHost` (-1004) |
/// | 8 `WEIRD_SERVER_REPLY`, 16 `HTTP2` | malformed status line or headers | `.badServerResponse` (-1011) |
/// | 52 `GOT_NOTHING` | connection closed with no reply | `.badServerResponse` (-1011) |
/// | 18 `PARTIAL_FILE` | closed before the whole body arrived | `.networkConnectionLost` (-1005) |
/// | 55 `SEND_ERROR`, 56 `RECV_ERROR`, 92 `HTTP2_STREAM` | connection reset or broken | `.networkConnectionLost` (-1005) |
/// | 23 `WRITE_ERROR` | the response file could not be written | `.cannotWriteToFile` (-3003) |
/// | 28 `OPERATION_TIMEDOUT` | connect or total timeout | `.timedOut` (-1001) |
/// | 35 `SSL_CONNECT_ERROR`, 59 `SSL_CIPHER`, 64 `USE_SSL_FAILED`, 77 `SSL_CACERT_BADFILE`, 80, 82 | TLS handshake failed | `.secureConnectionFailed` (-1200) |
/// | 60 `PEER_FAILED_VERIFICATION`, 83 `SSL_ISSUER_ERROR`, 90 `SSL_PINNEDPUBKEYNOTMATCH`, 91 `SSL_INVALIDCERTSTATUS` | server not trusted or not pinned | `.serverCertificateUntrusted` (-1202) |
/// | 60 with OpenSSL verify result 10 (expired) | certificate expired | `.serverCertificateHasBadDate` (-1201) |
/// | 60 with OpenSSL verify result 9 (not yet valid) | certificate not yet valid | `.serverCertificateNotYetValid` (-1204) |
/// | 58 `SSL_CERTPROBLEM` | client certificate unusable | `.clientCertificateRejected` (-1205) |
/// | 42 `ABORTED_BY_CALLBACK` | the transfer was cancelled | `.cancelled` (-999) |
/// | 47 `TOO_MANY_REDIRECTS` | redirect limit passed | `.httpTooManyRedirects` (-1007) |
/// | 61 `BAD_CONTENT_ENCODING` | gzip/deflate/br body could not be decoded | `.cannotDecodeContentData` (-1016) |
/// | 63 `FILESIZE_EXCEEDED` | body larger than allowed | `.dataLengthExceedsMaximum` (-1103) |
/// | 65 `SEND_FAIL_REWIND` | a streamed body had to be sent again | `.requestBodyStreamExhausted` (-1021) |
/// | 67 `LOGIN_DENIED` | authentication refused | `.userAuthenticationRequired` (-1013) |
/// | anything else | | `.unknown` (-1) |
///
/// Failures Tapedeck detects itself: an idle timeout is `.timedOut`, a missing upload file `.fileDoesNotExist`
/// (-1100), an unreadable one `.noPermissionsToReadFile` (-1102), a response file that cannot be created
/// `.cannotCreateFile` (-3000), a request body stream that throws `.unknown` with the error under
/// `NSUnderlyingErrorKey`.
public enum CurlErrorMapping {
    /// OpenSSL's `X509_V_ERR_CERT_NOT_YET_VALID`.
    static let verifyResultNotYetValid = 9
    /// OpenSSL's `X509_V_ERR_CERT_HAS_EXPIRED`.
    static let verifyResultExpired = 10

    /// The `URLError` code for a libcurl result code, refined by the TLS verification result when curl gives one.
    public static func urlErrorCode(curlCode: Int, tlsVerifyResult: Int = 0) -> URLError.Code {
        switch curlCode {
        case 1: return .unsupportedURL
        case 3: return .badURL
        case 5, 6: return .cannotFindHost
        case 7, 45, 97: return .cannotConnectToHost
        case 8, 16, 52: return .badServerResponse
        case 18, 55, 56, 92: return .networkConnectionLost
        case 23: return .cannotWriteToFile
        case 28: return .timedOut
        case 35, 59, 64, 77, 80, 82: return .secureConnectionFailed
        case 60:
            switch tlsVerifyResult {
            case verifyResultExpired: return .serverCertificateHasBadDate
            case verifyResultNotYetValid: return .serverCertificateNotYetValid
            default: return .serverCertificateUntrusted
            }
        case 83, 90, 91: return .serverCertificateUntrusted
        case 58: return .clientCertificateRejected
        case 42: return .cancelled
        case 47: return .httpTooManyRedirects
        case 61: return .cannotDecodeContentData
        case 63: return .dataLengthExceedsMaximum
        case 65: return .requestBodyStreamExhausted
        case 67: return .userAuthenticationRequired
        default: return .unknown
        }
    }
}
