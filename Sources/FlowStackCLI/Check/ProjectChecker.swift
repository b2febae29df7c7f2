import FlowLua
import FlowScript
import FlowStackCore
import FlowTesting
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
        // A file that cannot be read (not UTF-8, unreadable, too deep) is reported; the others
        // are still checked.
        let rulesListing = listing(FlowProject.rulesDirectoryName)
        let flowsListing = listing(FlowProject.flowsDirectoryName)
        problems += (rulesListing.problems + flowsListing.problems).map(CheckProblem.init(error:))
        let project = FlowProject(directory: directory, manifest: manifest, rules: rulesListing.sources, flows: flowsListing.sources)

        let loaded = loadRules(of: project)
        let runner = loaded.runner, rules = loaded.rules
        if !loaded.skipped.isEmpty {
            notChecked.append("the style rules and deep links of \(loaded.skipped.joined(separator: ", ")) (did not load: fix the errors above)")
        }
        problems += engineProblems(runner.engine, manifest: manifest, rules: rules, notChecked: &notChecked)
        let listing = runner.listTests()
        problems += listing.loadErrors.map(CheckProblem.init(error:))
        // One pass over the rules for what every file needs from the others (the globals they
        // declare, the host functions they call), then one per file: a file's tokens live only
        // while it is read.
        var hosts: Set<String> = []
        var declarations: Set<String> = []
        for source in project.rules {
            let tokens = LuaTokenizer.tokens(source.text)
            declarations.formUnion(StaticNameCheck.declaredNames(tokens))
            hosts.formUnion(StaticNameCheck.hostNames(tokens))
        }
        var names = StaticNameCheck(manifest: manifest, ruleHosts: hosts)
        names.rulesDeclarations = declarations
        var ruleProblems: [CheckProblem] = []
        for source in project.rules { ruleProblems += names.check(rules: source) }
        problems += ruleProblems
        problems += loaded.loadProblems.filter { load in
            !ruleProblems.contains { $0.severity == .error && $0.file == load.file && $0.line == load.line }
        }
        if let manifest {
            problems += unusedHostAnswers(manifest, hosts: hosts)
            let manifestSource = try? String(contentsOf: directory.appendingPathComponent(FlowProject.manifestFileName), encoding: .utf8)
            problems += FactUseCheck(manifest: manifest, manifestSource: manifestSource).problems(rules: project.rules)
            let experiments = ExperimentNameCheck(manifest: manifest)
            for source in project.rules + project.flows { problems += experiments.problems(in: source) }
            problems += experiments.unread(rules: project.rules, manifestSource: manifestSource)
        }
        for source in project.flows { problems += names.check(flow: source) }
        let exploreListing = self.listing("explore")
        problems += exploreProblems(exploreListing, names: names)
        let unread = rulesListing.problems.count + flowsListing.problems.count
        let summary = "\(CheckCommand.count(project.rules.count + rulesListing.problems.count, "rules file")), "
            + "\(CheckCommand.count(project.flows.count + flowsListing.problems.count, "flow file")) "
            + "(\(CheckCommand.count(listing.tests.count, "test"))\(unread > 0 ? "; \(unread) not read" : ""))"
            + (exploreListing.sources.isEmpty ? "" : ", \(CheckCommand.count(exploreListing.sources.count, "explore file"))")
        // `-- flowstack: ignore <kind>` comments silence a finding on their line (or below them).
        var texts: [String: String] = [:]
        for source in project.rules + project.flows + exploreListing.sources { texts[source.name] = source.text }
        let manifestText = try? String(contentsOf: directory.appendingPathComponent(FlowProject.manifestFileName), encoding: .utf8)
        if let manifestText { texts[FlowProject.manifestFileName] = manifestText }
        let ignores = CheckIgnores(texts)
        problems = problems.filter { !ignores.silences($0) } + CheckIgnores.unknownKinds(in: texts)
        return CheckOutcome(problems: deduplicated(problems), notChecked: notChecked, summary: summary)
    }

    /// The project's rules loaded for the checks that run them: a file that does not load is
    /// reported and left out, so that the others (their style rules and deep links) are still
    /// checked. Its load error is kept apart: one the static check explains at the same line
    /// (`flow.gaurd`: "attempt to call a nil value" there, "flow has no 'gaurd' (did you mean
    /// 'guard'?)") is said once, by the static check.
    private func loadRules(of project: FlowProject) -> (
        runner: FlowTestRunner<FlowRouteValue>, rules: [FlowRulesSource], skipped: [String], loadProblems: [CheckProblem]
    ) {
        var rules = project.rules
        var runner = FlowTestRunner<FlowRouteValue>(project: project)
        var skipped: [String] = []
        var loadProblems: [CheckProblem] = []
        while let error = runner.rulesLoadError {
            loadProblems.append(CheckProblem(error: error))
            guard let file = error.file, let index = rules.firstIndex(where: { $0.name == file }) else { break }
            skipped.append(file)
            rules.remove(at: index)
            runner = FlowTestRunner<FlowRouteValue>(
                project: FlowProject(directory: directory, manifest: project.manifest, rules: rules, flows: project.flows))
        }
        return (runner, rules, skipped, loadProblems)
    }

    /// What the loaded rules' engine found (its diagnostics), and the style rules resolved for
    /// every declared route; what could not be checked goes to `notChecked`.
    private func engineProblems(
        _ engine: FlowRulesEngine<FlowRouteValue>?, manifest: FlowManifest?, rules: [FlowRulesSource], notChecked: inout [String]
    ) -> [CheckProblem] {
        guard let engine else {
            if !rules.isEmpty { notChecked.append("style rules and deep links (the rules did not load)") }
            return []
        }
        var problems = engine.diagnostics.map { diagnostic in
            CheckProblem(
                diagnostic.severity == .error ? .error : .warning, file: diagnostic.file, line: diagnostic.line, diagnostic.message)
        }
        if let manifest, !manifest.routes.isEmpty {
            let sweep = StyleSweep(engine: engine, manifest: manifest, rules: rules)
            problems += sweep.run()
            if let note = sweep.factNote { notChecked.append(note) }
        } else if manifest == nil {
            notChecked.append("style rules (no routes.lua that loads: no routes to resolve styles for)")
        } else {
            notChecked.append("style rules (routes.lua declares no routes to resolve styles for)")
        }
        return problems
    }

    /// `explore/*.lua` (the invariants of `flowstack explore`): the files that cannot be read,
    /// globals and calls, and what explore would stop at: a file that does not load, a name
    /// declared twice (for the files with no error above, which would say the same thing twice).
    private func exploreProblems(
        _ listing: (sources: [FlowRulesSource], problems: [FlowScriptError]), names: StaticNameCheck
    ) -> [CheckProblem] {
        var problems = listing.problems.map(CheckProblem.init(error:))
        var exploreErrors = Set<String>()
        for source in listing.sources {
            let found = names.check(explore: source)
            if found.contains(where: { $0.severity == .error }) { exploreErrors.insert(source.name) }
            problems += found
        }
        problems += FlowExploreInvariants.loadProblems(in: listing.sources)
            .filter { !exploreErrors.contains($0.file ?? "") }.map(CheckProblem.init(error:))
        return problems
    }

    /// The files of the project's `rules/` or `flows/`, and the ones that cannot be read; none
    /// when the folder does not exist, an error when it is not a folder or cannot be opened.
    private func listing(_ folder: String) -> (sources: [FlowRulesSource], problems: [FlowScriptError]) {
        let url = directory.appendingPathComponent(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return ([], []) }
        guard isDirectory.boolValue else {
            return ([], [FlowScriptError(kind: .runtime, file: folder, message: "is not a folder: \(folder)/ holds the project's *.lua files")])
        }
        do {
            return try FlowRulesSource.listing(url)
        } catch {
            return ([], [error])
        }
    }

    /// The manifest as `check` reads it: a bad `root` or an unknown key is reported and the
    /// rest of the manifest still checks names; a manifest that does not run is reported and
    /// names go unchecked (said in `notChecked`).
    private func loadManifest(_ notChecked: inout [String]) -> (FlowManifest?, [CheckProblem]) {
        let url = directory.appendingPathComponent(FlowProject.manifestFileName)
        // lstat: a dangling link is there too (and reported as unreadable).
        var info = stat()
        guard lstat(url.path, &info) == 0 else {
            notChecked.append("route, dialog and fact names (no routes.lua: any name is accepted)")
            return (nil, [])
        }
        do {
            // Only a regular UTF-8 file is read: a FIFO, a device or a folder is an error naming it.
            let text = try FlowManifest.source(contentsOf: url, displayName: FlowProject.manifestFileName)
            let (manifest, problems) = try FlowManifest.parseReportingProblems(source: text, displayName: FlowProject.manifestFileName)
            return (manifest, problems.map(CheckProblem.init(error:)))
        } catch {
            notChecked.append("route, dialog and fact names (routes.lua did not load: fix it first)")
            return (nil, [CheckProblem(error: error)])
        }
    }

    /// `explore.hostAnswers` entries for host functions no rule calls (a misspelt name in the
    /// rules or the manifest: exploration would never give those answers), at their line.
    private func unusedHostAnswers(_ manifest: FlowManifest, hosts: Set<String>) -> [CheckProblem] {
        let unused = manifest.explore.hostAnswers.keys.filter { !hosts.contains($0) }.sorted()
        guard !unused.isEmpty else { return [] }
        let source = try? String(contentsOf: directory.appendingPathComponent(FlowProject.manifestFileName), encoding: .utf8)
        return unused.map { name in
            let line = source.flatMap { FlowManifest.line(ofKeys: ["explore", "hostAnswers", name], in: $0) }
            let hint = FlowSuggestion.closest(to: name, in: hosts.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
            return CheckProblem(
                .warning, file: FlowProject.manifestFileName, line: line,
                "explore.hostAnswers lists host.\(name), which no rule calls\(hint): exploration never gives these answers")
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
