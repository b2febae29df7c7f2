import FlyingFox
import Foundation

/// The HTTP side of `flowstack serve`: `GET /v1/rules` (long poll) and `POST /v1/report`.
struct RulesEndpoints: Sendable {
    let hub: LiveRulesHub
    let token: String
    let terminal: Terminal
    /// Said when no rules have loaded yet (the first load failed).
    let notReady: @Sendable () async -> String

    /// The longest long poll, in seconds.
    static let maximumWait = 60

    /// Adds the routes to `server`.
    func install(on server: HTTPServer) async {
        await server.appendRoute("GET /v1/rules") { request in await rules(request) }
        await server.appendRoute("POST /v1/report") { request in await report(request) }
        await server.appendRoute("*") { _ in
            Self.text(.notFound, "flowstack serve answers GET /v1/rules and POST /v1/report only\n")
        }
    }

    /// `GET /v1/rules[?wait=S]`, with `If-None-Match` for a long poll.
    func rules(_ request: HTTPRequest) async -> HTTPResponse {
        guard authorized(request) else { return Self.unauthorized() }
        let known = request.headers[.ifNoneMatch].map(Self.normalizedTag)
        let wait = min(Self.maximumWait, max(0, Int(request.query["wait"] ?? "") ?? 0))
        guard await hub.current != nil else {
            return Self.text(.serviceUnavailable, "no rules have loaded yet: \(await notReady())\n")
        }
        guard let snapshot = await hub.next(notMatching: known, seconds: known == nil ? 0 : wait) else {
            var headers = HTTPHeaders()
            if let tag = await hub.current?.etag { headers[.eTag] = tag }
            headers[.cacheControl] = "no-store"
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }
        var headers = HTTPHeaders()
        headers[.eTag] = snapshot.etag
        headers[.contentType] = "application/vnd.flowstack.bundle+json"
        headers[.cacheControl] = "no-store"
        headers[HTTPHeader("X-FlowStack-Generation")] = String(snapshot.generation)
        return HTTPResponse(statusCode: .ok, headers: headers, body: snapshot.body)
    }

    /// `POST /v1/report`: prints what the app loaded.
    func report(_ request: HTTPRequest) async -> HTTPResponse {
        guard authorized(request) else { return Self.unauthorized() }
        let body = (try? await request.bodyData) ?? Data()
        guard body.count <= 64 << 10,
              let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            return Self.text(.badRequest, "send a JSON object: device, result, generation, error\n")
        }
        let device = (fields["device"] as? String).map { String($0.prefix(80)) } ?? "app"
        let generation = (fields["generation"] as? String) ?? (fields["generation"] as? Int).map(String.init) ?? "?"
        let time = ServeSession.clockTime()
        switch fields["result"] as? String {
        case "loaded":
            terminal.line("[\(time)] " + terminal.green("\(device): generation \(generation) loaded"))
        default:
            let error = (fields["error"] as? String).map { String($0.prefix(2_000)) } ?? "unknown error"
            terminal.line("[\(time)] " + terminal.red("\(device): did not load, generation \(generation) stays: ") + error)
        }
        return HTTPResponse(statusCode: .noContent)
    }

    /// Whether the request carries `Authorization: Bearer <token>` (compared in constant time).
    func authorized(_ request: HTTPRequest) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
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

    static func unauthorized() -> HTTPResponse {
        var response = text(.unauthorized, "send Authorization: Bearer <token>, with the token flowstack serve printed\n")
        response.headers[HTTPHeader("WWW-Authenticate")] = "Bearer"
        return response
    }

    static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(text.utf8))
    }
}
