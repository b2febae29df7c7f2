import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

/// The README's workflow, as written, with the `flowstack` binary: annotations saved into the
/// project, keys made, the project bundled, the archive installed and loaded by an app.
@Suite("Rule bundles: the README's workflow")
struct BundleWorkflowTests {
    /// Runs `flowstack arguments...`; returns its status and what it printed.
    static func flowstack(_ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let binary = ServeProcess.binary else {
            throw ServeProcess.Failure(description: "the flowstack binary was not found; build it with `swift build --build-tests`")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("types --output into the project, keygen, bundle --output, install, load: the app runs the rules")
    @MainActor
    func readmeWorkflowWorksAsWritten() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-workflow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let packageRoot = FlowStackBinary.packageRoot
        let scripts = base.appendingPathComponent("Scripts")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Scripts"), to: scripts)
        let types = try Self.flowstack(["types", scripts.path, "--output", scripts.appendingPathComponent("flowstack-types.lua").path])
        #expect(types.status == 0, "\(types.output)")
        #expect(FileManager.default.fileExists(atPath: scripts.appendingPathComponent("flowstack-types.lua").path))
        let key = base.appendingPathComponent("rules.key"), pub = base.appendingPathComponent("rules.pub")
        let keygen = try Self.flowstack(["keygen", "--private-key", key.path, "--public-key", pub.path])
        #expect(keygen.status == 0, "\(keygen.output)")
        let archiveURL = base.appendingPathComponent("rules-1.5.0.flowbundle")
        let bundle = try Self.flowstack([
            "bundle", scripts.path, "--key", key.path, "--version", "1.5.0", "--min-app", "2.0", "--expires", "2099-06-01",
            "--output", archiveURL.path,
        ])
        #expect(bundle.status == 0, "\(bundle.output)")

        let ruleFiles = try FileManager.default.contentsOfDirectory(atPath: scripts.appendingPathComponent("rules").path)
            .filter { $0.hasSuffix(".lua") }.map { "rules/\($0)" }
        let archive = try FlowRuleBundleArchive(data: Data(contentsOf: archiveURL))
        #expect(archive.files.keys.sorted() == (["routes.lua"] + ruleFiles).sorted(), "rules and the manifest only")

        let verifier = FlowRuleBundleVerifier(
            publicKey: try FlowRuleBundlePublicKey(contentsOf: pub), appVersion: FlowRuleBundleVersion("2.3.0")!)
        let storeDirectory = base.appendingPathComponent("store")
        let store = try FlowRuleBundleStore(directory: storeDirectory, verifier: verifier)
        #expect(try store.install(data: Data(contentsOf: archiveURL)) == .installed(FlowRuleBundleVersion("1.5.0")!))
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let choice = engine.loadInstalledBundle(from: store)
        #expect(choice.bundle?.version == FlowRuleBundleVersion("1.5.0"), "\(choice.refusals)")
        #expect(engine.lastLoadError == nil, "\(String(describing: engine.lastLoadError))")
        #expect(engine.sourceNames == ruleFiles.sorted(by: FlowRuleBundleManifest.lexicallyPrecedes))

        // The signed project directory verifies and loads too, with flows/ and the annotations beside the rules.
        let direct = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let verified = try direct.loadBundle(at: scripts, verifier: verifier)
        #expect(verified.version == FlowRuleBundleVersion("1.5.0"))
        #expect(direct.sourceNames.count == ruleFiles.count)
    }
}
