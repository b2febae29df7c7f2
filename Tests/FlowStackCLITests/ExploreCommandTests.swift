import FlowStackTestSupport
import Foundation
import Testing

/// `flowstack explore` and `flowstack diff` as CI runs them: JSON shapes, formats, exit codes.
@Suite("flowstack explore and diff", .enabled(if: TestTier.slow))
struct ExploreCommandTests {
    static let manifest = """
        return { root = "home", routes = { home = {}, a = {}, b = {} }, facts = { isLoggedIn = false } }
        """
    static let v1 = """
        flow.guard("a", function(op, stacks, ctx)
          if not facts.isLoggedIn then return false, "sign in first" end
        end)
        """
    static let v2 = """
        flow.guard("b", function(op, stacks, ctx)
          if op.kind == "sheet" then return false, "b is pushed" end
        end)
        """

    @Test("explore --format json on the shop: the five findings in the documented shape, exit 1")
    func shopJSON() async throws {
        // The run FlowTestingTests' determinism check compares with the library's report.
        let output = try await ShopExploration.output
        #expect(output.status == 1, "\(output.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        for key in ["complete", "completeDepth", "states", "transitions", "factCombinations", "assignments", "diameter", "findings"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.compactMap { $0["kind"] as? String } == ["unreachable", "rule-error", "redirect-loop", "trap", "invariant"])
        let error = try #require(findings.first { $0["kind"] as? String == "rule-error" })
        #expect(error["location"] as? String == "rules/10-shop.lua:17")
        #expect(error["trace"] as? [String] == ["push library"])
        #expect((error["facts"] as? [String: Any])?["isPremium"] as? Bool == true)
    }

