import ArgumentParser
import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// `flowstack check [DIR]`: finds mistakes without running the flows.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load a project and report its mistakes, without running the flows.",
        discussion: """
            Reports, with file:line, every problem it can find in one pass:
              - scripts that do not load (syntax errors, errors at the top
                level, bad registrations); a rules file that does not load is
                left out and the others are still checked;
              - files it cannot read: contents or name not UTF-8, more than 32
                folders deep (rules/ included), unreadable; and a routes.lua
                that is not a regular file (a FIFO, a device, a folder);
              - manifest mistakes (a bad root, an unknown key, a payload
                type such as "bool", a fact default that is not a value):
                the broken entry is reported and left out, and everything
                else is checked against what did load;
              - route, dialog and fact names that routes.lua does not
                declare, with "did you mean" (literal names only: a name
                built by concatenation is not checked), calls to router,
                app, flow and expect functions that do not exist or get
                too few arguments (too many: a warning), and undeclared
                globals, read, called or indexed (luassert's assert.x
                included);
              - operation kinds flow.redirect, flow.op and flow.precondition
                do not know, and a kind left out
                (flow.redirect("discardAddress", "why"), where
                discardAddress is a route or a dialog), with the kinds, and
                a kind that takes a route given none (flow.redirect("push"));
              - deep-link handlers that read a parameter their pattern
                cannot produce (/promo/code read as p.code: did you mean
                /promo/:code?) (warnings; short query items such as p.q
                are not taken for slips);
              - guards and preconditions that return a string, number or
                table literal (return "login"), which blocks at run time;
              - fact defaults whose type disagrees with how the rules use
                them (cartItemCount = "0" while a rule writes
                facts.cartItemCount > 0), at the fact's line;
              - dialog ids in flow.redirect("dialog", id), flow.dialog_guard
                (all but "*"), flow.op("showDialog", id), router.showDialog
                and .dialog == "id" comparisons (an id string or a table's
                id = "..."), against routes.lua's dialogs, and dialog
                policies that are not "replace", "replaceKeepingQueue",
                "queue" or "ignoreIfVisible";
              - flow.redirect's options table: an unknown key (with "did
                you mean"), a resume that is not a boolean, and resume where
                it holds nothing (flow.op);
              - style attributes that are unknown or have a bad value, at
                the line of the key (warnings; the style rules run for
                every declared route at depth 0 and 1, on the root stack,
                in a sheet and in a full-screen cover, under every
                combination of the manifest's boolean facts: up to 8 of
                them);
              - deep-link patterns that duplicate, or are shadowed by,
                earlier ones (warnings).
            Lines starting with "not checked:" say what could not be checked
            and why. Exits 1 when there is an error (with --strict, on
            warnings too: use it in CI). A comment "-- flowstack: ignore
            KIND" silences the findings of that kind on its line (alone on
            its line: on the line below); kinds: route, dialog, fact, tab,
            call, global, kind, options, link-parameter, pattern, style,
            return, host, load.

            Examples:
              flowstack check Scripts
              flowstack check Scripts --strict

            Output:
              flows/auth.lua:12: error: unknown route 'hom' (did you mean
                'home'?) (declared in routes.lua)
              rules/60-style-screens.lua:8: warning: screen style attribute
                tint ignored: expected "#RRGGBB", ... got "purpel"
              checked Scripts: 9 rules files, 13 flow files (141 tests):
                1 error, 1 warning
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
            let text = FlowTerminalText.line(problem.description)
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
