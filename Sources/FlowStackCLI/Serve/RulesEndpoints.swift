import FlowLua
import FlowStackCore
import Foundation

/// The HTTP side of `flowstack serve`: `GET /v1/rules` (long poll) and `POST /v1/report`.
struct RulesEndpoints: ServeHTTPHandler {
    let hub: LiveRulesHub
    let token: String
    let terminal: Terminal
    /// Said when no rules have loaded yet (the first load failed).
    let notReady: @Sendable () async -> String

    /// The longest long poll, in seconds.
    static let maximumWait = 60

    /// The routes: path and method.
    private static let routes: [String: String] = ["/v1/rules": "GET", "/v1/report": "POST"]

    /// Unknown paths, wrong methods and requests without the token are answered from the head.
    func screen(_ head: ServeRequestHead) async -> ServeResponse? {
        guard let method = Self.routes[head.path] else {
            return .text(404, "flowstack serve answers GET /v1/rules and POST /v1/report only\n")
        }
        guard head.method == method else {
            return .text(405, "\(head.path) answers \(method) only\n", headers: [("Allow", method)])
        }
        guard authorized(head) else { return Self.unauthorized() }
        return nil
    }

    func respond(to request: ServeRequest) async -> ServeResponse {
        request.head.path == "/v1/report" ? report(request.body) : await rules(request.head)
    }

    /// `GET /v1/rules[?wait=S]`, with `If-None-Match` for a long poll.
    func rules(_ head: ServeRequestHead) async -> ServeResponse {
        let known = head.header("if-none-match").map(Self.normalizedTag)
        let wait = min(Self.maximumWait, max(0, Int(head.query["wait"] ?? "") ?? 0))
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
            ("Content-Type", "application/vnd.flowstack.bundle+json"),
            ("Cache-Control", "no-store"),
            ("X-FlowStack-Generation", String(snapshot.generation)),
        ], body: snapshot.body)
    }

    /// `POST /v1/report`: prints what the app loaded, every field escaped and cut.
    func report(_ body: Data) -> ServeResponse {
        guard let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            return .text(400, "send a JSON object: device, result, generation, error\n")
        }
        let device = (fields["device"] as? String).map { ServeReportText.printable($0, limit: 80) } ?? "app"
        let generation = ServeReportText.generation(fields["generation"])
        let time = Terminal.clockTime()
        switch fields["result"] as? String {
        case "loaded":
            terminal.line("[\(time)] " + terminal.green("\(device): generation \(generation) loaded"))
        default:
            let error = (fields["error"] as? String).map { ServeReportText.printable($0, limit: 2_000) } ?? "unknown error"
            terminal.line("[\(time)] " + terminal.red("\(device): did not load, generation \(generation) stays: ") + error)
        }
        return ServeResponse(status: 204)
    }

    /// Whether the request carries `Authorization: Bearer <token>` (compared in constant time).
    func authorized(_ head: ServeRequestHead) -> Bool {
        guard let header = head.header("authorization"), header.hasPrefix("Bearer ") else { return false }
        return Self.constantTimeEqual(String(header.dropFirst("Bearer ".count)), token)
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

/// Report fields as the terminal shows them: one line, no terminal control, a bounded length.
enum ServeReportText {
    /// `text` on one line (`FlowTerminalText`: controls and line breaks shown escaped), cut to
    /// `limit` characters (then ending in `…`).
    static func printable(_ text: String, limit: Int) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return FlowTerminalText.line(text) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars.prefix(limit))
        return FlowTerminalText.line(String(kept)) + "…"
    }

    /// The generation an app reported: a number, or text shown escaped and cut short.
    static func generation(_ value: Any?) -> String {
        if let number = value as? Int { return String(number) }
        if let text = value as? String { return printable(text, limit: 20) }
        return "?"
    }
}
