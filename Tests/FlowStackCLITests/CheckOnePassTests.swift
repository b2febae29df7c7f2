import FlowStackTestSupport
import Foundation
import Testing

/// Every kind of mistake `flowstack check` finds, planted together in one project and found in
/// one run, each at `file:line` with "did you mean" where a name is near.
@Suite("flowstack check finds every mistake in one pass")
struct CheckOnePassTests {
    static let manifest = """
        return {
          root = "home",
          routes = {
            home = {}, checkout = {}, promo = {},
            address = { params = { saved = "bool", street = "string" } },
          },
          dialogs = { "discardAddress" },
          facts = {
            isLoggedIn = false,
            cartItemCount = "0",
          },
        }
        """

    static let rules = """
        flow.guard("checkout", function(op, stacks, ctx)
          if facts.cartItemCount > 0 and facts.isLoggedIn then return true end
          if retries > 3 then return false, "too many tries" end
          return flow.redirect("discardAddress", "unsaved address edits")
        end)

        flow.deeplink("/promo/code", function(p)
          return { flow.op("sheet", "promo"), p.code }
        end)

        flow.style.screen(function(c)
          return {
            navigationTitle = "Shop",
            tnt = "red",
          }
        end)
        """

    static let flow = """
        it("checks out", function()
          router.push("chekout")
          router.push({ name = "address", street = "Main" })
        end)
        """

    @Test("one run reports the bad manifest entry, a bare global read, a link parameter, a missing kind, a style key and a fact default")
    func everyMistakeAtOnce() async throws {
        let project = try TemporaryProject(["routes.lua": Self.manifest, "rules/shop.lua": Self.rules, "flows/shop.lua": Self.flow])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let expected = [
            // The broken entry is reported and left out; the route and the rest of the manifest still check names.
            "routes.lua:5: error: route 'address': params must map names to one of string, number, integer, boolean, table, got saved = \"bool\" (did you mean 'boolean'?)",
            "routes.lua:10: error: fact 'cartItemCount' defaults to the string \"0\", but rules/shop.lua:2 uses it as a number (facts.cartItemCount > 0)",
            "rules/shop.lua:3: error: undeclared global 'retries'",
            "rules/shop.lua:4: error: flow.redirect is missing its operation kind: 'discardAddress' is a dialog",
            "rules/shop.lua:8: warning: flow.deeplink(\"/promo/code\"): the handler reads p.code, which the pattern cannot produce",
            "rules/shop.lua:14: warning: screen style attribute tnt ignored: unknown style attribute (did you mean 'tint'?)",
            "flows/shop.lua:2: error: unknown route 'chekout' (did you mean 'checkout'?)",
        ]
        expectLines(of: output, startingWith: expected)
        #expect(output.stdout.contains("(did you mean '/promo/:code'?)"), "\(output.stdout)")
        #expect(output.stdout.contains("kinds are setRoot, push"), "\(output.stdout)")
        #expect(!output.stdout.contains("unknown route 'unsaved address edits'"), "\(output.stdout)")
        #expect(!output.stdout.contains("declares no routes"), "\(output.stdout)")
        #expect(!output.stdout.contains("did not load"), "\(output.stdout)")
        #expect(!output.stdout.contains("field 'street'"), "the route's good fields still check: \(output.stdout)")
    }

