import ArgumentParser
import FlowScript
import Foundation

/// `flowstack check [DIR]`: finds mistakes without running the flows.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load a project and report its mistakes, without running the flows.",
        discussion: """
            Reports, with file:line:
              - scripts that do not load (syntax errors, errors at the top
                level, bad registrations);
              - route, dialog and fact names that routes.lua does not
                declare, with "did you mean", and calls to router, app,
                flow and expect functions that do not exist;
              - style attributes that are unknown or have a bad value (the
                style rules run for every declared route at depth 0 and 1,
                on the root stack, in a sheet and in a full-screen cover);
              - deep-link patterns that duplicate, or are shadowed by,
                earlier ones (warnings).
            Exits 1 when there is an error (with --strict, on warnings too).

            Examples:
              flowstack check Scripts
              flowstack check Scripts --strict

            Output:
              flows/auth.lua:12: error: unknown route 'hom' (did you mean
                'home'?) (declared in routes.lua)
              checked Scripts: 8 rules files, 11 flow files (106 tests):
                1 error, 0 warnings
            """
    )

    @OptionGroup var project: ProjectArgument

    @Flag(help: "Exit 1 on warnings too.")
    var strict = false

    @MainActor
    mutating func run() async throws {
        let terminal = Terminal.standardOutput
        try project.validate()
        let outcome = try ProjectChecker(directory: project.url).run()
        let problems = outcome.problems
        for problem in problems.sorted() {
            let text = problem.description
            terminal.line(problem.severity == .error ? terminal.red(text) : terminal.yellow(text))
        }
        for note in outcome.notChecked {
            terminal.line(terminal.dim("not checked: \(note)"))
        }
        let errors = problems.count(where: { $0.severity == .error })
        let warnings = problems.count - errors
        terminal.line("checked \(project.directory): \(outcome.summary): \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))")
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
