import FlowStackTestSupport
import Foundation
import Testing

@Suite("flowstack graph")
struct GraphCommandTests {
    @Test("mermaid: a flowchart with the example's routes, solid applied edges and dashed refused ones")
    func mermaid() async throws {
        let output = try await CLIRunner.run(["graph", "Scripts"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.lines
        #expect(lines.first == "flowchart LR")
        for route in ["splash", "home", "login", "onboarding", "editor", "paywall", "photoPicker", "detail"] {
            #expect(lines.contains { $0 == "  \(route)(\"\(route)\")" || $0 == "  \(route)([\"\(route)\"])" }, "node \(route)")
        }
        #expect(lines.contains("  splash([\"splash\"])"), "the root is drawn as a stadium")
        #expect(lines.contains { $0.hasPrefix("  home -->|\"") && $0.contains("fullScreenCover") && $0.hasSuffix("| paywall") })
        #expect(lines.contains { $0.hasPrefix("  home -.->|\"") && $0.contains("push: premium required") && $0.hasSuffix("| editor") })
        #expect(lines.contains { $0.contains("pop (user)") }, "user gestures are marked")
        #expect(lines.contains { $0.contains("(link)") }, "deep-link steps are marked")
        #expect(lines.contains { $0.contains("push (resume)") && $0.hasSuffix("| orders") }, "a held navigation's edge is marked")
        // Every edge line appears once: identical edges are merged and counted.
        let edges = lines.filter { $0.contains("-->|") || $0.contains("-.->|") }
        #expect(Set(edges).count == edges.count)
        #expect(edges.contains { $0.contains(" ×") })
        // Refused steps are red; the dialog edges (after the steps) are not.
        let dashed = edges.enumerated().filter { $0.element.contains("-.->") && !$0.element.contains("dialog_") }.map { String($0.offset) }
        #expect(lines.contains { $0.hasSuffix("| dialog_loginRequired") }, "the login gate's dialog answer, found by running the rules")
        #expect(lines.contains("  linkStyle \(dashed.joined(separator: ",")) stroke:#cc3333,color:#cc3333"))
    }

    @Test("dot: a digraph with quoted nodes, labelled edges, dashed refused ones")
    func dot() async throws {
        let output = try await CLIRunner.run(["graph", "Scripts", "--format", "dot"])
        #expect(output.status == 0)
        let lines = output.lines
        #expect(lines.first == "digraph flowstack {")
        #expect(lines.last == "}")
        #expect(lines.contains("  \"splash\" [style=\"rounded,bold\", penwidth=2];"))
        #expect(lines.contains { $0.hasPrefix("  \"home\" -> \"paywall\" [label=\"") && !$0.contains("dashed") })
        #expect(lines.contains { $0.hasPrefix("  \"home\" -> \"editor\" [label=\"") && $0.contains("premium required") && $0.contains("style=dashed") })
        // Balanced quotes and brackets on every edge line.
        for line in lines where line.contains(" -> ") {
            let unescaped = line.replacingOccurrences(of: "\\\"", with: "")
            #expect(unescaped.filter { $0 == "\"" }.count % 2 == 0, "unbalanced quotes: \(line)")
            #expect(line.hasSuffix("];"))
        }
    }

    @Test("a link's no-op step is drawn applied; a refusal inside its plan keeps the rule's reason, after its step")
    func linkSteps() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/a.lua": """
                flow.guard("detail", function()
                  if not facts.isLoggedIn then return false, "sign in to see this detail" end
                end)
                flow.deeplink("/detail/:id", function(p)
                  return { flow.op("popToRoot"), flow.op("push", { name = "detail", id = p.id }) }
                end)
                """,
            "flows/f.lua": """
                it("opens signed in", function()
                  app.facts{ isLoggedIn = true }
                  router.open("myapp://detail/1")
                end)
                it("opens signed out", function() router.open("myapp://detail/1") end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["graph", project.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.lines.contains("  home -->|\"popToRoot (link)\"| home"), "\(output.stdout)")
        #expect(output.lines.contains("  home -->|\"push (link)\"| detail"), "\(output.stdout)")
        #expect(output.lines.contains("  home -.->|\"push (link): step 2: sign in to see this detail\"| detail"), "\(output.stdout)")
    }

    @Test("routes no flow reaches are drawn as unreached")
    func unreached() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "flows/f.lua": "it(\"pushes\", function() router.push({ name = \"detail\", id = \"1\" }) end)\n",
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["graph", project.path])
        #expect(output.lines.contains("  home -->|\"push\"| detail"))
        #expect(output.lines.contains("  class login unreached"))
    }
}
