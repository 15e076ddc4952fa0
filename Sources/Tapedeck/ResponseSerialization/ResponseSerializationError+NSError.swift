import Foundation

extension ResponseSerializationError: CustomNSError {
    /// The `NSURLErrorDomain` code AFNetworking uses for this failure (see the table on the type).
    public var errorCode: Int {
        switch self {
        case .unacceptableStatusCode: return URLError.Code.badServerResponse.rawValue
        case .unacceptableContentType, .decodingFailed: return URLError.Code.cannotDecodeContentData.rawValue
        case .emptyBody: return URLError.Code.zeroByteResource.rawValue
        }
    }

    /// The description, failing URL, response head, body and underlying error (see the table on the type).
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: descriptionText]
        if let reason = failureReasonText {
            info[NSLocalizedFailureReasonErrorKey] = reason
        }
        if let head {
            info[NSURLErrorFailingURLErrorKey] = head.url
            info[Self.responseKey] = head
        }
        if let data {
            info[Self.dataKey] = data
        }
        if let underlyingError {
            // Stored as NSError explicitly: on Linux, `userInfo[...] as? NSError` does not bridge a Swift error.
            info[NSUnderlyingErrorKey] = underlyingError as NSError
        }
        return info
    }
}

extension ResponseSerializationError: LocalizedError {
    /// AFNetworking's wording, e.g. `Request failed: not found (404)`.
    public var errorDescription: String? { descriptionText }

    /// For decoding failures, the parser's or decoder's own description.
    public var failureReason: String? { failureReasonText }
}

extension ResponseSerializationError: CustomStringConvertible {
    /// The localized description followed by the failure reason, when there is one.
    public var description: String {
        guard let reason = failureReasonText else { return descriptionText }
        return "\(descriptionText) (\(reason))"
    }
}

extension ResponseSerializationError {
    private var descriptionText: String {
        switch self {
        case .unacceptableStatusCode(let statusCode, _, _, _):
            return "Request failed: \(ResponseStatusDescription.text(forStatusCode: statusCode)) (\(statusCode))"
        case .unacceptableContentType(let mimeType, _, _):
            return "Request failed: unacceptable content-type: \(mimeType ?? "(none)")"
        case .decodingFailed(let format, _, _, _):
            switch format {
            case .json: return "The response is not valid JSON."
            case .xml: return "The response is not valid XML."
            case .propertyList: return "The response is not a valid property list."
            case .decodable(let typeName): return "The response could not be decoded as \(typeName)."
            case .string(let encoding):
                return "Data failed decoding as a \(ResponseCharset.name(of: encoding)) string"
            }
        case .emptyBody(let expected, let head):
            let status = head.map { " (status \($0.statusCode))" } ?? ""
            return "The response has no body to decode as \(expected)\(status)."
        }
    }

    private var failureReasonText: String? {
        guard case .decodingFailed(_, _, _, let underlying) = self else { return nil }
        if let decodingError = underlying as? DecodingError {
            return String(describing: decodingError)
        }
        return underlying.localizedDescription
    }
}
