import Foundation

extension HARCodec {
    static func interaction(_ entry: CassetteJSON, path: String) throws(CassetteError) -> Interaction {
        let fields = FieldReader(entry, path: path, file: "HAR")
        let requestJSON = try fields.value("request")
        let requestFields = FieldReader(requestJSON, path: fields.at("request"), file: "HAR")
        var requestBody = Data()
        if let post = requestJSON["postData"] {
            requestBody = try body(post, path: requestFields.at("postData"))
        }
        let request = Interaction.Request(
            method: try requestFields.string("method"), url: try requestFields.string("url"),
            headers: try headers(requestJSON["headers"], path: requestFields.at("headers")), body: CassetteBody(requestBody))

        let responseJSON = try fields.value("response")
        let responseFields = FieldReader(responseJSON, path: fields.at("response"), file: "HAR")
        let status = try responseFields.int("status")
        let outcome: Interaction.Outcome
        if let message = entry["_error"]?.stringValue ?? (status == 0 ? "the request failed" : nil) {
            outcome = .failure(Interaction.Failure(
                code: entry["_errorCode"]?.intValue ?? URLError.Code.unknown.rawValue, message: message,
                transportCode: entry["_transportCode"]?.intValue, transportMessage: entry["_transportMessage"]?.stringValue))
        } else {
            let contentJSON = try responseFields.value("content")
            outcome = .response(Interaction.Response(
                statusCode: status, reasonPhrase: try responseFields.optionalString("statusText") ?? "",
                httpVersion: try responseFields.optionalString("httpVersion") ?? "HTTP/1.1",
                url: try responseFields.optionalString("_url"),
                headers: try headers(responseJSON["headers"], path: responseFields.at("headers")),
                body: CassetteBody(try body(contentJSON, path: responseFields.at("content")),
                                   contentEncoding: contentJSON["_contentEncoding"]?.stringValue)))
        }

        var metrics = TransferMetrics()
        if let timings = entry["timings"] {
            func seconds(_ key: String) -> Double { max(0, timings[key]?.doubleValue ?? 0) / 1000 }
            metrics.nameLookup = seconds("dns")
            metrics.connect = metrics.nameLookup + seconds("connect")
            let ssl = seconds("ssl")
            metrics.tlsHandshake = ssl > 0 ? metrics.connect + ssl : 0
            metrics.timeToFirstByte = max(metrics.connect, metrics.tlsHandshake) + seconds("blocked") + seconds("send") + seconds("wait")
        }
        metrics.total = try fields.double("time") / 1000
        if metrics.timeToFirstByte > metrics.total { metrics.timeToFirstByte = metrics.total }
        metrics.remoteAddress = entry["serverIPAddress"]?.stringValue ?? ""
        metrics.remotePort = entry["connection"]?.stringValue.flatMap { Int($0) } ?? 0
        metrics.httpVersion = (try? responseFields.optionalString("httpVersion")).flatMap { $0 } ?? ""
        for keyPath in [\TransferMetrics.nameLookup, \.connect, \.tlsHandshake, \.timeToFirstByte, \.total] {
            metrics[keyPath: keyPath] = (metrics[keyPath: keyPath] * 1_000_000).rounded() / 1_000_000
        }
        let certificates = entry["_tlsPeerCertificates"]?.arrayValue?.compactMap { $0.stringValue.flatMap { Data(base64Encoded: $0) } } ?? []
        let started = try fields.string("startedDateTime")
        let recordedAt = Timestamp.parse(started) ?? (try? Date(started, strategy: .iso8601)).map(Timestamp.truncated)
        guard let recordedAt else { throw fields.invalid("startedDateTime", "expected an ISO 8601 date") }
        let webSocket = try entry["_webSocketMessages"].map { messages throws(CassetteError) in
            try webSocketTranscript(messages, startedAt: recordedAt, path: fields.at("_webSocketMessages"))
        }
        return Interaction(request: request, outcome: outcome, metrics: metrics, peerCertificates: certificates, recordedAt: recordedAt,
                           webSocket: webSocket)
    }

    private static func headers(_ json: CassetteJSON?, path: String) throws(CassetteError) -> HTTPHeaders {
        guard let json else { return [:] }
        guard let elements = json.arrayValue else { throw CassetteError.invalidHAR(path: path, reason: "expected an array") }
        var fields: [HTTPHeaders.Field] = []
        for (index, element) in elements.enumerated() {
            guard let name = element["name"]?.stringValue, let value = element["value"]?.stringValue else {
                throw CassetteError.invalidHAR(path: "\(path)[\(index)]", reason: "expected {\"name\", \"value\"} strings")
            }
            // HTTP/2 pseudo-headers (":authority") are not header fields.
            if !name.hasPrefix(":") { fields.append(HTTPHeaders.Field(name: name, value: value)) }
        }
        return HTTPHeaders(fields)
    }

    private static func body(_ json: CassetteJSON, path: String) throws(CassetteError) -> Data {
        if let text = json["text"]?.stringValue {
            if json["encoding"]?.stringValue == "base64" {
                guard let data = Data(base64Encoded: text) else { throw CassetteError.invalidHAR(path: path + ".text", reason: "not valid base64") }
                return data
            }
            return Data(text.utf8)
        }
        if let params = json["params"]?.arrayValue, !params.isEmpty {
            let pairs = params.map { param -> String in
                let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
                let name = param["name"]?.stringValue?.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
                let value = param["value"]?.stringValue?.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
                return "\(name)=\(value)"
            }
            return Data(pairs.joined(separator: "&").utf8)
        }
        return Data()
    }
}