    @Test("explore exits 0 with nothing found, 2 on a load error or a missing project")
    func exitCodes() async throws {
        let clean = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v1])
        defer { clean.remove() }
        let ok = try await CLIRunner.run(["explore", clean.path, "--depth", "2"])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(ok.lines.last?.contains("0 findings") == true)
        let broken = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": "flow.guard(\"a\", function(\n"])
        defer { broken.remove() }
        let load = try await CLIRunner.run(["explore", broken.path])
        #expect(load.status == 2)
        #expect(load.stderr.contains("rules/10.lua:"))
        let missing = try await CLIRunner.run(["explore", "/nonexistent/flowstack-project"])
        #expect(missing.status == 2)
    }

    @Test("explore and diff refuse a bound out of range alike: exit 2, naming the bounds")
    func boundsOutOfRange() async throws {
        let project = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v1])
        defer { project.remove() }
        for arguments in [["explore", project.path, "--max-stack", "0"], ["diff", project.path, project.path, "--depth=-1"]] {
            let output = try await CLIRunner.run(arguments)
            #expect(output.status == 2, "\(arguments): \(output.stdout)\(output.stderr)")
            #expect(output.stderr.contains("--max-stack 1"), "\(output.stderr)")
        }
    }

    @Test("explore and diff exit 2 on a usage error too (1 is their findings), saying what is accepted")
    func usageErrors() async throws {
        let project = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v1])
        defer { project.remove() }
        let cases: [([String], String)] = [
            (["explore", project.path, "--format", "yaml"], "'pretty' and 'json'"),
            (["explore", project.path, "--dept", "2"], "Did you mean '--depth'?"),
            (["diff", project.path, project.path, "--fail-on", "more-permisive"], "'more-permissive'"),
            (["diff", project.path], "Missing expected argument '<new>'"),
        ]
        for (arguments, message) in cases {
            let output = try await CLIRunner.run(arguments)
            #expect(output.status == 2, "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
        }
        let manifest = try await CLIRunner.run(["diff", project.path, project.path, "--manifest", "no-such-routes.lua"])
        #expect(manifest.status == 2)
        #expect(manifest.stderr.contains("no-such-routes.lua: cannot open the file"), "\(manifest.stderr)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-emit-\(UUID().uuidString)")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let emit = try await CLIRunner.run([
            "explore", "Tests/Fixtures/explore-shop", "--depth", "1", "--max-stack", "1", "--emit-flows", file.path,
        ])
        #expect(emit.status == 2)
        #expect(emit.stderr.contains("pass a writable path to --emit-flows"), "\(emit.stderr)")
        let typo = try await CLIRunner.run(["explore", "Scrpts"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("no flow project at Scrpts (did you mean 'Scripts'?)"), "\(typo.stderr)")
        let diffTypo = try await CLIRunner.run(["diff", "Scripts", "Tests/Fixtures/explore-shp"])
        #expect(diffTypo.status == 2)
        #expect(diffTypo.stderr.contains("(did you mean 'Tests/Fixtures/explore-shop'?)"), "\(diffTypo.stderr)")
        let help = try await CLIRunner.run(["explore", "--help"])
        #expect(help.status == 0)
    }

    @Test("diff: verdicts per route in json and markdown; --fail-on fails only on its direction")
    func diff() async throws {
        let old = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v1])
        let new = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v2])
        defer { old.remove(); new.remove() }
        let json = try await CLIRunner.run(["diff", old.path, new.path, "--depth", "2", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["routes"] as? [String: String] == ["home": "unchanged", "a": "more-permissive", "b": "more-restrictive"])
        let change = try #require((object["changes"] as? [[String: Any]])?.first)
        for key in ["route", "operation", "trace", "facts", "before", "after", "direction", "location"] {
            #expect(change[key] != nil, "missing \(key)")
        }
        let markdown = try await CLIRunner.run(["diff", old.path, new.path, "--depth", "2", "--format", "markdown"])
        #expect(markdown.stdout.contains("| route `a` | more-permissive |"), "\(markdown.stdout)")
        let failing = try await CLIRunner.run(["diff", old.path, new.path, "--depth", "2", "--fail-on", "more-permissive"])
        #expect(failing.status == 1)
        let same = try await CLIRunner.run(["diff", old.path, old.path, "--depth", "2", "--fail-on", "any"])
        #expect(same.status == 0)
        #expect(same.lines.last?.hasSuffix("no change") == true, "\(same.stdout)")
    }

    @Test("explore --quiet prints nothing on stderr; the JSON is byte-identical from run to run and says how far it got")
    func quietAndDeterministic() async throws {
        let project = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v1])
        defer { project.remove() }
        let first = try await CLIRunner.run(["explore", project.path, "--quiet", "--format", "json", "--max-states", "5"])
        let second = try await CLIRunner.run(["explore", project.path, "--quiet", "--format", "json", "--max-states", "5"])
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        #expect(json["complete"] as? Bool == false)
        #expect(json["completeDepth"] as? Int == 0, "\(first.stdout)")
        let pretty = try await CLIRunner.run(["explore", project.path, "--quiet", "--max-states", "5"])
        #expect(pretty.lines.last?.contains("complete to depth 0") == true, "\(pretty.stdout)")
        let loud = try await CLIRunner.run(["explore", project.path, "--max-stack", "1", "--max-presented", "0"])
        #expect(loud.stderr.contains("explored in"), "\(loud.stderr)")
        #expect(loud.lines.last?.contains(": complete; 0 findings") == true, "\(loud.stdout)")
    }

    @Test("SIGTERM or Ctrl-C on a running explore prints the findings so far, interrupted at depth k")
    @MainActor
    func interruptedRun() async throws {
        let shop = FlowStackBinary.packageRoot.appendingPathComponent("Tests/Fixtures/explore-shop12").path
        for terminate in [true, false] {
            // Far past what it could finish: it is still exploring when the signal arrives.
            let running = try RunningCommand(["explore", shop, "--depth", "12", "--max-states", "100000000", "--max-stack", "4"])
            // Exploring (loading takes a fraction of a second of processor time).
            #expect(await eventually { running.processorSeconds >= 3 })
            let status = running.stop(terminate: terminate)
            #expect(status == 1, "\(running.output.text)")
            let text = running.output.text
            #expect(text.contains("interrupted at depth "), "\(text)")
            // The findings so far: the loop of banned people is one step from the root.
            #expect(text.contains("redirect-loop"), "\(text)")
        }
    }

    @Test("--help of explore and diff gives examples")
    func help() async throws {
        let explore = try await CLIRunner.run(["explore", "--help"])
        #expect(explore.stdout.contains("--emit-flows /tmp/explore-flows"))
        let diff = try await CLIRunner.run(["diff", "--help"])
        #expect(diff.stdout.contains("--fail-on more-permissive"))
    }

    @Test("graph --explore draws every reachable route and transition: refusals dashed with reasons, dialog answers")
    func graphExplore() async throws {
        let project = try TemporaryProject([
            "routes.lua": """
                return { root = "home", routes = { home = {}, a = {}, b = {}, c = {} }, dialogs = { "signIn" },
                  facts = { isLoggedIn = false } }
                """,
            "rules/10.lua": """
                flow.guard("a", function(op, stacks, ctx)
                  if not facts.isLoggedIn then return flow.redirect("dialog", "signIn", "sign in first") end
                end)
                flow.guard("b", function(op, stacks, ctx)
                  if op.kind == "sheet" then return false, "b is pushed" end
                end)
                flow.guard("c", function(op, stacks, ctx) return false, "never" end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["graph", project.path, "--explore", "--depth", "2", "--max-stack", "2"])
        #expect(output.status == 0, "\(output.stderr)")
        let text = output.stdout
        #expect(text.contains("--explore:"), "\(text)")
        #expect(text.contains("home -->|\"push"), "\(text)")
        #expect(text.contains("home -.->|\"") && text.contains("sheet: b is pushed"), "\(text)")
        #expect(text.contains("dialog: sign in first"), "\(text)")
        #expect(text.contains(">\"signIn\"]"), "\(text)")
        #expect(text.contains("push: never"), "\(text)")
        #expect(!text.split(separator: "\n").contains { $0.contains(" -->|") && $0.hasSuffix("| c") }, "\(text)")
        let dot = try await CLIRunner.run(["graph", project.path, "--explore", "--depth", "1", "--format", "dot"])
        #expect(dot.stdout.contains("\"home\" -> \"b\" [label=\""), "\(dot.stdout)")
        #expect(dot.stdout.contains("style=dashed"), "\(dot.stdout)")
    }

    /// Two signed projects (v1 and v2 of the rules) and the public key that verifies them.
    struct SignedPair {
        let old: TemporaryProject
        let new: TemporaryProject
        let keys: TemporaryProject

        var publicKey: String { keys.url.appendingPathComponent("rules.pub").path }
        var oldArchive: String { keys.url.appendingPathComponent("v1.flowbundle").path }
        var newArchive: String { keys.url.appendingPathComponent("v2.flowbundle").path }

        init() async throws {
            old = try TemporaryProject(["routes.lua": ExploreCommandTests.manifest, "rules/10.lua": ExploreCommandTests.v1])
            new = try TemporaryProject(["routes.lua": ExploreCommandTests.manifest, "rules/10.lua": ExploreCommandTests.v2])
            keys = try TemporaryProject(["README": "keys\n"])
            let key = keys.url.appendingPathComponent("rules.key").path
            let keygen = try await CLIRunner.run(["keygen", "--private-key", key, "--public-key", keys.url.appendingPathComponent("rules.pub").path])
            #expect(keygen.status == 0, "\(keygen.stderr)")
            for (project, version, archive) in [(old, "1.0.0", oldArchive), (new, "1.1.0", newArchive)] {
                let bundle = try await CLIRunner.run([
                    "bundle", project.path, "--key", key, "--version", version, "--min-app", "2.0", "--expires", "2099-06-01",
                    "--output", archive,
                ])
                #expect(bundle.status == 0, "\(bundle.stderr)")
            }
        }

        func remove() {
            old.remove()
            new.remove()
            keys.remove()
        }
    }

    @Test("diff of two signed bundles (directories or archives) verifies them and explores the verified rules")
    func diffBundles() async throws {
        let pair = try await SignedPair()
        defer { pair.remove() }
        let expected = ["home": "unchanged", "a": "more-permissive", "b": "more-restrictive"]
        for (old, new) in [(pair.old.path, pair.new.path), (pair.oldArchive, pair.newArchive)] {
            let output = try await CLIRunner.run([
                "diff", old, new, "--public-key", pair.publicKey, "--app-version", "2.1", "--depth", "2", "--format", "json",
            ])
            #expect(output.status == 0, "\(output.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            #expect(object["routes"] as? [String: String] == expected)
        }
        let tooOld = try await CLIRunner.run(["diff", pair.oldArchive, pair.newArchive, "--public-key", pair.publicKey, "--app-version", "1.0"])
        #expect(tooOld.status == 2)
        #expect(tooOld.stderr.contains("OLD"), "\(tooOld.stderr)")
    }

    @Test("diff refuses a bundle whose signature does not verify: exit 2 and a message naming the bundle")
    func diffBadSignature() async throws {
        let pair = try await SignedPair()
        defer { pair.remove() }
        // Another key: the signatures do not verify with it.
        let other = pair.keys.url.appendingPathComponent("other.pub").path
        #expect(try await CLIRunner.run(["keygen", "--public-key", other]).status == 0)
        let wrongKey = try await CLIRunner.run(["diff", pair.old.path, pair.new.path, "--public-key", other])
        #expect(wrongKey.status == 2)
        #expect(wrongKey.stderr.contains("error: OLD \(pair.old.path): rule bundle refused"), "\(wrongKey.stderr)")
        #expect(wrongKey.stderr.contains("does not verify"), "\(wrongKey.stderr)")
        #expect(wrongKey.stdout.isEmpty)
        // A rules file changed after signing.
        try Data("-- edited after signing\n".utf8).write(to: pair.new.url.appendingPathComponent("rules/10.lua"))
        let edited = try await CLIRunner.run(["diff", pair.old.path, pair.new.path, "--public-key", pair.publicKey])
        #expect(edited.status == 2)
        #expect(edited.stderr.contains("error: NEW \(pair.new.path): rule bundle refused"), "\(edited.stderr)")
    }
}

