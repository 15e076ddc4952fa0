import Foundation
import TapedeckCore
import TapedeckStubServer

/// The provider the contract scenarios talk to: a small app API on a stub server.
enum ContractServer {
    static let token = "t-5e3f9a"
    static let reportLength = 3 << 20

    static func start() throws -> StubServer {
        let server = try StubServer()
        server.route(.post, "/api/auth/sign-in") { request in
            let credentials = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            guard credentials?["user"] as? String == "ada", credentials?["password"] as? String == "lovelace" else {
                return .json(Data(#"{"error":"bad credentials"}"#.utf8), status: 401)
            }
            return .json(Data(#"{"token":"\#(token)","user":{"id":7}}"#.utf8))
        }
        server.route(.get, "/api/me") { request in
            guard request.headers["Authorization"] == "Bearer \(token)" else {
                return .json(Data(#"{"error":"unauthorized"}"#.utf8), status: 401)
            }
            return .json(Data(#"{"id":7,"name":"Ada Lovelace","languages":["en","fr"]}"#.utf8))
        }
        server.route(.get, "/api/broken", response: .json(Data(#"{"error":"database unavailable","retryAfter":30}"#.utf8), status: 500))
        // Well past the clients' 1.5 s timeout, so the timeout scenario times out however loaded the machine is.
        server.route(.get, "/api/slow", response: StubResponse(body: .data(Data("{}".utf8)), delay: .seconds(6)))
        server.add(Stub(RequestPattern(.get, "/api/dropped"), fault: .reset))
        server.route(.post, "/upload/avatar") { request in
            let contentType = request.headers["Content-Type"] ?? ""
            let parts = (try? MultipartParser.parts(of: request.body, contentType: contentType)) ?? []
            let avatar = parts.first { $0.name == "avatar" }
            return .json(Data(#"{"stored":\#(avatar?.body.count ?? 0),"fileName":"\#(avatar?.fileName ?? "")"}"#.utf8), status: 201)
        }
        server.route(.get, "/files/report.bin", response: StubResponse(
            headers: ["Content-Type": "application/octet-stream"], body: .data(StubBody.generatedBytes(from: 0, count: reportLength))))
        return server
    }
}
