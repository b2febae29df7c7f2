import FlowStackTestSupport
import Foundation
import Testing

/// `flowstack serve` against framing attacks, descriptor exhaustion and more connections than
/// it holds: no request crashes it, and authorized clients are still served.
@Suite("flowstack serve: framing, descriptors and the connection cap")
struct ServeRobustnessTests {
    static let report = #"{"device":"d","result":"loaded","generation":1}"#

    /// A chunked report whose chunk-size lines are `sizes` (each followed by that many bytes of
    /// the report, when it parses), then the last chunk.
    static func chunked(_ lines: [String], body: String) -> String {
        var text = "POST /v1/report HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nTransfer-Encoding: chunked\r\n\r\n"
        for line in lines { text += line + "\r\n" }
        return text + body
    }

    @Test("chunk sizes are 1 to 16 hex digits, extensions ignored: anything else is 400, a huge size 413, and serve goes on")
    func chunkSizes() throws {
        let project = try ServeHardeningTests.project()
        defer { project.remove() }
        let server = try ServeHardeningTests.serving(project)
        defer { server.stop() }
        let body = Self.report
        let size = String(body.utf8.count, radix: 16)
        let cases: [(request: String, status: Int)] = [
            (Self.chunked([size], body: body + "\r\n0\r\n\r\n"), 204),
            (Self.chunked([size.uppercased() + ";name=value;other"], body: body + "\r\n0;last\r\n\r\n"), 204),
            (Self.chunked(["000" + size], body: body + "\r\n0\r\n\r\n"), 204),
            // One byte, then a size that overflows any addition to it.
            (Self.chunked(["1"], body: "{\r\n7fffffffffffffff\r\n"), 413),
            (Self.chunked(["1"], body: "{\r\nffffffffffffffff\r\n"), 413),
            (Self.chunked(["10000000000000000"], body: ""), 400),
            (Self.chunked(["1 0"], body: ""), 400),
            (Self.chunked(["+2"], body: ""), 400),
            (Self.chunked(["-1"], body: ""), 400),
            (Self.chunked([" 5"], body: ""), 400),
            (Self.chunked(["5 "], body: ""), 400),
            (Self.chunked(["5\t;x"], body: ""), 400),
            (Self.chunked(["0x5"], body: ""), 400),
            (Self.chunked([""], body: ""), 400),
            (Self.chunked([";x"], body: ""), 400),
            (Self.chunked(["g"], body: ""), 400),
        ]
        for (request, status) in cases {
            let connection = try RawConnection(port: server.port)
            defer { connection.close() }
            connection.send(request)
            let answer = connection.readResponse(timeout: 10)
            #expect(answer?.status == status, "\(request.debugDescription): \(answer?.status ?? 0) \(server.output.text)")
            #expect(server.isRunning, "\(server.output.text)")
        }
        #expect(server.getRules()?.status == 200, "\(server.output.text)")
    }

    @Test("120 connections under ulimit -n 64, held and then closed: serve never runs out of descriptors and serves again, 20 times in a row")
    func descriptorsExhausted() throws {
        let project = try ServeHardeningTests.project()
        defer { project.remove() }
        for round in 1...20 {
            let server = try ServeHardeningTests.serving(project, extra: ["--idle-timeout", "30"], descriptorLimit: 64)
            defer { server.stop() }
            var idle: [RawConnection] = []
            for _ in 0..<120 {
                if let connection = try? RawConnection(port: server.port) { idle.append(connection) }
            }
            // Held past a tick of libdispatch's worker monitor (once a second it opens
            // /proc/<tid>/stat, and traps when no descriptor is left).
            #expect(server.output.waitForLine(containing: "cannot accept", timeout: 15) != nil, "round \(round): \(server.output.text)")
            Thread.sleep(forTimeInterval: 1.2)
            // An authorized request while they are open: served (the oldest idle ones make room).
            #expect(server.getRules(timeout: 15)?.status == 200, "round \(round): \(server.output.text)")
            for connection in idle { connection.close() }
            var status = 0
            for _ in 0..<50 where status != 200 {
                status = server.getRules(timeout: 5)?.status ?? 0
                if status != 200 { Thread.sleep(forTimeInterval: 0.2) }
            }
            #expect(status == 200, "round \(round): \(server.output.text)")
            #expect(server.isRunning, "round \(round): serve ended: \(server.output.text)")
        }
    }

