import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §8 through the engine: `flow.deeplink` handlers, `flow.op` plans, the links policy.
@Suite("Engine: deep links")
@MainActor
struct EngineDeepLinkTests {
    static let rules = """
        flow.deeplink("/products/:id", function(p, url)
          host.log("product", p.id, tostring(p.ref), url)
          return { flow.op("popToRoot"), flow.op("push", { name = "detail", id = p.id }) }
        end)
        flow.deeplink("/search/:term", function(p)
          return { flow.op("push", { name = "search", term = p.term, sort = p.sort }) }
        end)
        flow.deeplink("/promo/*", function(p)
          return { flow.op("sheet", { name = "promo", rest = p["*"] }) }
        end)
        flow.deeplink("/steps", function(p)
          return { flow.op("pushMany", { "a", "b", "c" }), flow.op("pop", nil, 2), flow.op("fullScreenCover", "done") }
        end)
        flow.deeplink("/nothing", function(p) end)
        flow.deeplink("/number", function(p) return 42 end)
        flow.deeplink("/strings", function(p) return { "push" } end)
        flow.deeplink("/boom", function(p)
          error("handler exploded")
        end)
        flow.deeplink("/badroute", function(p)
          return { flow.op("push", 42) }
        end)
        """

    func url(_ text: String) throws -> URL {
        try #require(URL(string: text))
    }

    @Test("Path parameters reach the handler; the plan applies as one transaction with source deeplink")
    func parametersAndPlan() throws {
        let rig = try RulesRig(Self.rules)
        rig.router.push(route("elsewhere"))
        rig.clearLog()
        let result = rig.router.open(url: try url("myapp://products/42?ref=mail"))
        #expect(result.status == .applied, "\(result.reason ?? "")")
        #expect(rig.log == ["product 42 mail myapp://products/42?ref=mail"])
        #expect(rig.router.activeStack.path == [route("detail", ["id": "42"])])
        let entries = rig.router.history.suffix(2)
        #expect(entries.allSatisfy { $0.source == .deeplink })
        #expect(result.plan?.pattern == "/products/:id")
        #expect(result.plan?.location?.file == "rules/test.lua")
        #expect(result.plan?.location?.line == 1)
        #expect(rig.engine.handlesDeepLinks)
    }

    @Test("Query items join the parameters; a path parameter wins over a query item")
    func queryMerge() throws {
        let rig = try RulesRig(Self.rules)
        let result = rig.router.open(url: try url("https://example.com/search/shoes?term=hats&sort=price"))
        #expect(result.status == .applied)
        #expect(rig.router.topRoute == route("search", ["term": "shoes", "sort": "price"]))
    }

    @Test("A trailing * captures the rest of the path")
    func wildcard() throws {
        let rig = try RulesRig(Self.rules)
        #expect(rig.router.open(url: try url("myapp://promo/spring/2025")).status == .applied)
        #expect(rig.router.topRoute == route("promo", ["rest": "spring/2025"]))
        #expect(rig.router.activeStack.style == .sheet)
    }

    @Test("flow.op plans: pushMany, pop with a count, fullScreenCover")
    func opPlans() throws {
        let rig = try RulesRig(Self.rules)
        #expect(rig.router.open(url: try url("myapp://steps")).status == .applied)
        #expect(rig.router.rootStack.path == [route("a")])
        #expect(rig.router.topRoute == route("done"))
        #expect(rig.router.activeStack.style == .fullScreenCover)
    }