    @Test("a bare read of a name the file declares, self, a label or a table key, and facts used as declared, are not reported")
    func declaredNamesAreQuiet() async throws {
        let project = try TemporaryProject([
            "routes.lua": """
                return { root = "home", routes = { home = {} }, facts = { name = "guest", count = 0 } }
                """,
            "rules/ok.lua": """
                local M = { base = 0 }
                function M:depth(stack) return #stack.routes + self.base end
                local function halves(...) return select("#", ...) // 2 end
                local limit <const> = 3
                local count, seen = 0, {}
                shared = { depth = 2 }
                flow.precondition("push", function(op, stacks, ctx)
                  for i, stack in ipairs(stacks) do
                    if i > limit or M:depth(stack) > halves(1, 2) then goto done end
                    count = count + #stack.routes + shared.depth
                  end
                  ::done::
                  if facts.name == "admin" or 3 < facts.count then return true end
                  return count >= 0 and seen ~= nil
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(!output.stdout.contains("undeclared"), "\(output.stdout)")
        #expect(!output.stdout.contains("unknown route 'admin'"), "facts.name is a fact, not a route's name: \(output.stdout)")
    }

    @Test("calls with too few or too many arguments, an unknown kind, and a misspelt near global")
    func arityAndKinds() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/calls.lua": """
                local retries = 0
                flow.precondition("pussh", function(op) return retries < 3 end)
                flow.guard("detail", function(op)
                  if retires > 1 then return false end
                  return flow.redirect("sheet", "login", "why", "queue", "extra")
                end)
                flow.guard("login", function(op) return flow.redirect("push") end)
                flow.deeplink("/x", function() return { flow.op("popTo", nil), flow.op("pop") } end)
                """,
            "flows/calls.lua": """
                it("calls", function()
                  router.push()
                  router.popTo("home", "inclusive", 3)
                  router.popTo("home", "inclusiv")
                  app.facts()
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        let expected = [
            "rules/calls.lua:2: error: unknown operation kind 'pussh' in flow.precondition (did you mean 'push'?)",
            "rules/calls.lua:4: error: undeclared global 'retires' (did you mean 'retries'?)",
            "rules/calls.lua:5: warning: flow.redirect takes 1 to 4 arguments, got 5",
            "rules/calls.lua:7: error: flow.redirect(\"push\") needs a route: flow.redirect(\"push\", route, reason)",
            "rules/calls.lua:8: error: flow.op(\"popTo\") needs a route: flow.op(\"popTo\", route)",
            "flows/calls.lua:2: error: router.push takes 1 argument, got 0",
            "flows/calls.lua:3: warning: router.popTo takes 1 to 2 arguments, got 3",
            "flows/calls.lua:4: error: router.popTo: match 'inclusiv' is not one of inclusive, exclusive (did you mean 'inclusive'?)",
            "flows/calls.lua:5: error: app.facts takes 1 argument, got 0",
        ]
        expectLines(of: output, startingWith: expected)
        #expect(!output.stdout.contains("flow.op(\"pop\") needs"), "pop takes no route: \(output.stdout)")
    }
}

/// `explore/*.lua` files: `invariant` and Lua's globals, nothing else of FlowStack's.
@Suite("flowstack check: explore files")
struct CheckExploreFilesTests {
    @Test("an explore file's undeclared globals and a call to invariant without its check are reported")
    func exploreFiles() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "explore/shop.lua": """
                invariant("signed in on detail", function(s)
                  return s.top.name ~= "detail" or s.facts.isLoggedIn
                end)
                invariant("no sheet on login")
                invariant("uses the router", function(s) return router.top() ~= nil end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let expected = [
            "explore/shop.lua:4: error: invariant takes 2 arguments, got 1",
            "explore/shop.lua:5: error: undeclared global 'router': explore files have invariant and Lua's standard functions",
        ]
        expectLines(of: output, startingWith: expected)
        #expect(output.lines.last?.contains(", 1 explore file: 2 errors, 0 warnings") == true, "\(output.stdout)")
    }

    @Test("an explore file that does not load, and an invariant name declared twice, are reported as explore would")
    func exploreLoadErrors() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "explore/a.lua": """
                invariant("fine", function(s) return true end)
                invariant("fine", function(s) return s.top ~= nil end)
                """,
            "explore/b.lua": """
                invariant("unclosed", function(s) return true end
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let expected = [
            "explore/a.lua:2: error: invariant 'fine' is declared twice; give each its own name",
            "explore/b.lua:1: error: ')' expected",
        ]
        expectLines(of: output, startingWith: expected)
        #expect(output.lines.last?.contains(", 2 explore files: 2 errors, 0 warnings") == true, "\(output.stdout)")
    }
}
