import FlowScript
import Foundation

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
