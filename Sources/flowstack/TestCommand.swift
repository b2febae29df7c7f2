import ArgumentParser
import FlowScript
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

            Examples:
              flowstack test                                  (runs ./Scripts)
              flowstack test Scripts --filter "paywall"
              flowstack test Scripts --format tap
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
                end)
              end)
            """
    )

    @OptionGroup var project: ProjectArgument

    @Option(help: ArgumentHelp("Run only the tests whose file or name contains PATTERN (case-insensitive).", valueName: "PATTERN"))
    var filter: String?

    @Option(help: "The report format: pretty (default), tap or junit.")
    var format: TestFormat = .pretty

    @Option(help: ArgumentHelp("Write the report to FILE; the pretty lines and the summary still go to standard output.", valueName: "FILE"))
    var output: String?

    @MainActor
    mutating func run() async throws {
        let project = try self.project.load()
        guard !project.flows.isEmpty else {
            throw CommandFailure(
                "no flow files in \(self.project.directory)/flows. Add one, for example flows/smoke.lua with "
                    + "`it(\"starts\", function() expect(router.top()).to_be_truthy() end)`.")
        }
        let terminal = Terminal.standardOutput
        let streaming = format == .pretty || output != nil
        let pretty = PrettyReporter(terminal: terminal)
        let runner = FlowTestRunner<FlowRouteValue>(project: project)
        if streaming {
            runner.onLoadError = { pretty.loadError($0) }
            runner.onResult = { pretty.report($0) }
        }
        let started = ContinuousClock.now
        let report = await runner.run(filter: filter)
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
        if streaming { pretty.finish(report, seconds: seconds) }
        if report.results.isEmpty, report.loadErrors.isEmpty, let filter {
            Terminal.error("no test matches --filter \"\(filter)\"; run `flowstack test \(self.project.directory)` to see every test's name")
            throw ExitCode(1)
        }
        if !report.succeeded { throw ExitCode(1) }
    }
}
