import FlowStackCore
import FlowScript
import Foundation

/// What `flowstack check` found: the problems, what it could not check (and why), and a
/// summary of what was checked.
struct CheckOutcome {
    var problems: [CheckProblem]
    var notChecked: [String]
    var summary: String
}

/// Everything `flowstack check` looks at, in one pass: a mistake in one place does not hide
/// the others, and what could not be checked is said.
@MainActor
struct ProjectChecker {
    let directory: URL

    /// The problems, what was not checked, and a summary of what was checked.
    func run() throws -> CheckOutcome {
        do {
            try FlowProject.requireProject(at: directory)
        } catch {
            throw CommandFailure(error.description)
        }
        var problems: [CheckProblem] = []
        var notChecked: [String] = []
        let (manifest, manifestProblems) = loadManifest(&notChecked)
        problems += manifestProblems
        let rulesDirectory = directory.appendingPathComponent(FlowProject.rulesDirectoryName)
        let flowsDirectory = directory.appendingPathComponent(FlowProject.flowsDirectoryName)
        let project = FlowProject(
            directory: directory, manifest: manifest,
            rules: (try? FlowRulesSource.directory(rulesDirectory)) ?? [],
            flows: (try? FlowRulesSource.directory(flowsDirectory)) ?? [])

        // The rules: a file that does not load is reported and left out, so that the others
        // (their style rules and deep links) are still checked.
        var rules = project.rules
        var runner = FlowTestRunner<FlowRouteValue>(project: project)
        var skipped: [String] = []
        while let error = runner.rulesLoadError {
            problems.append(CheckProblem(error: error))
            guard let file = error.file, let index = rules.firstIndex(where: { $0.name == file }) else { break }
            skipped.append(file)
            rules.remove(at: index)
            runner = FlowTestRunner<FlowRouteValue>(
                project: FlowProject(directory: directory, manifest: manifest, rules: rules, flows: project.flows))
        }
        if !skipped.isEmpty {
            notChecked.append("the style rules and deep links of \(skipped.joined(separator: ", ")) (did not load: fix the errors above)")
        }
        if let engine = runner.engine {
            for diagnostic in engine.diagnostics {
                problems.append(CheckProblem(
                    diagnostic.severity == .error ? .error : .warning, file: diagnostic.file, line: diagnostic.line,
                    diagnostic.message))
            }
            if let manifest, !manifest.routes.isEmpty {
                let sweep = StyleSweep(engine: engine, manifest: manifest, rules: rules)
                problems += sweep.run()
                if let note = sweep.factNote { notChecked.append(note) }
            } else {
                notChecked.append("style rules (routes.lua declares no routes to resolve styles for)")
            }
        } else if rules.isEmpty == false {
            notChecked.append("style rules and deep links (the rules did not load)")
        }
        let listing = runner.listTests()
        problems += listing.loadErrors.map(CheckProblem.init(error:))
        var names = StaticNameCheck(manifest: manifest, ruleHosts: Set(HostNames.scan(project.rules)))
        names.rulesDeclarations = project.rules.reduce(into: Set<String>()) {
            $0.formUnion(StaticNameCheck.declaredNames(LuaTokenizer.tokens($1.text)))
        }
        for source in project.rules { problems += names.check(rules: source) }
        for source in project.flows { problems += names.check(flow: source) }
        let summary = "\(CheckCommand.count(project.rules.count, "rules file")), "
            + "\(CheckCommand.count(project.flows.count, "flow file")) (\(CheckCommand.count(listing.tests.count, "test")))"
        return CheckOutcome(problems: deduplicated(problems), notChecked: notChecked, summary: summary)
    }

    /// The manifest as `check` reads it: a bad `root` or an unknown key is reported and the
    /// rest of the manifest still checks names; a manifest that does not run is reported and
    /// names go unchecked (said in `notChecked`).
    private func loadManifest(_ notChecked: inout [String]) -> (FlowManifest?, [CheckProblem]) {
        let url = directory.appendingPathComponent(FlowProject.manifestFileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            notChecked.append("route, dialog and fact names (no routes.lua: any name is accepted)")
            return (nil, [])
        }
        do {
            let text = try String(contentsOf: url, encoding: .utf8)
            let (manifest, problems) = try FlowManifest.parseReportingProblems(source: text, displayName: FlowProject.manifestFileName)
            return (manifest, problems.map(CheckProblem.init(error:)))
        } catch let error as FlowScriptError {
            notChecked.append("route, dialog and fact names (routes.lua did not load: fix it first)")
            return (nil, [CheckProblem(error: error)])
        } catch {
            notChecked.append("route, dialog and fact names (routes.lua cannot be read: \(error.localizedDescription))")
            return (nil, [])
        }
    }

    /// Drops a finding when the same message was already reported at the same place.
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
