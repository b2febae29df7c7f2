import FlowStackTestSupport
import Foundation
import Testing

/// A project with dialogs: a guard that answers a navigation with a dialog, dialog rules, a
/// link that ends with a dialog (section 9 of the Lua contract).
enum DialogProject {
    static let manifest = """
        return {
          root = "home",
          routes = { home = {}, orders = {}, checkout = {} },
          dialogs = { "loginRequired", "ratingPrompt", "inviteAccepted" },
          facts = { isLoggedIn = false },
        }
        """

    static let rules = """
        flow.guard("orders", function(op, stacks, ctx)
          if not facts.isLoggedIn then
            return flow.redirect("dialog", "loginRequired", "login required")
          end
        end)

        flow.dialog_guard("ratingPrompt", function(dialog, stacks, ctx)
          if ctx.dialog == "loginRequired" then return false, "busy" end
        end)

        flow.dialog_guard("*", function(dialog) return dialog.source ~= "user" end)

        flow.deeplink("/invites/:code", function(p)
          return { flow.op("popToRoot"), flow.op("showDialog", { id = "inviteAccepted", code = p.code }, "queue") }
        end)
        """
}

@Suite("flowstack check: dialogs")
struct DialogCheckTests {
    @Test("reports unknown dialog ids and policies in rules and flows with file:line and did you mean")
    func plantedMistakes() async throws {
        let project = try TemporaryProject([
            "routes.lua": DialogProject.manifest,
            "rules/dialogs.lua": """
                flow.guard("orders", function(op, stacks, ctx)
                  if not facts.isLoggedIn then
                    return flow.redirect("dialog", "loginRequird", "login required")
                  end
                end)
                flow.guard("checkout", function(op, stacks, ctx)
                  if not facts.isLoggedIn then
                    return flow.redirect("dialog", { id = "loginRequired", next = "checkout" }, "login first", "replac")
                  end
                end)
                flow.dialog_guard("ratingPromt", function(dialog, stacks, ctx)
                  if ctx.dialog == "ratingPrompts" then return false, "busy" end
                  return flow.redirect("dialog", { id = "ratingPrompt" }, "later", "queue")
                end)
                flow.dialog_guard("*", function(dialog) return true end)
                flow.deeplink("/invites/:code", function(p)
                  return { flow.op("popToRoot"), flow.op("showDialog", { id = "inviteAcepted", code = p.code }, "queue") }
                end)
                flow.deeplink("/rate", function(p) return { flow.op("showDialog", "ratingPrompt", "ignorIfVisible") } end)
                """,
            "flows/dialogs.lua": """
                it("shows dialogs", function()
                  router.showDialog("ratingPrompt", "queu")
                  router.showDialog({ id = "loginRequierd", next = "orders" })
                  router.showDialog("inviteAccepted", "replaceKeepingQueue")
                  expect(function() router.showDialog("nope") end).to_fail()
                  router.showDialogAsync("ratingPrompts")
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let policies = "policies are replace, replaceKeepingQueue, queue, ignoreIfVisible"
        let expected = [
            "flows/dialogs.lua:2: error: unknown dialog policy 'queu' (did you mean 'queue'?); \(policies)",
            "flows/dialogs.lua:3: error: unknown dialog 'loginRequierd' (did you mean 'loginRequired'?)",
            "flows/dialogs.lua:6: error: unknown dialog 'ratingPrompts' (did you mean 'ratingPrompt'?)",
            "rules/dialogs.lua:3: error: unknown dialog 'loginRequird' (did you mean 'loginRequired'?)",
            "rules/dialogs.lua:8: error: unknown dialog policy 'replac' (did you mean 'replace'?); \(policies)",
            "rules/dialogs.lua:11: error: unknown dialog 'ratingPromt' (did you mean 'ratingPrompt'?)",
            "rules/dialogs.lua:12: error: unknown dialog 'ratingPrompts' (did you mean 'ratingPrompt'?)",
            "rules/dialogs.lua:17: error: unknown dialog 'inviteAcepted' (did you mean 'inviteAccepted'?)",
            "rules/dialogs.lua:19: error: unknown dialog policy 'ignorIfVisible' (did you mean 'ignoreIfVisible'?); \(policies)",
        ]
        expectLines(of: output, startingWith: expected)
        let dialogLines = output.lines.filter { $0.contains("dialog") && $0.contains(": error: unknown") }
        #expect(dialogLines.count == expected.count, "only the planted mistakes:\n\(output.stdout)")
        #expect(!output.stdout.contains("'nope'"), "mistakes inside expect(...).to_fail are on purpose")
        #expect(!output.stdout.contains("unknown route"), "a dialog redirect's dialog is not a route:\n\(output.stdout)")
        #expect(!output.stdout.contains("has no 'dialog_guard'"), "\(output.stdout)")
        #expect(!output.stdout.contains("'*'"), "\"*\" is every dialog")
    }

    @Test("a project that spells its dialogs right has no dialog finding; without dialogs in routes.lua, ids are not checked")
    func cleanAndUnchecked() async throws {
        let project = try TemporaryProject([
            "routes.lua": DialogProject.manifest,
            "rules/dialogs.lua": DialogProject.rules,
            "flows/dialogs.lua": "it(\"x\", function() expect(router.showDialog(\"ratingPrompt\", \"queue\")).to_be(true) end)\n",
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(!output.stdout.contains("unknown dialog"), "\(output.stdout)")
        #expect(!output.stdout.contains("unknown route"), "\(output.stdout)")
        #expect(!output.stdout.contains("has no 'dialog_guard'"), "\(output.stdout)")

        let noDialogs = try TemporaryProject([
            "routes.lua": "return { root = \"home\", routes = { home = {}, orders = {} } }\n",
            "rules/dialogs.lua": "flow.guard(\"orders\", function() return flow.redirect(\"dialog\", \"anything\") end)\n",
        ])
        defer { noDialogs.remove() }
        let unchecked = try await CLIRunner.run(["check", noDialogs.path])
        #expect(!unchecked.stdout.contains("unknown dialog"), "\(unchecked.stdout)")
        #expect(!unchecked.stdout.contains("unknown route 'anything'"), "\(unchecked.stdout)")
    }
}

@Suite("flowstack types: dialogs")
struct DialogTypesTests {
    @Test("declares flow.dialog_guard, the dialog view, the dialog redirect and plan step, and router.showDialog's boolean")
    func declarations() async throws {
        let project = try TemporaryProject(["routes.lua": DialogProject.manifest, "rules/dialogs.lua": DialogProject.rules])
        defer { project.remove() }
        let output = try await CLIRunner.run(["types", project.path])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.lines
        let expected = [
            "---@alias DialogId \"inviteAccepted\"|\"loginRequired\"|\"ratingPrompt\"",
            "---@alias DialogSource \"code\"|\"rules\"|\"deeplink\"|\"facts\"|\"user\"",
            "---@alias DialogPolicy \"replace\"|\"replaceKeepingQueue\"|\"queue\"|\"ignoreIfVisible\"",
            "---@class FlowDialogView",
            "---@field id DialogId",
            "---@field policy DialogPolicy",
            "---@field source DialogSource",
            "---@field [string] any payload fields",
            "---@alias DialogRuleFunction fun(dialog: FlowDialogView, stacks: Stack[], ctx: RuleContext): (boolean|Redirect|nil), string?",
            "---@param dialogId DialogId|\"*\"",
            "---@param rule DialogRuleFunction",
            "function flow.dialog_guard(dialogId, rule) end",
            "---@param kind OpKind|\"dialog\"",
            "---@param policy? DialogPolicy|RedirectOptions the policy with \"dialog\" or the options of a navigation redirect",
            "function flow.redirect(kind, route, reason, policy) end",
            "---@param kind OpKind|\"showDialog\"",
            "---@param extra? table|integer|DialogPolicy",
            "---@class DialogRedirectResult",
            "---@field kind \"dialog\"",
            "---@field redirect? Result|DialogRedirectResult",
            "---@class DialogOp",
            "---@field op Op|DialogOp",
        ]
        for line in expected {
            #expect(lines.contains(line), "missing: \(line)")
        }
        let showDialog = try #require(lines.firstIndex(of: "function router.showDialog(dialog, policy) end"))
        #expect(lines[showDialog - 1] == "---@return boolean")
        #expect(lines[showDialog - 2] == "---@param policy? DialogPolicy")
    }

    @Test("--luacheck knows flow.dialog_guard: luacheck passes on rules that use it")
    func luacheck() async throws {
        let project = try TemporaryProject([
            "routes.lua": DialogProject.manifest,
            "rules/dialogs.lua": DialogProject.rules,
            "flows/f.lua": "it(\"y\", function() expect(router.showDialog(\"ratingPrompt\")).to_be(true) end)\n",
        ])
        defer { project.remove() }
        #expect(try await CLIRunner.run(["types", project.path, "--luacheck"]).status == 0)
        let written = try String(contentsOf: project.url.appendingPathComponent(".luacheckrc"), encoding: .utf8)
        let rulesFlow = try #require(written.split(separator: "\n").first { $0.contains("flow = { fields = {") })
        #expect(rulesFlow.contains("dialog_guard = {}"), "\(rulesFlow)")

        let luacheck = URL(fileURLWithPath: "/usr/bin/luacheck")
        guard FileManager.default.isExecutableFile(atPath: luacheck.path) else { return }
        let checked = try await CLIRunner.run(luacheck, ["--no-color", "."], in: project.url)
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains("Total: 0 warnings / 0 errors"), "\(checked.stdout)")
    }
}

@Suite("flowstack graph: dialogs")
struct DialogGraphTests {
    private func project() throws -> TemporaryProject {
        try TemporaryProject([
            "routes.lua": DialogProject.manifest,
            "rules/dialogs.lua": DialogProject.rules + """

                -- The answer comes from a helper's loop: only running the rules finds it.
                local gates = { { route = "checkout", dialog = "loginRequired" } }
                local function gate(route)
                  for _, g in ipairs(gates) do
                    if g.route == route and not facts.isLoggedIn then
                      return flow.redirect("dialog", { id = g.dialog, next = route })
                    end
                  end
                end
                flow.guard("checkout", function(op, stacks, ctx) return gate(op.route.name) end)
                -- No flow goes to home's guard: its dialog is not drawn.
                flow.guard("home", function() return flow.redirect("dialog", "inviteAccepted") end)
                """,
            "flows/f.lua": """
                it("orders", function() router.push("orders") end)
                it("checks out", function() router.push("checkout") end)
                """,
        ])
    }

    @Test("dot: a navigation answered with a dialog is a dashed edge from the guarded route to a note")
    func dot() async throws {
        let project = try project()
        defer { project.remove() }
        let output = try await CLIRunner.run(["graph", project.path, "--format", "dot"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.lines
        #expect(lines.contains("  \"dialog:loginRequired\" [shape=note, style=filled, fillcolor=\"#fff8dc\", label=\"loginRequired\"];"),
                "\(output.stdout)")
        #expect(lines.contains("  \"orders\" -> \"dialog:loginRequired\" [label=\"dialog: login required\", style=dashed];"))
        #expect(lines.contains("  \"checkout\" -> \"dialog:loginRequired\" [label=\"dialog\", style=dashed];"))
        #expect(lines.filter { $0.contains("shape=note") }.count == 1, "one node per dialog")
        #expect(!lines.contains { $0.contains("ratingPrompt") || $0.contains("inviteAccepted") }, "only dialogs answering a navigation")
        #expect(lines[1].contains("2 answered with a dialog"), "\(lines[1])")
        #expect(lines.last == "}")
    }

    @Test("mermaid: a dashed -.-> edge to a dialog node with its own shape and class")
    func mermaid() async throws {
        let project = try project()
        defer { project.remove() }
        let output = try await CLIRunner.run(["graph", project.path])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.lines
        #expect(lines.contains("  dialog_loginRequired>\"loginRequired\"]"), "\(output.stdout)")
        #expect(lines.contains("  orders -.->|\"dialog: login required\"| dialog_loginRequired"))
        #expect(lines.contains("  checkout -.->|\"dialog\"| dialog_loginRequired"))
        #expect(lines.contains("  class dialog_loginRequired dialog"))
        // The red style of refused steps does not reach the dialog edges (they come after the steps).
        let edges = lines.filter { $0.contains("-->|") || $0.contains("-.->|") }
        if let linkStyle = lines.first(where: { $0.hasPrefix("  linkStyle ") }) {
            let positions = linkStyle.dropFirst("  linkStyle ".count).split(separator: " ")[0].split(separator: ",").compactMap { Int($0) }
            for position in positions { #expect(!edges[position].contains("dialog_")) }
        }
    }
}
