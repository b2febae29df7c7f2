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
              - scripts that do not load (syntax errors, errors at the top level, bad registrations);
              - route, dialog and fact names the manifest (routes.lua) does not declare, with
                "did you mean", and calls to router/app/flow/expect functions that do not exist;
              - style attributes that are unknown or have a bad value (the style rules are
                evaluated for every declared route, on the root stack, in a sheet and in a
                full-screen cover, at depth 0 and 1);
              - deep-link patterns that are duplicates of, or shadowed by, earlier ones (warnings).
            Exits 1 when there is an error (with --strict, also on warnings).

            Examples:
              flowstack check Scripts
              flowstack check Scripts --strict

            Output:
              Scripts/flows/auth.lua:12: error: unknown route 'hom' (did you mean 'home'?) (declared in routes.lua)
              checked Scripts: 7 rules files, 10 flow files (91 tests): 1 error, 0 warnings
            """
    )

    @OptionGroup var project: ProjectArgument

    @Flag(help: "Exit 1 on warnings too.")
    var strict = false

    @MainActor
    mutating func run() async throws {
        let terminal = Terminal.standardOutput
        let (problems, summary) = try ProjectChecker(directory: project.url).run()
        for problem in problems.sorted() {
            let text = problem.description
            terminal.line(problem.severity == .error ? terminal.red(text) : terminal.yellow(text))
        }
        let errors = problems.count(where: { $0.severity == .error })
        let warnings = problems.count - errors
        terminal.line("checked \(project.directory): \(summary): \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))")
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// Everything `flowstack check` looks at.
@MainActor
struct ProjectChecker {
    let directory: URL

    /// The problems, and a summary of what was checked.
    func run() throws -> ([CheckProblem], String) {
        var problems: [CheckProblem] = []
        let project: FlowProject
        do {
            project = try FlowProject(directory: directory)
        } catch let error where error.file == FlowProject.manifestFileName {
            problems.append(CheckProblem(error: error))
            project = FlowProject(
                directory: directory, manifest: nil,
                rules: (try? FlowRulesSource.directory(directory.appendingPathComponent(FlowProject.rulesDirectoryName))) ?? [],
                flows: (try? FlowRulesSource.directory(directory.appendingPathComponent(FlowProject.flowsDirectoryName))) ?? [])
        } catch {
            throw CommandFailure("\(error.description)")
        }
        let runner = FlowTestRunner<FlowRouteValue>(project: project)
        if let error = runner.rulesLoadError {
            problems.append(CheckProblem(error: error))
        }
        if let engine = runner.engine {
            for diagnostic in engine.diagnostics {
                problems.append(CheckProblem(
                    diagnostic.severity == .error ? .error : .warning, file: diagnostic.file, line: diagnostic.line,
                    diagnostic.message))
            }
            if let manifest = project.manifest, !manifest.routes.isEmpty {
                problems += StyleSweep(engine: engine, manifest: manifest, rules: project.rules).run()
            }
        }
        let listing = runner.listTests()
        problems += listing.loadErrors.map(CheckProblem.init(error:))
        let names = StaticNameCheck(manifest: project.manifest, ruleHosts: Set(HostNames.scan(project.rules)))
        for source in project.rules { problems += names.check(rules: source) }
        for source in project.flows { problems += names.check(flow: source) }
        let unique = Array(Set(problems))
        let summary = "\(CheckCommand.count(project.rules.count, "rules file")), "
            + "\(CheckCommand.count(project.flows.count, "flow file")) (\(CheckCommand.count(listing.tests.count, "test")))"
        return (deduplicated(unique), summary)
    }

    /// Drops a static finding when loading already reported the same message at the same place.
    private func deduplicated(_ problems: [CheckProblem]) -> [CheckProblem] {
        var seen: Set<String> = []
        var result: [CheckProblem] = []
        for problem in problems.sorted() {
            let key = "\(problem.file ?? ""):\(problem.line ?? 0):\(problem.message)"
            if seen.insert(key).inserted { result.append(problem) }
        }
        return result
    }
}
