import FlowLiveRules
import Foundation

/// The HTTP side of `flowstack serve`: `GET /v1/rules` (long poll) and `POST /v1/report`, as
/// `FlowLiveRulesProtocol` writes them.
struct RulesEndpoints: ServeHTTPHandler {
    let hub: LiveRulesHub
    let token: String
    /// Called with each report an app sends.
    let onReport: @Sendable (FlowLiveRulesProtocol.Report) -> Void
    /// Said when no rules have loaded yet (the first load failed).
    let notReady: @Sendable () async -> String

    /// The routes: path and method.
    private static let routes: [String: String] = [
        "/" + FlowLiveRulesProtocol.rulesPath: "GET", "/" + FlowLiveRulesProtocol.reportPath: "POST",
    ]

    /// Unknown paths, wrong methods and requests without the token are answered from the head.
    func screen(_ head: ServeRequestHead) async -> ServeResponse? {
        guard let method = Self.routes[head.path] else {
            return .text(404, "flowstack serve answers GET /\(FlowLiveRulesProtocol.rulesPath) and POST /\(FlowLiveRulesProtocol.reportPath) only\n")
        }
        guard head.method == method else {
            return .text(405, "\(head.path) answers \(method) only\n", headers: [("Allow", method)])
        }
        guard authorized(head) else { return Self.unauthorized() }
        return nil
    }

    func respond(to request: ServeRequest) async -> ServeResponse {
        request.head.path == "/" + FlowLiveRulesProtocol.reportPath ? report(request.body) : await rules(request.head)
    }

    /// `GET /v1/rules[?wait=S]`, with `If-None-Match` for a long poll.
    func rules(_ head: ServeRequestHead) async -> ServeResponse {
        let known = head.header("if-none-match").map(Self.normalizedTag)
        let wait = min(FlowLiveRulesProtocol.maximumWait, max(0, Int(head.query[FlowLiveRulesProtocol.waitField] ?? "") ?? 0))
        guard await hub.current != nil else {
            return .text(503, "no rules have loaded yet: \(await notReady())\n")
        }
        guard let snapshot = await hub.next(notMatching: known, seconds: known == nil ? 0 : wait) else {
            var headers: [(name: String, value: String)] = [("Cache-Control", "no-store")]
            if let tag = await hub.current?.etag { headers.append(("ETag", tag)) }
            return ServeResponse(status: 304, headers: headers)
        }
        return ServeResponse(status: 200, headers: [
            ("ETag", snapshot.etag),
            ("Content-Type", FlowLiveRulesProtocol.bundleContentType),
            ("Cache-Control", "no-store"),
            (FlowLiveRulesProtocol.generationHeader, String(snapshot.generation)),
        ], body: snapshot.body)
    }

    /// `POST /v1/report`: hands what the app loaded to `onReport`.
    func report(_ body: Data) -> ServeResponse {
        guard let report = FlowLiveRulesProtocol.Report(json: body) else {
            return .text(400, "send a JSON object: device, result, generation, error\n")
        }
        onReport(report)
        return ServeResponse(status: 204)
    }

    /// Whether the request carries `Authorization: Bearer <token>` (compared in constant time).
    func authorized(_ head: ServeRequestHead) -> Bool {
        let prefix = FlowLiveRulesProtocol.authorizationPrefix
        guard let header = head.header("authorization"), header.hasPrefix(prefix) else { return false }
        return Self.constantTimeEqual(String(header.dropFirst(prefix.count)), token)
    }

    /// Compares every byte of the longer string whatever the contents, so the time taken tells
    /// nothing about how much of a guess was right.
    static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        var difference: UInt8 = a.count == b.count ? 0 : 1
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    /// `W/"x"`, `"x"` and `x` name the same tag.
    static func normalizedTag(_ text: String) -> String {
        var tag = text.trimmingCharacters(in: .whitespaces)
        if tag.hasPrefix("W/") { tag.removeFirst(2) }
        if !tag.hasPrefix("\"") { tag = "\"\(tag)\"" }
        return tag
    }

    static func unauthorized() -> ServeResponse {
        .text(401, "send Authorization: Bearer <token>, with the token flowstack serve printed\n", headers: [("WWW-Authenticate", "Bearer")])
    }
}
