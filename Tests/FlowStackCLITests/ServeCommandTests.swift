import FlowStackTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("flowstack serve and bundle --output")
struct ServeCommandTests {
    @Test("serve --help shows the endpoints and examples")
    func help() async throws {
        let output = try await CLIRunner.run(["serve", "--help"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("Examples:"))
        #expect(output.stdout.contains("flowstack serve Scripts --port 8765 --token dev-secret"))
        #expect(output.stdout.contains("GET /v1/rules"))
        #expect(output.stdout.contains("POST /v1/report"))
        #expect(output.stdout.contains("FLOWSTACK_SERVE_TOKEN"))
    }

    @Test("bundle --output writes one signed archive file")
    func bundleOutput() async throws {
        let project = try TemporaryProject(["routes.lua": TemporaryProject.manifest, "rules/auth.lua": TemporaryProject.rules])
        defer { project.remove() }
        let key = project.url.deletingLastPathComponent().appendingPathComponent("\(project.url.lastPathComponent).key")
        defer { try? FileManager.default.removeItem(at: key) }
        #expect(try await CLIRunner.run(["keygen", "--private-key", key.path, "--public-key", key.path + ".pub"]).status == 0)
        defer { try? FileManager.default.removeItem(atPath: key.path + ".pub") }
        let archive = project.url.deletingLastPathComponent().appendingPathComponent("\(project.url.lastPathComponent).flowbundle")
        defer { try? FileManager.default.removeItem(at: archive) }
        let output = try await CLIRunner.run([
            "bundle", project.path, "--key", key.path, "--version", "1.0", "--min-app", "1.0", "--expires", "2099-01-01",
            "--output", archive.path,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("wrote \(archive.path) (2 files"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: archive)) as? [String: Any])
        #expect(json["archive"] as? Int == 1)
        #expect(json["signature"] is String)
        #expect((json["files"] as? [String: String])?.keys.sorted() == ["routes.lua", "rules/auth.lua"])
    }

    @Test("serve with rules that do not load prints file:line and serves nothing (503)")
    func brokenAtStart() throws {
        let project = try TemporaryProject(["routes.lua": TemporaryProject.manifest, "rules/auth.lua": "flow.guard(\"detail\", function(\n"])
        defer { project.remove() }
        let command = try RunningCommand(["serve", project.path, "--host", "127.0.0.1", "--token", "t"])
        defer { command.stop() }
        let output = command.output
        let failure = output.waitForLine(containing: "did not load", timeout: 30)
        #expect(failure?.contains("rules/auth.lua:") == true, "\(output.text)")
        #expect(output.text.contains("token: t"))
        #expect(output.text.contains("engine.connect(to: URL(string: \"http://127.0.0.1:"))
        let line = try #require(output.waitForLine(containing: "url: http://127.0.0.1:", timeout: 1))
        let url = try #require(URL(string: String(line.dropFirst("url: ".count)) + "/v1/rules"))
        var request = URLRequest(url: url)
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        let status = Self.status(of: request)
        #expect(status == 503)
    }

    @Test("serve takes its token from FLOWSTACK_SERVE_TOKEN")
    func tokenFromEnvironment() throws {
        let project = try TemporaryProject(["routes.lua": TemporaryProject.manifest, "rules/auth.lua": TemporaryProject.rules])
        defer { project.remove() }
        let command = try RunningCommand(["serve", project.path, "--host", "127.0.0.1"], environment: ["FLOWSTACK_SERVE_TOKEN": "from-env"])
        defer { command.stop() }
        let output = command.output
        #expect(output.waitForLine(containing: "serving generation 1", timeout: 30) != nil, "\(output.text)")
        #expect(output.text.contains("token: from-env"))
        let line = try #require(output.waitForLine(containing: "url: http://127.0.0.1:", timeout: 1))
        var request = URLRequest(url: try #require(URL(string: String(line.dropFirst("url: ".count)) + "/v1/rules")))
        request.setValue("Bearer from-env", forHTTPHeaderField: "Authorization")
        #expect(Self.status(of: request) == 200)
    }

    /// The status of a request (0 when it failed), waiting at most 10 seconds.
    static func status(of request: URLRequest) -> Int {
        let done = DispatchSemaphore(value: 0)
        let box = StatusBox()
        URLSession.shared.dataTask(with: request) { _, response, _ in
            box.set((response as? HTTPURLResponse)?.statusCode ?? 0)
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        return box.value
    }

    final class StatusBox: @unchecked Sendable {
        private let lock = NSLock()
        private var status = 0
        func set(_ value: Int) { lock.lock(); status = value; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return status }
    }
}
