import FlowStackTestSupport
import Foundation
import Testing

/// `flowstack serve` against clients that misbehave, and rules an app would refuse.
@Suite("flowstack serve holds against hostile clients and files")
struct ServeHardeningTests {
    static func project(_ extra: [String: String] = [:]) throws -> TemporaryProject {
        try TemporaryProject(["routes.lua": TemporaryProject.manifest, "rules/auth.lua": TemporaryProject.rules].merging(extra) { $1 })
    }

    /// Starts serve on a fresh project and waits for generation 1.
    static func serving(_ project: TemporaryProject, extra: [String] = [], descriptorLimit: Int? = nil) throws -> ServeFixture {
        let server = try ServeFixture(project, extra: extra, descriptorLimit: descriptorLimit)
        guard server.output.waitForLine(containing: "serving generation 1", timeout: 30) != nil else {
            server.stop()
            throw ServeFixture.FixtureError(description: "serve did not load: \(server.output.text)")
        }
        return server
    }

    // MARK: - Headers

    @Test("megabytes of headers without a token are refused with 431 as soon as the limit passes")
    func oversizedHeaders() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        connection.send("GET /v1/rules HTTP/1.1\r\nHost: x\r\n")
        let line = "X-Pad: " + String(repeating: "a", count: 1_000) + "\r\n"
        var sent = 0
        while sent < 4 << 20, !connection.hasAnswered(), connection.send(line) { sent += line.utf8.count }
        let response = connection.readResponse(timeout: 10)
        #expect(response?.status == 431, "\(sent) bytes sent; \(server.output.text)")
    }

    @Test("one header line longer than the limit is refused with 431")
    func oneLongHeader() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        connection.send("GET /v1/rules HTTP/1.1\r\nX-Long: ")
        let chunk = String(repeating: "b", count: 8_192)
        var sent = 0
        while sent < 2 << 20, !connection.hasAnswered(), connection.send(chunk) { sent += chunk.utf8.count }
        #expect(connection.readResponse(timeout: 10)?.status == 431)
    }

    @Test("an authorized client is answered while three clients send megabytes of headers and three trickle them")
    func responsiveUnderHeaderFloods() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        let stop = StopFlag()
        let group = DispatchGroup()
        let port = server.port
        for index in 0..<6 {
            DispatchQueue.global().async(group: group) {
                // Endless headers, reconnecting whenever the server drops the connection: three
                // clients send one header line of up to 4 MB as fast as the server reads it, then
                // leave; three send a short line every 50 ms.
                let flood = index < 3
                while !stop.isSet {
                    guard let connection = try? RawConnection(port: port) else { continue }
                    connection.send("GET /v1/rules HTTP/1.1\r\n" + (flood ? "X-Long: " : ""))
                    var sent = 0
                    while !stop.isSet, sent < 4 << 20 || !flood {
                        let piece = flood ? String(repeating: "z", count: 8_192) : "X-Slow-\(sent): z\r\n"
                        guard connection.send(piece) else { break }
                        sent += piece.utf8.count
                        if !flood { Thread.sleep(forTimeInterval: 0.05) }
                    }
                    connection.close()
                }
            }
        }
        defer {
            stop.set()
            group.wait()
        }
        Thread.sleep(forTimeInterval: 2)
        var statuses: [Int] = []
        for _ in 0..<10 {
            statuses.append(server.getRules(timeout: 5)?.status ?? 0)
        }
        #expect(statuses == Array(repeating: 200, count: 10), "\(server.output.text)")
    }

    // MARK: - Bodies

    @Test("an authorized 256 MB report is refused with 413 before its body is read")
    func hugeReport() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        connection.send("POST /v1/report HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: \(256 << 20)\r\n\r\n")
        connection.send(Data(repeating: 0x20, count: 64 << 10))
        #expect(connection.readResponse(timeout: 10)?.status == 413, "\(server.output.text)")
    }

    @Test("a chunked report is refused with 413 once its chunks pass the limit")
    func chunkedReport() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        connection.send("POST /v1/report HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = "4000\r\n" + String(repeating: " ", count: 0x4000) + "\r\n"
        var sent = 0
        while sent < 8 << 20, !connection.hasAnswered(), connection.send(chunk) { sent += 0x4000 }
        #expect(connection.readResponse(timeout: 10)?.status == 413, "\(sent) bytes sent; \(server.output.text)")
    }

    @Test("a large body without the token is answered 401 without being read")
    func unauthorizedBody() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        connection.send("POST /v1/report HTTP/1.1\r\nHost: x\r\nContent-Length: \(256 << 20)\r\n\r\n")
        #expect(connection.readResponse(timeout: 10)?.status == 401)
    }

    // MARK: - Timeouts and descriptors

    @Test("a request that never ends and a silent connection are dropped")
    func timeouts() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project, extra: ["--request-timeout", "1", "--idle-timeout", "1"])
        defer { server.stop() }
        let partial = try RawConnection(port: server.port)
        defer { partial.close() }
        partial.send("GET /v1/rules HTTP/1.1\r\nAuthorization: Bearer t\r\n")
        let silent = try RawConnection(port: server.port)
        defer { silent.close() }
        #expect(partial.waitForClose(timeout: 15))
        #expect(silent.waitForClose(timeout: 15))
        #expect(server.getRules()?.status == 200)
    }

    @Test("serve warns when accept fails for lack of descriptors and serves again once they free up")
    func acceptRecovers() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project, extra: ["--idle-timeout", "30"], descriptorLimit: 64)
        defer { server.stop() }
        var idle: [RawConnection] = []
        for _ in 0..<100 {
            if let connection = try? RawConnection(port: server.port) { idle.append(connection) }
        }
        let warning = server.output.waitForLine(containing: "cannot accept", timeout: 15)
        #expect(warning != nil, "\(server.output.text)")
        for connection in idle { connection.close() }
        var status = 0
        let deadline = Date().addingTimeInterval(30)
        while status != 200, Date() < deadline {
            status = server.getRules(timeout: 5)?.status ?? 0
            if status != 200 { Thread.sleep(forTimeInterval: 0.2) }
        }
        #expect(status == 200, "\(server.output.text)")
    }

    // MARK: - Listening address

    @Test("serve listens on loopback unless --host says otherwise, and warns when it does")
    func loopbackByDefault() throws {
        let project = try Self.project()
        defer { project.remove() }
        let local = try ServeFixture(project, host: nil)
        _ = local.output.waitForLine(containing: "watching", timeout: 10)
        let text = local.output.text
        local.stop()
        let urls = text.split(separator: "\n").filter { $0.hasPrefix("url: ") }
        #expect(urls.count == 1 && urls.first?.hasPrefix("url: http://127.0.0.1:") == true, "\(text)")
        #expect(!text.contains("warning"))

        let open = try ServeFixture(project, host: "0.0.0.0")
        let warned = open.output.waitForLine(containing: "warning: listening on 0.0.0.0", timeout: 10)
        open.stop()
        #expect(warned?.contains("devices on the network can reach") == true, "\(open.output.text)")
    }

    // MARK: - What is served

    @Test("a rules file that links outside the project is not served")
    func linkOutside() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-secret-\(UUID().uuidString).lua")
        try Data("-- a secret outside the project\n".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let project = try Self.project()
        defer { project.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: project.url.appendingPathComponent("rules/x.lua").path, withDestinationPath: secret.path)
        let server = try ServeFixture(project)
        defer { server.stop() }
        let refusal = server.output.waitForLine(containing: "did not load", timeout: 30)
        #expect(refusal?.contains("rules/x.lua") == true, "\(server.output.text)")
        #expect(refusal?.contains("outside") == true)
        #expect(server.getRules()?.status == 503)
    }

    @Test("serve hands out routes.lua and rules/ only, never a types file at the project root")
    func onlyRulesServed() throws {
        let project = try Self.project(["flowstack-types.lua": "---@meta\nfacts = {}\n", "notes.lua": "return 1\n"])
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        let response = try #require(server.getRules())
        #expect(response.status == 200)
        let archive = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect((archive["files"] as? [String: String])?.keys.sorted() == ["routes.lua", "rules/auth.lua"])
    }

    @Test("a rules file over the per-file limit is not published and the last generation stays")
    func fileOverLimit() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        try Self.place(["big.lua": Self.bigComment(megabytes: 9)], in: project)
        let refusal = server.output.waitForLine(containing: "generation 1 is still served", timeout: 60)
        #expect(refusal?.contains("8 MiB") == true, "\(server.output.text)")
        #expect(!server.output.text.contains("serving generation 2"))
        #expect(server.getRules()?.header("X-FlowStack-Generation") == "1")
    }

    @Test("rules whose archive passes the app's limit are not published and the last generation stays")
    func archiveOverLimit() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        let big = Self.bigComment(megabytes: 7)
        try Self.place(["big1.lua": big, "big2.lua": big], in: project)
        // 14 MiB of files: over the bundle limits every app shares (12 MiB of files, a 16 MiB archive).
        let refusal = server.output.waitForLine(containing: "generation 1 is still served", timeout: 60)
        #expect(refusal?.contains("over a bundle limit") == true, "\(server.output.text)")
        #expect(!server.output.text.contains("serving generation 2"))
        #expect(server.getRules()?.header("X-FlowStack-Generation") == "1")
    }

    /// Writes files under `rules/` whole before the watcher sees them: written under another
    /// name first, then renamed (one rename each, within the save debounce).
    static func place(_ files: [String: Data], in project: TemporaryProject) throws {
        let rules = project.url.appendingPathComponent("rules")
        for (name, data) in files { try data.write(to: rules.appendingPathComponent(name + ".part")) }
        for name in files.keys {
            try FileManager.default.moveItem(at: rules.appendingPathComponent(name + ".part"), to: rules.appendingPathComponent(name))
        }
    }

    static func bigComment(megabytes: Int) -> Data {
        let line = "-- " + String(repeating: "x", count: 1_020) + "\n"
        return Data(String(repeating: line, count: megabytes * 1_024).utf8)
    }

    // MARK: - Reports

    @Test("report fields are printed escaped, on one line, and cut short")
    func reportEscaped() throws {
        let project = try Self.project()
        defer { project.remove() }
        let server = try Self.serving(project)
        defer { server.stop() }
        let fields: [String: Any] = [
            "device": "evil\u{1B}]0;pwned\u{07}\nforged: generation 99 loaded",
            "result": "failed",
            "generation": String(repeating: "9", count: 5_000),
            "error": "bad\r\n[00:00:00] iPhone: generation 7 loaded\u{1B}[2J",
        ]
        let body = try JSONSerialization.data(withJSONObject: fields)
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        connection.send("POST /v1/report HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Length: \(body.count)\r\n\r\n")
        connection.send(body)
        #expect(connection.readResponse(timeout: 10)?.status == 204)
        let line = try #require(server.output.waitForLine(containing: "did not load, generation", timeout: 10))
        let text = server.output.text
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D }, "\(text)")
        #expect(!text.contains("\nforged"))
        #expect(!text.contains("\n[00:00:00] iPhone"))
        #expect(line.contains("evil\\u{1B}]0;pwned\\u{7}\\nforged"))
        #expect(line.count < 400, "\(line)")
    }
}

/// A flag the flooding threads read.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
