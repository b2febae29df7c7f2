import ArgumentParser
@preconcurrency import Dispatch
import FlowScript
import Foundation

/// `flowstack watch [DIR]`: runs the flows, then again after every change, until interrupted.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Run the flow tests, then again on every change, until interrupted.",
        discussion: """
            Runs the flows like `flowstack test`, then watches DIR (routes.lua, rules/, flows/)
            and runs them again after every save, printing a short summary each time: the
            time, `N passed, N failed`, and one line per failure or script that did not load.
            Several quick saves give one run. Press Ctrl-C to stop.

            Examples:
              flowstack watch                    (watches ./Scripts)
              flowstack watch Scripts --filter paywall
            """
    )

    @OptionGroup var project: ProjectArgument

    @Option(help: ArgumentHelp("Run only the tests whose file or name contains PATTERN (case-insensitive).", valueName: "PATTERN"))
    var filter: String?

    @MainActor
    mutating func run() async throws {
        let url = project.url
        _ = try project.load()
        let terminal = Terminal.standardOutput
        let session = WatchSession(directory: url, name: project.directory, filter: filter, terminal: terminal)
        terminal.line("watching \(project.directory) (routes.lua, rules/, flows/); press Ctrl-C to stop")
        await session.runOnce()

        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let watcher = DirectoryWatcher(directory: url, debounce: .milliseconds(50), includes: { $0.hasSuffix(".lua") }) {
            continuation.yield()
        }
        do {
            try watcher.start()
        } catch {
            throw CommandFailure("cannot watch \(url.path): \(error). Check that the directory is readable.")
        }
        let name = project.directory
        let stop = StopSignals { terminal.line("stopped watching \(name)") }
        for await _ in changes {
            await session.runOnce()
        }
        watcher.stop()
        stop.cancel()
    }
}

/// One watch session: loads the project afresh and runs its flows on every change.
@MainActor
final class WatchSession {
    let directory: URL
    let name: String
    let filter: String?
    let terminal: Terminal

    init(directory: URL, name: String, filter: String?, terminal: Terminal) {
        self.directory = directory
        self.name = name
        self.filter = filter
        self.terminal = terminal
    }

    /// Runs the flows once and prints the summary.
    func runOnce() async {
        let started = ContinuousClock.now
        let time = Self.clockTime()
        let report: FlowTestReport
        do {
            report = await FlowTestRunner<FlowRouteValue>(project: try FlowProject(directory: directory)).run(filter: filter)
        } catch {
            terminal.line("[\(time)] " + terminal.red("error: ") + error.description)
            return
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        for error in report.loadErrors where !report.results.contains(where: { $0.file == error.file }) {
            terminal.line("  " + terminal.red("did not load: ") + error.description)
        }
        for result in report.results where !result.passed {
            let failure = result.failures.first
            let location = failure.map { $0.location.isEmpty ? "" : "\($0.location): " } ?? ""
            terminal.line("  " + terminal.red("✗") + " \(result.file) › \(result.name)")
            guard let failure else { continue }
            var detail = "\(location)\(failure.message)"
            if let expected = failure.expected, let actual = failure.actual {
                detail += " (expected \(Self.short(expected)), actual \(Self.short(actual)))"
            }
            terminal.line(terminal.dim("      " + detail))
        }
        let summary = report.succeeded ? terminal.green(report.summary) : terminal.red(report.summary)
        terminal.line("[\(time)] \(summary) (\(String(format: "%.2f", seconds)) s)")
    }

    private static func short(_ value: String) -> String {
        value.count > 60 ? String(value.prefix(57)) + "..." : value
    }

    private static func clockTime() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }
}

/// Ctrl-C and SIGTERM: prints a last line and exits 0.
@MainActor
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(onStop: @escaping @MainActor () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated { onStop() }
                exit(0)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
