import ArgumentParser
import FlowLua
import FlowScript
import FlowStackCore
import FlowTesting
import Foundation

/// The report formats of `flowstack test`.
enum TestFormat: String, ExpressibleByArgument, CaseIterable {
    case pretty, tap, junit
}

/// `flowstack test [DIR]`: runs every flow of a project against its rules.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run the flow tests of a project.",
        discussion: """
            Loads DIR/routes.lua (the optional manifest) and DIR/rules/, then
            runs every flow in DIR/flows/, each test from a fresh router.
            Prints a line per test, failures with the flow file and line, the
            expected and actual values and the router's stacks, and ends with
            the line `N passed, N failed`. Exits 0 only when every test passed
            and every script loaded. With --output, the report goes to FILE and
            the pretty lines still go to standard output.

            What a rule prints shows under its test ("print: ..."); what a
            rules file's top level prints while the rules load shows before
            the first test (TAP: `#` comment lines; JUnit: the <system-out>
            of a suite "rules").

            Tags are #words in a test's or describe's name ("pays #slow"). A
            pending test (pending("name"), or it("name") without a function) is
            listed and reported, not run.

            A rule that fails during a test (a script error: an unstubbed host,
            a nil index) refuses the navigation it decided. Each such error is
            listed with the rule's file:line before the summary (TAP: a `#`
            comment line; JUnit: <system-err>); with --strict it
            also fails its test, in every format. A test that expects one
            takes it with app.scriptErrors() (the errors so far, as
            "file:line: message" strings), and it then counts no more.

            Examples:
              flowstack test                                  (runs ./Scripts)
              flowstack test Scripts --filter "paywall"
              flowstack test Scripts --list
              flowstack test Scripts --shuffle                (prints the seed)
              flowstack test Scripts --seed 4711              (replays that order)
              flowstack test Scripts --exclude-tags slow
              flowstack test Scripts --tags reload,smoke      (tagged #reload or #smoke)
              flowstack test Scripts --coverage .build/rules.lcov
              genhtml .build/rules.lcov -o .build/coverage    (the HTML report)
              flowstack test Scripts --format tap
              flowstack test Scripts --strict                 (script errors fail)
              flowstack test Scripts --format junit --output .build/flows.xml

            A flow test (Scripts/flows/paywall.lua):
              describe("paywall", function()
                before_each(function()
                  app.reset{ root = "home", facts = { isLoggedIn = true } }
                end)
                it("sends free users to the paywall", function()
                  local r = router.push({ name = "editor", id = "7" })
                  expect(r.redirect.kind).to_be("fullScreenCover")
                  expect(router.top()).to_equal({ name = "paywall" })
                  expect(router.history()).to_match_steps{
                    "push editor redirected: premium required",
                    "fullScreenCover paywall",
                  }
                end)
              end)
            Matchers negate with .never (expect(x).never.to_be_nil());
            app.calls("name") lists a host stub's calls, and
            app.host("name", spy(fn)) stubs a host with a spy that records
            them. Every navigation has its Async twin, as in Swift
            (router.popAsync(), router.dismissAsync(), router.setRootAsync(r),
            router.showDialogAsync(d), ...): it runs through the router's async
            queue, so rules may call asynchronous hosts. History steps name
            dialogs ("showDialog cartEmpty", "hideDialog cartEmpty");
            router.userPop() and router.userDismiss() are refused where the
            resolved style forbids the gesture. See docs/lua-surface.md,
            section 9, for the whole DSL.
            """
    )

    @OptionGroup var project: ProjectArgument

    @OptionGroup var tests: TestSelectionOptions

    @Option(help: "The report format: pretty (default), tap or junit.")
    var format: TestFormat = .pretty

    @Option(help: ArgumentHelp("Write the report to FILE; the pretty lines and the summary still go to standard output.", valueName: "FILE"))
    var output: String?

    @Option(help: ArgumentHelp(
        "Count which lines and rules of rules/ the flows ran; write lcov to FILE (genhtml FILE -o html) and end with a summary.",
        valueName: "FILE"))
    var coverage: String?

    @Flag(help: "Fail a test in which a rule raised a script error (listed with file:line before the summary either way).")
    var strict = false

    @Flag(help: "List the selected tests (file:line and name), without running them.")
    var list = false

    @MainActor
    mutating func run() async throws {
        let project = try self.project.load()
        guard !project.flows.isEmpty else {
            throw CommandFailure(
                "no flow files in \(self.project.directory)/flows. Add one, for example flows/smoke.lua with "
                    + "`it(\"starts\", function() expect(router.top()).to_be_truthy() end)`.")
        }
        if let coverage { try OutputFile.checkWritable(coverage, option: "--coverage") }
        let terminal = Terminal.standardOutput
        let selection = tests.selection
        let runner = FlowTestRunner<FlowRouteValue>(
            project: project, options: FlowTestRunner<FlowRouteValue>.Options(coverage: coverage != nil, failOnScriptErrors: strict))
        if list {
            try listTests(runner, selection: selection, terminal: terminal)
            return
        }
        if let seed = selection.seed {
            // On standard error for the machine formats, so that the report stays parseable.
            let line = "shuffled with --seed \(seed)"
            if format == .pretty || output != nil { terminal.line(terminal.dim(line)) } else { Terminal.error(line) }
        }
        let streaming = format == .pretty || output != nil
        let pretty = PrettyReporter(terminal: terminal, strict: strict)
        if streaming {
            pretty.rulesOutput(runner.rulesOutput)
            runner.onLoadError = { pretty.loadError($0) }
            runner.onResult = { pretty.report($0) }
        }
        let started = ContinuousClock.now
        let report = await runner.run(selection: selection)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        let rendered: String? = switch format {
        case .pretty: nil
        case .tap: TAPReporter.render(report)
        case .junit: JUnitReporter.render(report, seconds: seconds)
        }
        if let output {
            try writeFile(rendered ?? PrettyText.render(report, seconds: seconds), to: output)
        } else if let rendered {
            Terminal.write(rendered)
        }
        if let coverage, let files = report.coverage {
            try OutputFile.write(Data(FlowCoverage.lcov(files, directory: project.directory).utf8), to: coverage, option: "--coverage")
            if streaming { pretty.coverage(files, writtenTo: coverage) }
        }
        if streaming { pretty.finish(report, seconds: seconds) }
        if report.results.isEmpty, report.loadErrors.isEmpty, tests.narrows {
            Terminal.error("no test matches the selection; run `flowstack test \(self.project.directory) --list` to see every test's name")
            throw ExitCode(1)
        }
        if !report.succeeded { throw ExitCode(1) }
    }

    /// `--list`: one line per selected test, `file:line  name`, then the count.
    @MainActor
    private func listTests(_ runner: FlowTestRunner<FlowRouteValue>, selection: FlowTestSelection, terminal: Terminal) throws {
        let listing = runner.listTests(selection: selection)
        for test in listing.tests {
            let location = test.line.map { "\(test.file):\($0)" } ?? test.file
            terminal.line(FlowTerminalText.line("\(location)  \(test.name)") + (test.isPending ? " (pending)" : ""))
        }
        for error in listing.loadErrors {
            terminal.line(terminal.red("did not load: ") + FlowTerminalText.line(error.description))
        }
        terminal.line("\(CheckCommand.count(listing.tests.count, "test"))")
        if !listing.loadErrors.isEmpty { throw ExitCode(1) }
    }
}