    @Test("Every operation of a plan is checked by the rules, with source deeplink")
    func planCheckedByRules() throws {
        let rig = try RulesRig(Self.rules + """

            flow.guard("detail", function(op)
              host.log("guard", op.source, op.kind)
              if not facts.isLoggedIn then return flow.redirect("sheet", "login", "login required") end
            end)
            """)
        rig.router.push(route("elsewhere"))
        rig.clearLog()
        let link = try url("myapp://products/7")
        let held = rig.router.open(url: link)
        #expect(held.status == .pending)
        #expect(held.reason?.contains("login required") == true, "\(held.reason ?? "")")
        #expect(rig.log.contains("guard deeplink push"))
        #expect(rig.router.rootStack.path == [route("elsewhere")], "none of the plan applied")
        #expect(rig.router.topRoute == route("login"), "the redirect was performed")
        #expect(rig.router.pendingLink == link)
        rig.router.dismiss()
        try rig.engine.setFact("isLoggedIn", true)
        #expect(rig.router.pendingLink == nil, "a fact change retries the held link")
        #expect(rig.router.activeStack.path == [route("detail", ["id": "7"])])
    }

    @Test("No matching pattern, or a handler returning nothing, is unhandled")
    func unhandled() throws {
        let rig = try RulesRig(Self.rules)
        let none = rig.router.open(url: try url("myapp://unknown/path"))
        #expect(none.status == .unhandled)
        #expect(none.reason?.contains("no deep link pattern matches path '/unknown/path'") == true, "\(none.reason ?? "")")
        let empty = rig.router.open(url: try url("myapp://nothing"))
        #expect(empty.status == .unhandled)
        #expect(empty.reason?.contains("returned no plan") == true, "\(empty.reason ?? "")")
        #expect(rig.router.history.isEmpty)
    }

