import FlowStackCore
import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

/// What a bundle signs and what the engine loads from one: rules from `rules/` (and the route
/// manifest) only, never generated annotations, flow tests or notes beside them.
@Suite("Rule bundles: a project's rules and manifest only")
struct BundleProjectContentsTests {
    /// What `flowstack types --output Scripts/flowstack-types.lua` writes, in short: LuaLS
    /// declarations that assign the globals rules may only read.
    static let typesFile = """
        ---@meta
        ---@class FlowFacts
        facts = {}
        flow = {}
        """

    @Test("the engine loads rules from rules/ only: a types file beside them is never run")
    @MainActor
    func engineSkipsFilesOutsideRules() throws {
        let fixture = try BundleFixture()
        try fixture.write(Self.typesFile, to: "flowstack-types.lua")
        try fixture.write("error('a flow test is not a rule')\n", to: "flows/f.lua")
        try fixture.write("flow.guard('editor', function() return false, 'signed' end)\n", to: "rules/paywall.lua")
        try fixture.write("-- routes\n", to: "routes.lua")
        try fixture.write("flow.guard('detail', function() return true end)\n", to: "rules/auth.lua")
        try fixture.sign()
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let bundle = try engine.loadBundle(at: fixture.directory, verifier: fixture.verifier())
        #expect(bundle.file(at: "flowstack-types.lua") != nil, "signed with every file, as asked")
        #expect(engine.sourceNames == ["bundle/rules/auth.lua", "bundle/rules/paywall.lua"])
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        engine.install(into: router)
        #expect(router.perform(.push(FlowRouteValue("editor"), target: .active)).reason == "signed")
    }

    @Test("rulesAndManifest signs routes.lua and rules/ only; the directory still verifies with the rest beside it")
    func projectContents() throws {
        let fixture = try BundleFixture()
        try fixture.write(Self.typesFile, to: "flowstack-types.lua")
        try fixture.write("it('x', function() end)\n", to: "flows/f.lua")
        let manifest = try FlowRuleBundle.write(
            directory: fixture.directory, privateKey: fixture.signingKey, version: FlowRuleBundleVersion("1.0")!,
            minimumAppVersion: FlowRuleBundleVersion("1.0")!, expires: fixture.now.addingTimeInterval(86_400),
            createdAt: fixture.now.addingTimeInterval(-60), contents: .rulesAndManifest)
        #expect(manifest.files.keys.sorted() == ["routes.lua", "rules/auth.lua", "rules/paywall.lua"])
        let verified = try fixture.verifier().verify(directory: fixture.directory)
        #expect(verified.files.map(\.path) == ["routes.lua", "rules/auth.lua", "rules/paywall.lua"])
        #expect(try FlowRuleBundleArchive(directory: fixture.directory).files.keys.sorted() == manifest.files.keys.sorted())
        // Files outside rules/ and routes.lua change freely; a rules file added is still refused.
        try fixture.write("-- edited\n", to: "flows/f.lua")
        #expect(try fixture.refusal() == nil)
        try fixture.write("flow.guard('home', function() return false end)\n", to: "rules/added.lua")
        #expect(try fixture.refusal() == .unlistedFile(bundle: fixture.directory.path, file: "rules/added.lua"))
    }

    @Test("a rules file deeper than the walker reads is refused by name; one at the limit is signed and read by test and check")
    @MainActor
    func depthLimitIsSharedWithTheWalker() throws {
        let fixture = try BundleFixture()
        try FileManager.default.removeItem(at: fixture.url("routes.lua"))
        // rules/ plus 31 folders: 32 folders deep, the deepest the project walker reads.
        let atLimit = "rules/" + Array(repeating: "d", count: FlowRuleBundleLimits.maximumFolderDepth - 1).joined(separator: "/") + "/ok.lua"
        try fixture.write("-- deep but read\n", to: atLimit)
        let manifest = try FlowRuleBundle.write(
            directory: fixture.directory, privateKey: fixture.signingKey, version: FlowRuleBundleVersion("1.0")!,
            minimumAppVersion: FlowRuleBundleVersion("1.0")!, expires: fixture.now.addingTimeInterval(86_400),
            createdAt: fixture.now.addingTimeInterval(-60), contents: .rulesAndManifest)
        #expect(manifest.files[atLimit] != nil)
        for name in ["auth", "paywall"] { try fixture.write("-- \(name)\n", to: "rules/\(name).lua") }
        // The walker `flowstack test` and `check` read a project's rules with (FlowProject.rules).
        let rules = try FlowRulesSource.directory(fixture.url("rules"))
        #expect(rules.contains { $0.name == atLimit }, "the walker reads the file the bundle holds")

        let tooDeep = "rules/" + Array(repeating: "e", count: FlowRuleBundleLimits.maximumFolderDepth).joined(separator: "/") + "/deep.lua"
        try fixture.write("-- a guard the tests never see\n", to: tooDeep)
        try FileManager.default.removeItem(at: fixture.url(FlowRuleBundle.manifestFileName))
        #expect {
            try FlowRuleBundle.write(
                directory: fixture.directory, privateKey: fixture.signingKey, version: FlowRuleBundleVersion("1.1")!,
                minimumAppVersion: FlowRuleBundleVersion("1.0")!, expires: fixture.now.addingTimeInterval(86_400),
                createdAt: fixture.now.addingTimeInterval(-60), contents: .rulesAndManifest)
        } throws: { error in
            guard case .overLimit(_, let file?, let detail) = error as? FlowRuleBundleError else { return false }
            return file == tooDeep && detail.contains("33 folders deep")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.url(FlowRuleBundle.manifestFileName).path), "nothing written")
        // The walker test and check read refuses the file, naming it, rather than skip it.
        #expect {
            try FlowRulesSource.directory(fixture.url("rules"))
        } throws: { error in
            "\(error)".contains(tooDeep) && "\(error)".contains("33 folders deep")
        }
    }

    @Test("a 9 MiB file is refused when signing, before bundle.json is written")
    func oversizedFileIsRefusedWhenSigning() throws {
        let fixture = try BundleFixture()
        try Data(count: 9 << 20).write(to: fixture.url("rules/big.lua"))
        #expect {
            try fixture.sign()
        } throws: { error in
            guard case .overLimit(_, "rules/big.lua", _) = error as? FlowRuleBundleError else { return false }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.url(FlowRuleBundle.manifestFileName).path))
    }
}
