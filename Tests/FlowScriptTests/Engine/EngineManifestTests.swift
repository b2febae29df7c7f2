import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §6 as the rules engine applies it: unknown routes and wrong payload types in rules.
@Suite("Engine: the route manifest in rules")
@MainActor
struct EngineManifestTests {
    static let manifest = FlowManifest(
        routes: [
            "home": .init(), "login": .init(), "paywall": .init(), "editor": .init(),
            "detail": .init(params: ["id": "string", "count": "integer", "ratio": "number"]),
        ],
        facts: ["isPremium": false]
    )
    static let configuration = FlowRulesConfiguration(manifest: manifest)

    @Test("An unknown route in flow.guard fails the load with file:line and a suggestion")
    func unknownGuardRoute() throws {
        let error = try #require(loadError("""
            flow.guard("home", function() end)
            flow.guard("detial", function() end)
            """, configuration: Self.configuration))
        #expect(error.file == "rules/bad.lua")
        #expect(error.line == 2)
        #expect(error.message.contains("unknown route 'detial' (did you mean 'detail'?)"), "\(error)")
    }

    @Test("An unknown route in flow.redirect blocks with file:line and a suggestion")
    func unknownRedirectRoute() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              return flow.redirect("sheet", "loign", "login first")
            end)
            """, root: route("home"), configuration: Self.configuration)
        let result = rig.push("editor")
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix("rules/test.lua:1: "), "a tail call names the rule: \(reason)")
        #expect(reason.contains("unknown route 'loign' (did you mean 'login'?)"), "\(reason)")
        #expect(rig.router.stacks.count == 1)
    }

    @Test("Without a tail call the error names the line of the flow.redirect call")
    func unknownRedirectRouteExactLine() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              local target = flow.redirect("sheet", { name = "paywal" })
              return target
            end)
            """, root: route("home"), configuration: Self.configuration)
        let reason = try #require(rig.push("editor").reason)
        #expect(reason.hasPrefix("rules/test.lua:2: unknown route 'paywal' (did you mean 'paywall'?)"), "\(reason)")
    }

    @Test("A payload field of the wrong type, or an undeclared one, is an error", arguments: [
        ("{ name = 'detail', id = 42 }", "field 'id' must be a string, got integer 42"),
        ("{ name = 'detail', id = '1', count = 1.5 }", "field 'count' must be a integer"),
        ("{ name = 'detail', idd = '1' }", "has no payload field 'idd' (did you mean 'id'?)"),
    ])
    func wrongPayload(routeSource: String, message: String) throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              local target = flow.redirect("push", \(routeSource))
              return target
            end)
            """, configuration: Self.configuration)
        let result = rig.push("editor")
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
        #expect(reason.contains(message), "\(reason)")
    }

    @Test("A payload that fits the declaration redirects")
    func fittingPayload() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              return flow.redirect("push", { name = "detail", id = "7", count = 2, ratio = 2 })
            end)
            """, configuration: Self.configuration)
        let result = rig.push("editor")
        #expect(result.redirect?.isApplied == true)
        #expect(rig.router.topRoute == route("detail", ["id": "7", "count": 2, "ratio": 2]))
    }

    @Test("An unknown kind in flow.precondition fails the load with a suggestion")
    func unknownPreconditionKind() throws {
        let error = try #require(loadError("flow.precondition('psuh', function() end)"))
        #expect(error.file == "rules/bad.lua")
        #expect(error.line == 1)
        #expect(error.message.contains("unknown operation kind 'psuh' (did you mean 'push'?)"), "\(error)")
    }

    @Test("Without a manifest any route name is accepted")
    func noManifest() throws {
        let rig = try RulesRig("flow.guard('anything', function() return flow.redirect('push', 'whatever') end)")
        #expect(rig.push("anything").redirect?.isApplied == true)
    }
}