    @Test("at the connection cap, the oldest idle connections are shed and an authorized request is answered")
    func capShedsIdleFirst() throws {
        let project = try ServeHardeningTests.project()
        defer { project.remove() }
        // 100 descriptors: a cap of 52 connections.
        let server = try ServeHardeningTests.serving(project, descriptorLimit: 100)
        defer { server.stop() }
        let first = try RawConnection(port: server.port)
        defer { first.close() }
        var idle: [RawConnection] = []
        for _ in 0..<150 {
            if let connection = try? RawConnection(port: server.port) { idle.append(connection) }
        }
        defer { for connection in idle { connection.close() } }
        #expect(server.getRules(timeout: 15)?.status == 200, "\(server.output.text)")
        // The oldest idle connection was shed, the newest still stands.
        #expect(first.waitForClose(timeout: 15))
        #expect(idle.last?.waitForClose(timeout: 0.5) == false, "\(server.output.text)")
        #expect(server.isRunning, "\(server.output.text)")
    }

    @Test("authorized long polls are never shed while idle connections remain, and each is answered after a save")
    func longPollsKept() throws {
        let project = try ServeHardeningTests.project()
        defer { project.remove() }
        let server = try ServeHardeningTests.serving(project, descriptorLimit: 100)
        defer { server.stop() }
        let tag = try #require(server.getRules()?.header("etag"))
        var polls: [RawConnection] = []
        defer { for connection in polls { connection.close() } }
        for _ in 0..<30 {
            let poll = try RawConnection(port: server.port)
            poll.send("GET /v1/rules?wait=60 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nIf-None-Match: \(tag)\r\n\r\n")
            polls.append(poll)
        }
        // Every poll is waiting (its head screened) once a request sent after them is answered.
        #expect(server.getRules()?.status == 200)
        var idle: [RawConnection] = []
        defer { for connection in idle { connection.close() } }
        for _ in 0..<150 {
            if let connection = try? RawConnection(port: server.port) { idle.append(connection) }
        }
        try Self.save(project)
        #expect(server.output.waitForLine(containing: "serving generation 2", timeout: 30) != nil, "\(server.output.text)")
        let answered = polls.filter { $0.readResponse(timeout: 20)?.status == 200 }.count
        #expect(answered == polls.count, "\(server.output.text)")
    }

    @Test("300 long polls are all answered after a save")
    func manyLongPolls() throws {
        let project = try ServeHardeningTests.project()
        defer { project.remove() }
        let server = try ServeHardeningTests.serving(project)
        defer { server.stop() }
        let tag = try #require(server.getRules()?.header("etag"))
        var polls: [RawConnection] = []
        defer { for connection in polls { connection.close() } }
        for _ in 0..<300 {
            let poll = try RawConnection(port: server.port)
            poll.send("GET /v1/rules?wait=60 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nIf-None-Match: \(tag)\r\n\r\n")
            polls.append(poll)
        }
        #expect(server.getRules()?.status == 200)
        try Self.save(project)
        #expect(server.output.waitForLine(containing: "serving generation 2", timeout: 30) != nil, "\(server.output.text)")
        let answered = polls.filter { $0.readResponse(timeout: 20)?.status == 200 }.count
        #expect(answered == 300, "\(server.output.text)")
    }

    /// Saves a changed rules file.
    static func save(_ project: TemporaryProject) throws {
        let file = project.url.appendingPathComponent("rules/auth.lua")
        try (TemporaryProject.rules + "\n-- saved\n").write(to: file, atomically: true, encoding: .utf8)
    }
}
