import Foundation
import Testing

/// `flowstack explore` and `flowstack diff` as CI runs them: JSON shapes, formats, exit codes.
@Suite("flowstack explore and diff")
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
    func shopJSON() throws {
        let output = try CLIRunner.run(
            ["explore", "Tests/Fixtures/explore-shop", "--depth", "2", "--max-stack", "2", "--format", "json"], timeout: 600)
        #expect(output.status == 1, "\(output.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        for key in ["complete", "states", "transitions", "factCombinations", "diameter", "findings"] {
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
    func exitCodes() throws {
        let clean = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v1])
        defer { clean.remove() }
        let ok = try CLIRunner.run(["explore", clean.path, "--depth", "2"])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(ok.lines.last?.contains("0 findings") == true)
        let broken = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": "flow.guard(\"a\", function(\n"])
        defer { broken.remove() }
        let load = try CLIRunner.run(["explore", broken.path])
        #expect(load.status == 2)
        #expect(load.stderr.contains("rules/10.lua:"))
        let missing = try CLIRunner.run(["explore", "/nonexistent/flowstack-project"])
        #expect(missing.status == 2)
    }

    @Test("explore and diff refuse a bound out of range alike: exit 2, naming the bounds")
    func boundsOutOfRange() throws {
        let project = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v1])
        defer { project.remove() }
        for arguments in [["explore", project.path, "--max-stack", "0"], ["diff", project.path, project.path, "--depth=-1"]] {
            let output = try CLIRunner.run(arguments)
            #expect(output.status == 2, "\(arguments): \(output.stdout)\(output.stderr)")
            #expect(output.stderr.contains("--max-stack 1"), "\(output.stderr)")
        }
    }

    @Test("diff: verdicts per route in json and markdown; --fail-on fails only on its direction")
    func diff() throws {
        let old = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v1])
        let new = try TemporaryProject(["routes.lua": Self.manifest, "rules/10.lua": Self.v2])
        defer { old.remove(); new.remove() }
        let json = try CLIRunner.run(["diff", old.path, new.path, "--depth", "2", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["routes"] as? [String: String] == ["home": "unchanged", "a": "more-permissive", "b": "more-restrictive"])
        let change = try #require((object["changes"] as? [[String: Any]])?.first)
        for key in ["route", "operation", "trace", "facts", "before", "after", "direction", "location"] {
            #expect(change[key] != nil, "missing \(key)")
        }
        let markdown = try CLIRunner.run(["diff", old.path, new.path, "--depth", "2", "--format", "markdown"])
        #expect(markdown.stdout.contains("| `a` | more-permissive |"))
        let failing = try CLIRunner.run(["diff", old.path, new.path, "--depth", "2", "--fail-on", "more-permissive"])
        #expect(failing.status == 1)
        let same = try CLIRunner.run(["diff", old.path, old.path, "--depth", "2", "--fail-on", "any"])
        #expect(same.status == 0)
        #expect(same.lines.last?.hasSuffix("no change") == true, "\(same.stdout)")
    }

    @Test("--help of explore and diff gives examples")
    func help() throws {
        let explore = try CLIRunner.run(["explore", "--help"])
        #expect(explore.stdout.contains("flowstack explore Scripts --emit-flows"))
        let diff = try CLIRunner.run(["diff", "--help"])
        #expect(diff.stdout.contains("--fail-on more-permissive"))
    }
}
