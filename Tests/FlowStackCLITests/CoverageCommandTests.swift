import FlowStackTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("flowstack test --coverage")
struct CoverageCommandTests {
    @Test("writes lcov that genhtml accepts and ends the pretty report with a per-file summary")
    func lcovAndSummary() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lcov = directory.appendingPathComponent("rules.lcov")
        let output = try await CLIRunner.run(["test", "Scripts", "--coverage", lcov.path])
        #expect(output.status == 0)
        #expect(output.lines.last?.hasSuffix("passed, 0 failed") == true, "the summary stays last")
        #expect(output.stdout.contains("Rules coverage"))
        #expect(output.lines.contains { $0.wholeMatch(of: /\ \ rules\/20-paywall\.lua +\d+% lines \(\d+\/\d+\), \d+\/\d+ functions/) != nil },
                "\(output.stdout)")
        let text = try String(contentsOf: lcov, encoding: .utf8)
        #expect(text.components(separatedBy: "end_of_record").count - 1 == 9, "one record per rules file")
        for prefix in ["TN:", "SF:", "FN:", "FNDA:", "FNF:", "FNH:", "DA:", "LF:", "LH:"] {
            #expect(text.contains("\n" + prefix) || text.hasPrefix(prefix), "missing \(prefix)")
        }
        let genhtml = URL(fileURLWithPath: "/usr/bin/genhtml")
        guard FileManager.default.isExecutableFile(atPath: genhtml.path) else { return }
        let process = Process()
        process.executableURL = genhtml
        process.arguments = [lcov.path, "-o", directory.appendingPathComponent("html").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let log = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(log)")
        #expect(log.contains("Overall coverage rate"), "\(log)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("html/index.html").path))
    }

    /// A project whose flows run its one rule.
    static func project() throws -> TemporaryProject {
        try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            "flows/auth.lua": """
                it("runs the login guard", function()
                  router.push("detail", { id = "1" })
                end)
                """,
        ])
    }

    @Test("--coverage writes into the file itself: an existing file keeps its inode, a missing folder is made")
    func writesInPlace() async throws {
        let project = try Self.project()
        defer { project.remove() }
        let lcov = project.url.appendingPathComponent("rules.lcov")
        try Data("old contents, longer than nothing\n".utf8).write(to: lcov)
        let before = try FileManager.default.attributesOfItem(atPath: lcov.path)[.systemFileNumber] as? Int
        let output = try await CLIRunner.run(["test", project.path, "--coverage", lcov.path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: lcov.path)[.systemFileNumber] as? Int == before, "not renamed over")
        let text = try String(contentsOf: lcov, encoding: .utf8)
        #expect(text.hasPrefix("TN:\nSF:") && text.hasSuffix("end_of_record\n"))
        let nested = project.url.appendingPathComponent("out/cov/rules.lcov")
        #expect(try await CLIRunner.run(["test", project.path, "--coverage", nested.path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: nested.path))
    }

    @Test("--coverage refuses a symbolic link, a FIFO, a device and a folder, and leaves each as it was")
    func refusesWhatIsNotARegularFile() async throws {
        let project = try Self.project()
        defer { project.remove() }
        let target = project.url.appendingPathComponent("target.txt")
        try Data("keep\n".utf8).write(to: target)
        let link = project.url.appendingPathComponent("link.lcov")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let linked = try await CLIRunner.run(["test", project.path, "--coverage", link.path])
        #expect(linked.status != 0)
        #expect(linked.stderr.contains("symbolic link") && linked.stderr.contains("--coverage"), "\(linked.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == target.path, "the link stays a link")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep\n")

        let fifo = project.url.appendingPathComponent("fifo.lcov")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let piped = try await CLIRunner.run(["test", project.path, "--coverage", fifo.path], timeout: 60)
        #expect(piped.status != 0)
        #expect(piped.stderr.contains("FIFO"), "\(piped.stderr)")
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the FIFO stays a FIFO")

        // A device of its own (a null device in the project, where root may make one), never a
        // system one: a writer that renamed over it would replace the node.
        #if os(Linux)
        let node = project.url.appendingPathComponent("null.lcov")
        if mknod(node.path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 {
            let device = try await CLIRunner.run(["test", project.path, "--coverage", node.path])
            #expect(device.status != 0)
            #expect(device.stderr.contains("device"), "\(device.stderr)")
            #expect(lstat(node.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR, "the device stays a device")
        }
        #endif

        let folder = try await CLIRunner.run(["test", project.path, "--coverage", project.url.appendingPathComponent("rules").path])
        #expect(folder.status != 0)
        #expect(folder.stderr.contains("folder"), "\(folder.stderr)")
        // Refused before the flows run, not after them.
        #expect(!folder.stdout.contains(" passed, "), "\(folder.stdout)")
        #expect(!linked.stdout.contains(" passed, "), "\(linked.stdout)")
    }
}
