import Foundation
import Testing

/// The hostile-script suite: every project under `Tests/Hostile/` is a rules script that tries
/// to escape the sandbox or break the engine, with a flow that asserts it was contained: the
/// operation failed closed, the reason names the rules file and line, and the app kept working.
/// Each runs through the `flowstack` binary, as a team would run it.
@Suite("Hostile scripts")
struct HostileScriptsTests {
    /// `Tests/Hostile`.
    static let root = CLIRunner.packageRoot.appendingPathComponent("Tests/Hostile")

    /// Seconds one project may run (each rule call stops after about a second; a debug build
    /// under load is several times slower).
    static let timeLimit: TimeInterval = 30

    /// The project directories, sorted by name.
    static func projects() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("every hostile script is contained (flowstack test passes for each project)")
    func allContained() throws {
        let projects = try Self.projects()
        #expect(projects.count >= 40, "the suite needs at least 40 hostile scripts, found \(projects.count)")
        let started = Date()
        var escaped: [String] = []
        for project in projects {
            let name = project.lastPathComponent
            // Each project runs in its own process with its own time limit: a hang is killed and
            // reported, and the projects after it still run.
            let projectStarted = Date()
            let output = try CLIRunner.run(["test", "Tests/Hostile/\(name)"], timeout: Self.timeLimit)
            let summary = output.lines.last ?? ""
            let passed = summary.wholeMatch(of: /([1-9]\d*) passed, 0 failed/) != nil
            if Date().timeIntervalSince(projectStarted) >= Self.timeLimit {
                escaped.append(name)
                Issue.record("\(name) hung: killed after \(Int(Self.timeLimit)) s:\n\(output.stdout)\(output.stderr)")
            } else if output.status != 0 || !passed {
                escaped.append(name)
                Issue.record("\(name) was not contained (exit status \(output.status)):\n\(output.stdout)\(output.stderr)")
            }
        }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        // The largest resident set of any child process this test process has waited for: the
        // hostile projects' and those other tests started in parallel (flowstack serve, ...), so
        // an upper bound of the hostile runs' (the issue's bound for one is 100 MB; measured one
        // by one with /usr/bin/time, 70 MB at most). Printed, not asserted: sanitizer builds use
        // several times more.
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let megabytes = usage.ru_maxrss / 1024  // kilobytes on Linux
        #else
        getrusage(RUSAGE_CHILDREN, &usage)
        let megabytes = usage.ru_maxrss / (1024 * 1024)  // bytes on Darwin
        #endif
        print("hostile: largest child process of this test run \(megabytes) MB resident (an upper bound: other tests' children count too)")
        print("hostile: \(projects.count) scripts, \(projects.count - escaped.count) contained, \(escaped.count) escaped (\(seconds) s)"
            + (escaped.isEmpty ? "" : ": " + escaped.joined(separator: ", ")))
        #expect(escaped.isEmpty)
    }

    @Test("a rule's print cannot forge a report line or send terminal escapes")
    func printCannotForge() throws {
        let output = try CLIRunner.run(["test", "Tests/Hostile/print-forgery"], timeout: Self.timeLimit)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.lines.filter { $0.contains("99 passed") }.allSatisfy { $0.contains("print:") }, "\(output.stdout)")
        #expect(!output.stdout.utf8.contains(0x1B), "\(output.stdout)")
        #expect(output.stdout.contains("\\n99 passed, 0 failed\\n\\x1b[2K"), "\(output.stdout)")
    }

    @Test("every hostile flow checks the fail-closed decision, the file:line and a later navigation")
    func flowsAssertContainment() throws {
        for project in try Self.projects() {
            let name = project.lastPathComponent
            let rules = try FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("rules").path)
            #expect(rules.contains { $0.hasSuffix(".lua") }, "\(name) has no rules/*.lua")
            let flowsDirectory = project.appendingPathComponent("flows")
            let flows = try FileManager.default.contentsOfDirectory(atPath: flowsDirectory.path).filter { $0.hasSuffix(".lua") }
            #expect(!flows.isEmpty, "\(name) has no flows/*.lua")
            let text = try flows.map { try String(contentsOf: flowsDirectory.appendingPathComponent($0), encoding: .utf8) }
                .joined(separator: "\n")
            #expect(text.contains(".applied).to_be(false)"), "\(name): the flow does not check that the operation failed closed")
            #expect(text.contains(".applied).to_be(true)"), "\(name): the flow does not check that the app still navigates")
            // A failing style rule decides nothing: its file:line is checked on the engine's
            // diagnostics (HostileEngineTests); every other flow checks the reason's file:line.
            #expect(text.contains("\"rules/") || name == "style-garbage", "\(name): the flow does not check the rules file and line")
        }
    }
}
