import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §1 "route" for an app's own route type: the `Codable` default of `FlowRouteConvertible`.
@Suite("Engine: app route types")
@MainActor
struct EngineRouteConversionTests {
    typealias AppRouter = FlowRouter<AppRoute, String>

    @Test("Codable enums become route tables: labelled fields by name, unlabelled ones as _0, _1", arguments: [
        (AppRoute.home, FlowRouteValue("home")),
        (.paywall, FlowRouteValue("paywall")),
        (.detail(id: "42"), FlowRouteValue("detail", ["id": "42"])),
        (.editor(id: 7, draft: true), FlowRouteValue("editor", ["id": 7, "draft": true])),
        (.photo("cat.jpg"), FlowRouteValue("photo", ["_0": "cat.jpg"])),
        (.pair("x", 2), FlowRouteValue("pair", ["_0": "x", "_1": 2])),
    ])
    func bothWays(appRoute: AppRoute, value: FlowRouteValue) throws {
        #expect(appRoute.flowRoute == value)
        #expect(try AppRoute(flowRoute: value) == appRoute)
    }

    @Test("A route the enum cannot represent is a conversion error that names it", arguments: [
        FlowRouteValue("nosuch"),
        FlowRouteValue("detail"),
        FlowRouteValue("detail", ["id": 42]),
        FlowRouteValue("editor", ["id": "seven", "draft": true]),
        FlowRouteValue("photo", ["name": "x"]),
    ])
    func conversionErrors(value: FlowRouteValue) {
        do {
            let converted = try AppRoute(flowRoute: value)
            Issue.record("\(value) converted to \(converted)")
        } catch let error as FlowRouteConversionError {
            #expect(error.description.hasPrefix("AppRoute has no route \(value)"), "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("Two routes are equal when name and payload are deeply equal; a string names a route without payload")
    func routeEquality() throws {
        #expect(FlowRouteValue("a", ["m": ["x": [1, 2]]]) == FlowRouteValue("a", ["m": ["x": [1, 2]]]))
        #expect(FlowRouteValue("a", ["m": ["x": [1, 2]]]) != FlowRouteValue("a", ["m": ["x": [2, 1]]]))
        #expect(FlowRouteValue("a") != FlowRouteValue("b"))
        #expect(try FlowRouteValue(lua: "home") == FlowRouteValue("home"))
        #expect(try FlowRouteValue(lua: ["name": "detail", "id": "4"]) == FlowRouteValue("detail", ["id": "4"]))
        let rig = try RulesRig("""
            flow.guard("back", function()
              return flow.redirect("popTo", { name = "detail", meta = { tags = { "a", "b" } } })
            end)
            """)
        rig.router.push(route("detail", ["meta": ["tags": ["a", "b"]]]))
        rig.router.push(route("other"))
        #expect(rig.push("back").redirect?.isApplied == true)
        #expect(rig.router.topRoute == route("detail", ["meta": ["tags": ["a", "b"]]]))
    }

    func rig(_ text: String) throws -> (FlowRulesEngine<AppRoute>, AppRouter, Shared<[String]>) {
        let engine = try FlowRulesEngine<AppRoute>(sources: [FlowRulesSource(name: "rules/app.lua", text: text)])
        let router = AppRouter(root: .home)
        engine.install(into: router)
        let log = Shared<[String]>([])
        engine.registerHost("log") { arguments in
            log.value.append(arguments.map { $0.map(RulesRig.describe) ?? "nil" }.joined(separator: " "))
            return []
        }
        return (engine, router, log)
    }

    @Test("Rules see an app route's payload and redirect to app routes")
    func rulesWithAppRoutes() throws {
        let (_, router, log) = try rig("""
            flow.guard("detail", function(op)
              host.log("detail", op.route.id)
              return flow.redirect("push", { name = "editor", id = tonumber(op.route.id), draft = false })
            end)
            flow.guard("photo", function(op)
              host.log("photo", op.route._0)
              return flow.redirect("sheet", { name = "pair", _0 = op.route._0, _1 = 2 }, "open as pair")
            end)
            """)
        let result = router.perform(.push(.detail(id: "42"), target: .active))
        #expect(result.status == .redirected)
        #expect(router.topRoute == .editor(id: 42, draft: false))
        #expect(router.sheet(.photo("cat.jpg")) == false)
        #expect(router.topRoute == .pair("cat.jpg", 2))
        #expect(router.activeStack.style == .sheet)
        #expect(log.value == ["detail 42", "photo cat.jpg"])
    }

    @Test("A redirect the app route type cannot represent fails closed with file:line")
    func unrepresentableRedirect() throws {
        let (_, router, _) = try rig("""
            flow.guard("detail", function()
              return flow.redirect("push", { name = "detail", id = 42 })
            end)
            flow.guard("paywall", function() return flow.redirect("push", "nosuch") end)
            """)
        let wrongType = router.perform(.push(.detail(id: "1"), target: .active))
        #expect(wrongType.status == .failed)
        #expect(wrongType.reason?.hasPrefix("rules/app.lua:1: cannot build the app's route from detail{id=42}") == true, "\(wrongType.reason ?? "")")
        let unknown = router.perform(.push(.paywall, target: .active))
        #expect(unknown.status == .failed)
        #expect(unknown.reason?.contains("AppRoute has no route nosuch") == true, "\(unknown.reason ?? "")")
        #expect(unknown.reason?.hasPrefix("rules/app.lua:4: ") == true, "\(unknown.reason ?? "")")
        #expect(router.activeStack.path.isEmpty)
    }

    @Test("Style rules and stacks see app routes as tables")
    func styleAndStacksWithAppRoutes() throws {
        let (engine, router, log) = try rig("""
            flow.style.screen(function(c)
              if c.screenRoute.name == "editor" and c.screenRoute.draft then return { navigationTitle = "Draft " .. c.screenRoute.id } end
            end)
            flow.guard("login", function(op, stacks)
              local top = stacks[1].routes[#stacks[1].routes]
              host.log(top.name, top._0, top._1)
            end)
            """)
        router.push(.editor(id: 3, draft: true))
        #expect(router.resolvedStyle(stackIndex: 0, screenDepth: 1)?.screen.navigationTitle == "Draft 3")
        router.push(.pair("p", 9))
        router.push(.login)
        #expect(log.value == ["pair p 9"])
        #expect(engine.diagnostics.isEmpty)
    }

    @Test("Deep-link plans build app routes")
    func deepLinksWithAppRoutes() throws {
        let (_, router, _) = try rig("""
            flow.deeplink("/edit/:id", function(p)
              return { flow.op("push", { name = "editor", id = math.tointeger(tonumber(p.id)), draft = p.draft == "1" }) }
            end)
            """)
        let result = router.open(url: try #require(URL(string: "myapp://edit/5?draft=1")))
        #expect(result.status == .applied, "\(result.reason ?? "")")
        #expect(router.topRoute == .editor(id: 5, draft: true))
    }
}
