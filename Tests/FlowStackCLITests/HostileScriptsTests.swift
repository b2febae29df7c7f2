import FlowStackTestSupport
import Foundation
import Testing

/// The hostile-script suite: every project under `Tests/Hostile/` is a rules script that tries
/// to escape the sandbox or break the engine, with a flow that asserts it was contained: the
/// operation failed closed, the reason names the rules file and line, and the app kept working.
/// Each runs through the `flowstack` binary, as a team would run it, twice: on the usual stack,
/// and on a 512 KiB C stack (what iOS gives a secondary thread; `Tools/small-stack.sh`), where a
/// change that lets a script overflow the C stack shows as a crash, not only on a device.
@Suite("Hostile scripts", .enabled(if: TestTier.slow))
struct HostileScriptsTests {
    /// How long one project may run before it counts as hung: a hang guard, not a speed check
    /// (each rule call stops at its instruction budget in well under a second; a debug build
    /// beside another build is many times slower, so the guard is far above that).
    static let timeLimit: TimeInterval = 180

    /// How many projects run at once: one a core, so that the other tests running alongside
    /// (live rules, watchers: their waits have time limits) still get the processor.
    static let concurrentRuns = max(ProcessInfo.processInfo.activeProcessorCount, 2)

    /// The largest resident set one project's process may reach (measured one by one: 70 MB at
    /// most in a debug build; sampled on Linux). Sanitizer builds use several times more: set
    /// `FLOWSTACK_HOSTILE_RESIDENT_LIMIT_MB` there.
    static let residentLimitMegabytes = ProcessInfo.processInfo.environment["FLOWSTACK_HOSTILE_RESIDENT_LIMIT_MB"].flatMap { Int($0) } ?? 100

    @Test("the table of hostile projects lists exactly the folders under Tests/Hostile")
    func tableListsEveryProject() throws {
        let folders = try HostileProject.folderNames()
        let listed = HostileProject.all.map(\.name)
        #expect(listed == listed.sorted(), "keep HostileProject.all sorted by name")
        #expect(Set(folders).subtracting(listed).sorted() == [], "add these to HostileProject.all")
        #expect(Set(listed).subtracting(folders).sorted() == [], "these entries of HostileProject.all have no folder")
    }

    @Test("every hostile script is contained on the usual and on a 512 KiB stack (flowstack test passes for each project)")
    func allContained() async throws {
        let started = ContinuousClock.now
        // Each project runs in its own process with its own time limit: a hang is killed and
        // reported, and the other projects still run. Independent processes: several at once.
        let runs = HostileProject.all.flatMap { [(project: $0, smallStack: false), (project: $0, smallStack: true)] }
        let (escaped, largest) = try await withThrowingTaskGroup(of: Outcome.self) { group in
            var pending = runs.makeIterator()
            func start(_ run: (project: HostileProject, smallStack: Bool)) {
                group.addTask { try await Self.contain(run.project, smallStack: run.smallStack) }
            }
            for _ in 0..<Self.concurrentRuns {
                if let project = pending.next() { start(project) }
            }
            var escaped: [String] = []
            var largest = (megabytes: 0, name: "")
            while let outcome = try await group.next() {
                if !outcome.contained { escaped.append(outcome.name) }
                if outcome.residentMegabytes > largest.megabytes { largest = (outcome.residentMegabytes, outcome.name) }
                if let project = pending.next() { start(project) }
            }
            return (escaped.sorted(), largest)
        }
        print("hostile: \(HostileProject.all.count) scripts twice (usual and 512 KiB stack), \(runs.count - escaped.count) runs contained, "
            + "\(escaped.count) escaped (\(ContinuousClock.now - started), \(Self.concurrentRuns) at a time), "
            + "largest \(largest.megabytes) MB resident (\(largest.name))" + (escaped.isEmpty ? "" : ": " + escaped.joined(separator: ", ")))
        #expect(escaped.isEmpty)
    }

    /// One run of one project.
    struct Outcome: Sendable {
        let name: String
        let contained: Bool
        let residentMegabytes: Int
    }

    /// Runs `flowstack test` on one project; records an issue when it was not contained or
    /// used more memory than `residentLimitMegabytes`.
    static func contain(_ project: HostileProject, smallStack: Bool) async throws -> Outcome {
        let run = try await CLIRunner.launch(
            ["test", project.url.path], smallStack: smallStack, timeout: .seconds(timeLimit))
        let name = project.name + (smallStack ? " (512 KiB stack)" : "")
        let output = run.output
        let summary = output.lines.last ?? ""
        let passed = summary.wholeMatch(of: /([1-9]\d*) passed, 0 failed/) != nil
        if let megabytes = run.residentMegabytes {
            #expect(megabytes <= residentLimitMegabytes, "\(name) reached \(megabytes) MB resident (at most \(residentLimitMegabytes) MB)")
        }
        var contained = true
        if run.timedOut {
            Issue.record("\(name) hung: killed after \(Int(timeLimit)) s:\n\(output.stdout)\(output.stderr)")
            contained = false
        } else if output.status != 0 || !passed {
            Issue.record("\(name) was not contained (exit status \(output.status)):\n\(output.stdout)\(output.stderr)")
            contained = false
        }
        return Outcome(name: name, contained: contained, residentMegabytes: run.residentMegabytes ?? 0)
    }

    @Test("a rule's print cannot forge a report line or send terminal escapes")
    func printCannotForge() async throws {
        let output = try await CLIRunner.run(["test", "Tests/Hostile/print-forgery"], timeout: Self.timeLimit)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.lines.filter { $0.contains("99 passed") }.allSatisfy { $0.contains("print:") }, "\(output.stdout)")
        #expect(!output.stdout.utf8.contains(0x1B), "\(output.stdout)")
        #expect(output.stdout.contains("\\n99 passed, 0 failed\\n\\x1b[2K"), "\(output.stdout)")
    }

    @Test("every hostile flow checks the fail-closed decision, its table entry's file:line and message, and a later navigation")
    func flowsAssertContainment() throws {
        for project in HostileProject.all {
            let name = project.name
            let rules = try FileManager.default.contentsOfDirectory(atPath: project.url.appendingPathComponent("rules").path)
            #expect(rules.contains { $0.hasSuffix(".lua") }, "\(name) has no rules/*.lua")
            let flowsDirectory = project.url.appendingPathComponent("flows")
            let flows = try FileManager.default.contentsOfDirectory(atPath: flowsDirectory.path).filter { $0.hasSuffix(".lua") }
            #expect(!flows.isEmpty, "\(name) has no flows/*.lua")
            let text = try flows.map { try String(contentsOf: flowsDirectory.appendingPathComponent($0), encoding: .utf8) }
                .joined(separator: "\n")
            #expect(text.contains(".applied).to_be(false)"), "\(name): the flow does not check that the operation failed closed")
            #expect(text.contains(".applied).to_be(true)"), "\(name): the flow does not check that the app still navigates")
            // A failing style rule decides nothing: its file:line and message are checked on the
            // engine's diagnostics (HostileEngineTests); every other flow checks the reason's.
            guard name != "style-garbage" else { continue }
            #expect(text.contains("\"\(project.location)"), "\(name): the flow does not check the reason's \(project.location)")
            if let message = project.message {
                #expect(text.contains(message), "\(name): the flow does not check the reason's message '\(message)'")
            }
        }
    }
}
