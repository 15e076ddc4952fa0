import Foundation

extension Interaction {
    /// This interaction with a templated response (``Interaction/Response/isTemplated``) filled from `request`: each
    /// header value and an inline UTF-8 body are ``TextTemplate``s; a `Content-Length` that gave the body's old size
    /// gives the new one. Anything else is returned as it is. Used by the in-process replayer and by a stub server
    /// serving the cassette, so both answer alike.
    ///
    /// - Throws: ``CassetteError/invalidFormat(file:path:reason:)`` naming the interaction when a template is not
    ///   valid.
    package func fillingTemplates(
        for request: some TemplateRequest, now: Date = Date(), index: Int, file: String
    ) throws(CassetteError) -> Interaction {
        guard case .response(var response) = outcome, response.isTemplated else { return self }
        let path = "interactions[\(index)].response"
        do {
            var headers = HTTPHeaders()
            for field in response.headers {
                headers.add(name: field.name, value: try TextTemplate(field.value).render(for: request, now: now))
            }
            if let data = response.body.inlineData, let text = String(validating: data, as: UTF8.self) {
                let filled = Data(try TextTemplate(text).render(for: request, now: now).utf8)
                if headers["Content-Length"] == String(data.count) { headers["Content-Length"] = String(filled.count) }
                response.body = CassetteBody(filled, contentEncoding: response.body.contentEncoding)
            }
            response.headers = headers
        } catch {
            throw CassetteError.invalidFormat(file: file, path: path, reason: error.description)
        }
        var filled = self
        filled.outcome = .response(response)
        return filled
    }
}
