import ArgumentParser
import FlowScript
import Foundation

/// `flowstack watch [DIR]`: runs the flows, then again after every change, until interrupted.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Run the flow tests, then again on every change, until interrupted.",
        discussion: """
            Runs the flows like `flowstack test`, then watches DIR (routes.lua,
            rules/, flows/) and runs them again after every save, printing a
            short summary each time: a line per failure or script that did not
            load, a line per pending test (`- name (pending)`, neither passed
            nor failed) and per script error a rule raised (with --strict, a
            failure of its test), then the time and `N passed, N failed`
            (`, N pending`). Several quick saves give one run. Press Ctrl-C to
            stop.

            Examples:
              flowstack watch                    (watches ./Scripts)
              flowstack watch Scripts --filter paywall
            """
    )

    @OptionGroup var project: ProjectArgument

    @OptionGroup var tests: TestFilterOption

    @Flag(help: "Fail a test in which a rule raised a script error (listed either way).")
    var strict = false

    @MainActor
    mutating func run() async throws {
        let url = try project.loadableURL()
        let terminal = Terminal.standardOutput
        let session = WatchSession(directory: url, name: project.directory, filter: tests.pattern, strict: strict, terminal: terminal)
        let stopped = "stopped watching \(project.directory)"
        let stop = StopSignals { terminal.line(stopped) }
        defer { stop.cancel() }
        terminal.line("watching \(project.directory) (routes.lua, rules/, flows/); press Ctrl-C to stop")
        try await forEachSave(of: url, watching: { await session.runOnce() }) {
            await session.runOnce()
        }
    }
}
