import Foundation
import Tapedeck
import TapedeckServices
import TapedeckTestSupport
import TapedeckCore

/// What a scenario observed, in the terms that must not depend on the transport.
enum Outcome: Equatable, CustomStringConvertible {
    /// A response: status, content type and the decoded JSON (volatile values normalized), and whether progress
    /// reached 1.0 where the scenario tracks it.
    case answered(status: Int, contentType: String?, json: JSONValue?, progressCompleted: Bool?)
    /// A download: the file's size and SHA-256-free fingerprint, and whether progress reached 1.0.
    case downloaded(bytes: Int, firstBytes: [UInt8], progressCompleted: Bool)
    /// A failure: its NSError domain and code, and for response-serialization errors the decoded error body.
    case failed(domain: String, code: Int, body: JSONValue?)

    var description: String {
        switch self {
        case .answered(let status, let type, let json, let progress):
            return "answered \(status) \(type ?? "-") \(json.map { "\($0)" } ?? "nil") progress=\(progress.map { "\($0)" } ?? "-")"
        case .downloaded(let bytes, let first, let progress): return "downloaded \(bytes) \(first) progress=\(progress)"
        case .failed(let domain, let code, let body): return "failed \(domain) \(code) \(body.map { "\($0)" } ?? "")"
        }
    }
}

/// One step of an app's life on the network layer.
struct ContractScenario: Sendable, CustomStringConvertible {
    let description: String
    let expected: Outcome
    /// Runs the scenario with the network layer, a scratch folder, and the simulated network the layer watches
    /// (a scenario that takes it offline brings it back).
    let run: @Sendable (NetworkManager, URL, SimulatedNetwork) async -> Outcome

    /// The scenario set, in order; later ones may rely on earlier ones (the profile uses the token).
    static let all: [ContractScenario] = [signIn, wrongPassword, profile, anonymousProfile, avatar, report, serverError,
                                          timeout, dropped, offline]

    static let signIn = ContractScenario(
        description: "sign in with JSON",
        expected: .answered(status: 200, contentType: "application/json", json: ["token": "<present>", "user": ["id": 7]], progressCompleted: nil)
    ) { network, _, _ in
        await outcome { try await network.data.post("auth/sign-in", parameters: ["user": "ada", "password": "lovelace"]) }
    }

    static let wrongPassword = ContractScenario(
        description: "a 401 for a wrong password",
        expected: .failed(domain: ResponseSerializationError.errorDomain, code: -1011, body: ["error": "bad credentials"])
    ) { network, _, _ in
        await outcome { try await network.data.post("auth/sign-in", parameters: ["user": "ada", "password": "wrong"]) }
    }

    static let profile = ContractScenario(
        description: "fetch the profile with the token",
        expected: .answered(status: 200, contentType: "application/json",
                            json: ["id": 7, "name": "Ada Lovelace", "languages": ["en", "fr"]], progressCompleted: nil)
    ) { network, _, _ in
        await outcome {
            let signIn = try await network.data.post("auth/sign-in", parameters: ["user": "ada", "password": "lovelace"])
            let token = signIn.json?["token"]?.stringValue ?? ""
            return try await network.data.get("me", headers: ["Authorization": "Bearer \(token)"])
        }
    }

    static let anonymousProfile = ContractScenario(
        description: "a 401 without the token",
        expected: .failed(domain: ResponseSerializationError.errorDomain, code: -1011, body: ["error": "unauthorized"])
    ) { network, _, _ in
        await outcome { try await network.data.get("me") }
    }

    static let avatar = ContractScenario(
        description: "upload an avatar (multipart) with progress",
        expected: .answered(status: 201, contentType: "application/json", json: ["stored": 150_000, "fileName": "ada.png"],
                            progressCompleted: true)
    ) { network, _, _ in
        let fraction = Locked(0.0)
        var result = await outcome {
            try await network.upload.multipart("avatar", parameters: ["caption": "me"], progress: { fraction.value = $0.fractionCompleted }) { form in
                form.append(Data(repeating: 0x89, count: 150_000), name: "avatar", fileName: "ada.png", mimeType: "image/png")
            }
        }
        if case .answered(let status, let type, let json, _) = result {
            result = .answered(status: status, contentType: type, json: json, progressCompleted: fraction.value == 1.0)
        }
        return result
    }

    static let report = ContractScenario(
        description: "download a file with progress",
        expected: .downloaded(bytes: ContractServer.reportLength, firstBytes: [0, 1, 2, 3], progressCompleted: true)
    ) { network, folder, _ in
        let fraction = Locked(0.0)
        let destination = folder.appendingPathComponent("report.bin")
        do {
            let file = try await network.download.download("files/report.bin", to: destination, progress: { fraction.value = $0.fractionCompleted })
            let data = try Data(contentsOf: file)
            return .downloaded(bytes: data.count, firstBytes: Array(data.prefix(4)), progressCompleted: fraction.value == 1.0)
        } catch {
            return failure(error)
        }
    }

    static let serverError = ContractScenario(
        description: "a 500 with an error body",
        expected: .failed(domain: ResponseSerializationError.errorDomain, code: -1011,
                          body: ["error": "database unavailable", "retryAfter": 30])
    ) { network, _, _ in
        await outcome { try await network.data.get("broken") }
    }

    static let timeout = ContractScenario(
        description: "a timeout",
        expected: .failed(domain: NSURLErrorDomain, code: URLError.timedOut.rawValue, body: nil)
    ) { network, _, _ in
        await outcome { try await network.data.get("slow") }
    }

    static let dropped = ContractScenario(
        description: "a dropped connection",
        expected: .failed(domain: NSURLErrorDomain, code: URLError.networkConnectionLost.rawValue, body: nil)
    ) { network, _, _ in
        await outcome { try await network.data.get("dropped") }
    }

    static let offline = ContractScenario(
        description: "the network going offline",
        expected: .failed(domain: NSURLErrorDomain, code: URLError.notConnectedToInternet.rawValue, body: nil)
    ) { network, _, simulated in
        await simulated.transition(to: .notReachable)
        let result = await outcome { try await network.data.get("me") }
        await simulated.transition(to: .reachableViaWiFi)
        return result
    }

    /// Runs a data call and describes what happened.
    private static func outcome(_ call: () async throws -> ServiceResult) async -> Outcome {
        do {
            let result = try await call()
            let type = result.headers["Content-Type"]?.split(separator: ";").first.map(String.init)
            return .answered(status: result.statusCode, contentType: type, json: normalized(result.json), progressCompleted: nil)
        } catch {
            return failure(error)
        }
    }

    private static func failure(_ error: any Error) -> Outcome {
        let nsError = error as NSError
        var body: JSONValue?
        if let serialization = error as? ResponseSerializationError, let data = serialization.data {
            body = (try? JSONSerialization.jsonObject(with: data)).flatMap(JSONValue.init(foundationObject:))
        }
        return .failed(domain: nsError.domain, code: nsError.code, body: body)
    }

    /// A token's value is a secret the cassette redacts; the contract is that one is present.
    private static func normalized(_ json: JSONValue?) -> JSONValue? {
        guard case .object(var members) = json else { return json }
        if let token = members["token"]?.stringValue, !token.isEmpty { members["token"] = "<present>" }
        return .object(members)
    }
}
