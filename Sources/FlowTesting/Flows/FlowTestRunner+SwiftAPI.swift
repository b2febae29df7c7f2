import FlowLua
import FlowScript
import FlowStackCore
import Foundation

extension FlowTestRunner {
    /// Runs the flow files in `directory` (every `*.lua` below it) against an app's own rules
    /// engine and route type: one call per flow directory from an app's Swift tests.
    ///
    /// ```swift
    /// @Test func flows() async throws {
    ///     let engine = try FlowRulesEngine<AppRoute>(directory: rulesURL, configuration: .init(manifest: manifest))
    ///     let report = try await FlowTestRunner.run(flowsIn: flowsURL, rules: engine)
    ///     #expect(report.succeeded, "\(report.summary)")   // `report.issues`: each failure's file and line
    /// }
    /// ```
    ///
    /// Flows name routes as tables (`{ name = "detail", id = "42" }`); each goes through
    /// `Route(flowRoute:)`. The manifest defaults to the engine's; host functions the flows stub
    /// with `app.host` replace the engine's host functions of the same name.
    ///
    /// - Throws: when `directory` cannot be read.
    public static func run(
        flowsIn directory: URL,
        rules engine: FlowRulesEngine<Route>,
        manifest: FlowManifest? = nil,
        filter: String? = nil,
        options: Options = Options()
    ) async throws(FlowScriptError) -> FlowTestReport {
        let flows = try FlowRulesSource.directory(directory)
        let project = FlowProject(
            directory: directory.standardizedFileURL.deletingLastPathComponent(),
            manifest: manifest ?? engine.configuration.manifest, rules: [], flows: flows)
        let runner = FlowTestRunner(project: project, engine: engine, options: options)
        return await runner.run(filter: filter)
    }
}

extension FlowTestRunner where Route == FlowRouteValue {
    /// Runs the flows of a project directory (`routes.lua`, `rules/`, `flows/`) with the
    /// dynamic route type, as `flowstack test` does.
    ///
    /// - Throws: when the directory is missing or the manifest does not load.
    public static func run(project directory: URL, filter: String? = nil, options: Options = Options()) async throws(FlowScriptError) -> FlowTestReport {
        await FlowTestRunner(project: try FlowProject(directory: directory), options: options).run(filter: filter)
    }
}