    @Test("flow.op refuses a resume option with file:line and what to do (only a rule's redirect holds a navigation)")
    func opRefusesResume() throws {
        let rig = try RulesRig("""
            flow.deeplink("/orders", function(p)
              return { flow.op("push", "orders", { resume = true }) }
            end)
            """)
        let result = rig.router.open(url: try url("myapp://orders"))
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains("rules/test.lua:2: flow.op has no 'resume' option") == true, "\(result.reason ?? "")")
        #expect(result.reason?.contains("flow.redirect(kind, route, reason, { resume = true })") == true)
        #expect(rig.router.history.isEmpty)
    }

    @Test("A handler calling an asynchronous host function is unhandled, and the reason says handlers run synchronously")
    func asyncHostInHandler() throws {
        let rig = try RulesRig("""
            flow.deeplink("/orders", function(p)
              if host.isReady() then return { flow.op("push", "orders") } end
            end)
            """)
        rig.engine.registerAsyncHost("isReady") { _ in [.bool(true)] }
        let result = rig.router.open(url: try url("myapp://orders"))
        #expect(result.status == .unhandled)
        let reason = try #require(result.reason)
        #expect(reason.contains("rules/test.lua:2: host.isReady is asynchronous, and deep-link handlers run synchronously: "), "\(reason)")
        #expect(!reason.contains("call it from an async navigation"))
    }

    @Test("A handler returning garbage or failing is unhandled with file:line and what to do", arguments: [
        ("myapp://number", "rules/test.lua:15: a deep-link handler must return a list of flow.op(...) or nothing, got a number"),
        ("myapp://strings", "rules/test.lua:16: a deep-link plan must be a list of flow.op(kind, route) tables, got string"),
        ("myapp://boom", "rules/test.lua:18: handler exploded"),
        ("myapp://badroute", "rules/test.lua:21: bad argument #2 to 'flow.op' (route expected, got number)"),
    ])
    func garbage(link: String, message: String) throws {
        let rig = try RulesRig(Self.rules)
        let result = rig.router.open(url: try url(link))
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains(message) == true, "\(result.reason ?? "")")
        #expect(rig.router.history.isEmpty)
    }

    @Test("The manifest's links policy rejects other schemes and hosts")
    func policy() throws {
        let manifest = FlowManifest(
            routes: ["home": .init(), "detail": .init(params: ["id": "string"])],
            links: .init(schemes: ["myapp", "https"], hosts: ["example.com"]))
        let rig = try RulesRig("""
            flow.deeplink("/products/:id", function(p) return { flow.op("push", { name = "detail", id = p.id }) } end)
            """, configuration: FlowRulesConfiguration(manifest: manifest))
        let scheme = rig.router.open(url: try url("ftp://products/1"))
        #expect(scheme.status == .rejected)
        #expect(scheme.reason?.contains("scheme 'ftp' is not allowed") == true, "\(scheme.reason ?? "")")
        let host = rig.router.open(url: try url("https://evil.com/products/1"))
        #expect(host.status == .rejected)
        #expect(host.reason?.contains("host 'evil.com' is not allowed") == true, "\(host.reason ?? "")")
        #expect(rig.router.open(url: try url("https://example.com/products/1")).status == .applied)
        #expect(rig.router.open(url: try url("myapp://products/2")).status == .applied)
        #expect(rig.router.activeStack.path == [route("detail", ["id": "1"]), route("detail", ["id": "2"])])
    }

    @Test("With a manifest, an unknown route in a plan is unhandled with a suggestion")
    func planRouteChecked() throws {
        let manifest = FlowManifest(routes: ["home": .init(), "detail": .init(params: ["id": "string"])])
        let rig = try RulesRig("""
            flow.deeplink("/d/:id", function(p)
              return { flow.op("push", { name = "detial", id = p.id }) }
            end)
            """, configuration: FlowRulesConfiguration(manifest: manifest))
        let result = rig.router.open(url: try url("myapp://d/1"))
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains("rules/test.lua:2: unknown route 'detial' (did you mean 'detail'?)") == true, "\(result.reason ?? "")")
    }

    @Test("Duplicate and shadowed patterns are load-time warnings with file:line")
    func patternDiagnostics() throws {
        let rig = try RulesRig("""
            flow.deeplink("/items/:id", function(p) return { flow.op("push", "a") } end)
            flow.deeplink("/items/:other", function(p) return { flow.op("push", "b") } end)
            flow.deeplink("/promo/*", function(p) return { flow.op("push", "c") } end)
            flow.deeplink("/promo/summer", function(p) return { flow.op("push", "d") } end)
            flow.deeplink("/fine", function(p) return { flow.op("push", "e") } end)
            """)
        let diagnostics = rig.engine.deepLinkDiagnostics
        #expect(diagnostics.map(\.kind) == [.duplicate, .shadowed])
        #expect(diagnostics.map { $0.location?.line } == [2, 4])
        #expect(diagnostics.allSatisfy { $0.location?.file == "rules/test.lua" })
        let warnings = rig.engine.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.map(\.line) == [2, 4])
        #expect(rig.router.open(url: try url("myapp://items/1")).status == .applied)
        #expect(rig.router.topRoute == route("a"), "the first registered pattern wins")
    }

    @Test("A bad pattern fails the load with file:line")
    func badPattern() throws {
        let error = try #require(loadError("flow.deeplink('/a/*/b', function() end)"))
        #expect(error.file == "rules/bad.lua")
        #expect(error.line == 1)
    }

    @Test("Without deep links, links are unhandled")
    func noLinks() throws {
        let rig = try RulesRig("")
        #expect(!rig.engine.handlesDeepLinks)
        #expect(rig.router.open(url: try url("myapp://products/1")).status == .unhandled)
    }

    @Test("A reload replaces the deep links")
    func reloadReplacesLinks() throws {
        let rig = try RulesRig("flow.deeplink('/a', function() return { flow.op('push', 'one') } end)")
        rig.engine.reload(sources: [FlowRulesSource(name: "rules/two.lua", text: "flow.deeplink('/b', function() return { flow.op('push', 'two') } end)")])
        #expect(rig.router.open(url: try url("myapp://a")).status == .unhandled)
        #expect(rig.router.open(url: try url("myapp://b")).status == .applied)
        #expect(rig.router.topRoute == route("two"))
    }
}
