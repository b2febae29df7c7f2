// The FlowScript DocC article "Writing Rules", its Lua and Swift snippets as an app writes them
// with `import FlowStack`: they must compile and load unchanged and decide as the article says.
// Only what the article leaves to the app (`enabledFlags`, `requestPhotoAccess`, the routes) is
// filled in here.
import FlowStack
import Foundation
import Testing

private enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    case splash, home, paywall, promo, settings, photoPicker
    case detail(id: String)
    case editor(id: String)
}

/// The feature flags the app enables (the article leaves them to the app).
@MainActor private var enabledFlags: Set<String> = ["newEditor"]
/// The app's photo-permission prompt (the article leaves it to the app).
@MainActor private func requestPhotoAccess() async -> Bool { true }

/// The article's first snippet, `rules/20-paywall.lua`.
private let paywallRules = """
    -- rules/20-paywall.lua
    flow.guard("editor", function(op, stacks, ctx)
      if not facts.isPremium then
        return flow.redirect("fullScreenCover", "paywall", "premium required")
      end
    end)

    flow.precondition("push", function(op, stacks, ctx)
      return facts.isLoggedIn, "login required"
    end)
    """

/// The article's style rules.
private let styleRules = """
    flow.style.screen(function(c)
      if c.screenRoute.name == "home" then return { background = "#F2F2F7" } end
    end)
    flow.style.modal(function(c)
      if c.presentation == "sheet" then return { presentationDetents = { "medium", "large" } } end
    end)
    """

/// The article's deep links.
private let linkRules = """
    flow.deeplink("/products/:id", function(p, url)
      return { flow.op("popToRoot"), flow.op("push", { name = "detail", id = p.id }) }
    end)
    flow.deeplink("/promo/*", function(p) return { flow.op("sheet", "promo") } end)
    """

/// The article's manifest.
private let articleManifest = """
    return {
      root = "splash",
      routes = { splash = {}, home = {}, paywall = {}, detail = { params = { id = "string" } } },
      dialogs = { "networkError", "sessionExpired" },
      facts = { isLoggedIn = false, isPremium = false },   -- names and default values
      links = { schemes = { "myapp", "https" }, hosts = { "example.com" } },
    }
    """

@MainActor
private func makeEngine(_ text: String, configuration: FlowRulesConfiguration = FlowRulesConfiguration()) throws -> FlowRulesEngine<AppRoute> {
    try FlowRulesEngine<AppRoute>(sources: [FlowRulesSource(name: "rules/test.lua", text: text)], configuration: configuration)
}

@Suite("DocC: Writing Rules")
@MainActor
struct DocCWritingRulesTests {
    @Test("the paywall rules: an unset fact blocks, a free user's editor goes to the paywall")
    func paywall() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try makeEngine(paywallRules)
        engine.install(into: router)
        // "Because only true allows, return facts.isLoggedIn blocks while the fact is unset."
        #expect(!router.push(.settings))
        #expect(router.history.last?.reason == "login required")

        try engine.setFacts(["isLoggedIn": true, "isPremium": false])
        #expect(router.push(.settings))
        #expect(!router.push(.editor(id: "1")))
        #expect(router.topRoute == .paywall)
        #expect(router.operationHistory.suffix(2).first?.status == .redirected)

        router.dismiss()
        try engine.setFact("isPremium", true)          // nil removes a fact
        #expect(router.push(.editor(id: "1")))
        try engine.setFact("isPremium", nil)
        #expect(engine.currentFacts["isPremium"] == nil)
        #expect(!router.push(.editor(id: "2")))

        // A one-off condition from Swift replaces the Lua preconditions for that call.
        try engine.setFact("isLoggedIn", false)
        let applied = router.push(.settings, condition: { _, _ in true })
        #expect(applied)
    }

    @Test("the order: the Swift default precondition, then guardOperation, then the rules (Lua preconditions, then route guards)")
    func order() throws {
        let rules = """
            flow.precondition("push", function() return facts.allowPush, "lua precondition" end)
            flow.guard("settings", function() return false, "lua guard" end)
            """
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try makeEngine(rules)
        engine.install(into: router)
        var asked: [String] = []
        router.setDefaultPrecondition(for: .push) { _, _ in asked.append("swift precondition"); return true }
        router.guardOperation = { _ in asked.append("guardOperation"); return false }
        #expect(!router.push(.settings))
        #expect(asked == ["swift precondition", "guardOperation"])
        #expect(router.history.last?.status == .blockedByGuard)
        #expect(router.history.last?.reason == "guardOperation returned false")

        router.guardOperation = nil
        #expect(!router.push(.settings))
        #expect(router.history.last?.status == .blockedByPrecondition)
        #expect(router.history.last?.reason == "lua precondition")
        try engine.setFact("allowPush", true)
        #expect(!router.push(.settings))
        #expect(router.history.last?.status == .blockedByGuard)
        #expect(router.history.last?.reason == "lua guard")
    }

    @Test("what a rule returns: nothing or true allows, false or nil blocks with a reason, anything else fails closed with file:line")
    func returns() throws {
        let rules = """
            flow.guard("home", function() end)
            flow.guard("settings", function() return true end)
            flow.guard("promo", function() return nil, "no promo" end)
            flow.guard("detail", function() return 42 end)
            flow.guard("photoPicker", function() error("boom") end)
            """
        let router = FlowRouter<AppRoute, String>(root: .splash)
        let engine = try makeEngine(rules)
        engine.install(into: router)
        #expect(router.push(.home))
        #expect(router.push(.settings))
        #expect(!router.push(.promo))
        #expect(router.history.last?.reason == "no promo")
        #expect(!router.push(.detail(id: "1")))
        #expect(router.history.last?.status == .failed)
        #expect(!router.push(.photoPicker))
        #expect(router.history.last?.reason?.hasPrefix("rules/test.lua:5: ") == true, "\(router.history.last?.reason ?? "")")

        // failOpen lets the operation through; the failure is still recorded.
        let open = FlowRouter<AppRoute, String>(root: .splash)
        let lenient = try makeEngine(rules, configuration: FlowRulesConfiguration(failurePolicy: .failOpen))
        lenient.install(into: open)
        #expect(open.push(.photoPicker))
    }

    @Test("a chain of more than 8 redirects is a redirect loop, with the chain")
    func redirectLoop() throws {
        let rules = """
            flow.guard("home", function() return flow.redirect("push", "settings", "to settings") end)
            flow.guard("settings", function() return flow.redirect("push", "home", "to home") end)
            """
        let router = FlowRouter<AppRoute, String>(root: .splash)
        let engine = try makeEngine(rules)
        engine.install(into: router)
        #expect(!router.push(.home))
        #expect(router.activeStack.path.isEmpty)
        #expect(router.history.last?.reason?.contains("redirect loop") == true, "\(router.history.last?.reason ?? "")")
    }

    @Test("what a rule sees: op, stacks and ctx, read-only")
    func whatARuleSees() throws {
        let rules = """
            flow.guard("detail", function(op, stacks, ctx)
              if op.kind ~= "push" or op.route.name ~= "detail" or op.route.id ~= "42" then return false, "op" end
              if op.source ~= "code" or op.async ~= false or op.target ~= 2 then return false, "op fields" end
              if #stacks ~= 2 or stacks[1].presentation ~= "root" or stacks[2].presentation ~= "sheet" then return false, "stacks" end
              if stacks[1].index ~= 1 or stacks[1].routes[1].name ~= "home" or type(stacks[2].id) ~= "string" then return false, "stack fields" end
              if ctx.dialog ~= "networkError" or ctx.queuedDialogs ~= 1 or type(ctx.generation) ~= "number" then return false, "ctx" end
              local ok = pcall(function() op.kind = "pop" end)
              if ok then return false, "op is writable" end
              return true
            end)
            """
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try makeEngine(rules)
        engine.install(into: router)
        router.sheet(.settings)
        router.showGlobalDialog("networkError")
        router.showGlobalDialog("sessionExpired", policy: .queue)
        #expect(router.push(.detail(id: "42")), "\(router.history.last?.reason ?? "")")
    }

    @Test("host functions: the article's registerHost and registerAsyncHost; an async one fails a sync navigation")
    func hostFunctions() async throws {
        let rules = """
            flow.guard("editor", function() return host.isEnabled("newEditor") end)
            flow.guard("settings", function() return host.isEnabled(42) end)
            flow.guard("photoPicker", function() return host.requestPhotoAccess() end)
            """
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try makeEngine(rules)
        engine.registerHost("isEnabled") { arguments in
            guard case .string(let flag)?? = arguments.first else { throw FlowHostError("isEnabled needs a flag name") }
            return [.bool(enabledFlags.contains(flag))]
        }
        engine.registerAsyncHost("requestPhotoAccess") { _ in
            [.bool(await requestPhotoAccess())]
        }
        engine.install(into: router)
        #expect(router.push(.editor(id: "1")))
        #expect(!router.push(.settings))
        #expect(router.history.last?.reason?.contains("isEnabled needs a flag name") == true, "\(router.history.last?.reason ?? "")")
        #expect(!router.push(.photoPicker))
        #expect(router.history.last?.reason?.contains("Async") == true, "\(router.history.last?.reason ?? "")")
        #expect(await router.pushAsync(.photoPicker))
    }

    @Test("print goes to onPrint")
    func printGoesToOnPrint() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try makeEngine(#"flow.guard("settings", function() print("hello", 1) end)"#)
        var printed: [String] = []
        engine.onPrint = { printed.append($0) }
        engine.install(into: router)
        router.push(.settings)
        #expect(printed.count == 1)
        #expect(printed.first?.contains("hello") == true)
    }

    @Test("the manifest: undeclared names are errors with did you mean; facts start from the defaults")
    func manifest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writing-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("routes.lua")
        try articleManifest.write(to: file, atomically: true, encoding: .utf8)
        let manifest = try FlowManifest.load(contentsOf: file, displayName: "routes.lua")
        let configuration = FlowRulesConfiguration(manifest: manifest)

        let engine = try makeEngine(paywallRules.replacingOccurrences(of: #""editor""#, with: #""detail""#), configuration: configuration)
        #expect(engine.currentFacts["isLoggedIn"] == .bool(false))
        #expect(engine.currentFacts["isPremium"] == .bool(false))

        do {
            _ = try makeEngine(#"flow.guard("paywal", function() end)"#, configuration: configuration)
            Issue.record("an undeclared route must not load")
        } catch {
            #expect("\(error)".contains("did you mean"), "\(error)")
            #expect("\(error)".contains("rules/test.lua:1"), "\(error)")
        }
        do {
            try engine.setFact("isPremum", true)
            Issue.record("an undeclared fact must be refused")
        } catch {
            #expect("\(error)".contains("did you mean"), "\(error)")
        }
    }

    @Test("style rules: merged over the defaults, what the app and a flow see")
    func styles() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try makeEngine(styleRules)
        engine.install(into: router)
        router.sheet(.settings, options: FlowPresentationOptions(allowsInteractiveDismiss: false))
        let home = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(home.screen.background == .rgba(red: 0xF2, green: 0xF2, blue: 0xF7, alpha: 0xFF))
        #expect(home.screen.navigationBarHidden == true)
        #expect(home.screen.multilineTextAlignment == .leading)
        let sheet = try #require(router.resolvedStyle(stackIndex: 1, screenDepth: 0))
        #expect(sheet.modal?.presentationDetents == [.medium, .large])
        #expect(sheet.modal?.interactiveDismissDisabled == true)
        #expect(sheet.screen.background == nil)
    }

    @Test("unknown style keys and bad values are warnings and are ignored")
    func styleWarnings() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try makeEngine(#"flow.style.screen(function(c) return { colour = "red", tint = 3, navigationTitle = "Home" } end)"#)
        engine.install(into: router)
        let home = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(home.screen.navigationTitle == "Home")
        #expect(home.screen.tint == nil)
        #expect(engine.diagnostics.count >= 2, "\(engine.diagnostics)")
    }

    @Test("the article's deep links: parameters and the wildcard; the manifest's links limit schemes and hosts")
    func deepLinks() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        let manifest = try FlowManifest.parse(source: """
            return {
              root = "home",
              routes = { home = {}, promo = {}, settings = {}, detail = { params = { id = "string" } } },
              links = { schemes = { "myapp", "https" }, hosts = { "example.com" } },
            }
            """)
        let engine = try makeEngine(linkRules, configuration: FlowRulesConfiguration(manifest: manifest))
        engine.install(into: router)
        router.push(.settings)
        #expect(router.open(url: URL(string: "myapp://products/42")!).status == .applied)
        #expect(router.activeStack.path == [.detail(id: "42")])
        #expect(router.open(url: URL(string: "https://example.com/promo/spring")!).status == .applied)
        #expect(router.topRoute == .promo)
        #expect(router.open(url: URL(string: "https://example.org/promo/spring")!).status == .rejected)
        #expect(router.open(url: URL(string: "ftp://example.com/promo/spring")!).status == .rejected)
    }

    @Test("the sandbox: no io, require or debug; undeclared globals are errors naming them; a failed reload changes nothing")
    func sandbox() throws {
        let rules = """
            flow.guard("home", function()
              return rawget(_G, "io") == nil and rawget(_G, "require") == nil and rawget(_G, "debug") == nil
                and rawget(_G, "package") == nil and os.execute == nil and string.dump == nil
            end)
            flow.guard("promo", function() return io ~= nil end)
            flow.guard("settings", function() return undeclaredThing end)
            """
        let router = FlowRouter<AppRoute, String>(root: .splash)
        let engine = try makeEngine(rules)
        engine.install(into: router)
        #expect(router.push(.home), "\(router.history.last?.reason ?? "")")
        #expect(!router.push(.promo))
        #expect(router.history.last?.reason == "rules/test.lua:5: undeclared global 'io'", "\(router.history.last?.reason ?? "")")
        #expect(!router.push(.settings))
        #expect(router.history.last?.reason?.contains("undeclaredThing") == true, "\(router.history.last?.reason ?? "")")

        let generation = engine.generation
        let result = engine.reload(sources: [FlowRulesSource(name: "rules/broken.lua", text: "flow.guard(")])
        guard case .failed(let error, let kept) = result else {
            Issue.record("a broken reload must fail")
            return
        }
        #expect(kept == generation)
        #expect("\(error)".contains("rules/broken.lua:1"), "\(error)")
        #expect(router.push(.home))
    }

    @Test("read-only and locked: facts, flow and undeclared globals cannot be written; long reasons are cut to 4 KiB")
    func lockedAndCut() throws {
        let rules = """
            flow.guard("home", function() facts.isPremium = true end)
            flow.guard("settings", function() flow.guard = nil end)
            flow.guard("promo", function() newGlobal = 1 end)
            flow.guard("paywall", function() return false, string.rep("x", 10000) end)
            """
        let router = FlowRouter<AppRoute, String>(root: .splash)
        let engine = try makeEngine(rules)
        engine.install(into: router)
        for route in [AppRoute.home, .settings, .promo] {
            #expect(!router.push(route))
            #expect(router.history.last?.status == .failed, "\(route): \(router.history.last?.reason ?? "")")
        }
        #expect(router.history.last?.reason?.contains("newGlobal") == true, "\(router.history.last?.reason ?? "")")
        #expect(!router.push(.paywall))
        let reason = try #require(router.history.last?.reason)
        #expect(reason.utf8.count < 4_200 && reason.hasPrefix("xxxx") && reason.contains("4096"), "\(reason.suffix(80))")
    }

    @Test("deep links: the wildcard's capture is p[\"*\"]; a duplicate pattern is a load-time warning")
    func linkWildcardAndDuplicates() throws {
        let rules = """
            flow.deeplink("/promo/*", function(p)
              if p["*"] == "spring/sale" then return { flow.op("sheet", "promo") } end
            end)
            flow.deeplink("/promo/*", function(p) return { flow.op("push", "settings") } end)
            """
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try makeEngine(rules)
        engine.install(into: router)
        #expect(engine.diagnostics.contains { $0.severity == .warning && $0.line == 4 }, "\(engine.diagnostics)")
        #expect(router.open(url: URL(string: "myapp://promo/spring/sale")!).status == .applied)
        #expect(router.topRoute == .promo)
        #expect(router.open(url: URL(string: "myapp://promo/winter")!).status == .unhandled)
    }

    @Test("the manifest: a payload field of the wrong type and an undeclared dialog are errors where they appear")
    func manifestTypes() throws {
        let manifest = try FlowManifest.parse(source: articleManifest)
        let rules = """
            flow.guard("home", function() return flow.redirect("push", { name = "detail", id = 42 }) end)
            flow.guard("paywall", function() return flow.redirect("dialog", "netwrkError") end)
            """
        let router = FlowRouter<AppRoute, String>(root: .splash)
        let engine = try makeEngine(rules, configuration: FlowRulesConfiguration(manifest: manifest))
        try engine.setFacts(["isLoggedIn": true])
        engine.install(into: router)
        #expect(!router.push(.home))
        #expect(router.history.last?.reason?.hasPrefix("rules/test.lua:1: ") == true, "\(router.history.last?.reason ?? "")")
        #expect(router.history.last?.reason?.contains("id") == true)
        #expect(!router.push(.paywall))
        #expect(router.operationHistory.last?.reason?.contains("did you mean 'networkError'") == true, "\(router.operationHistory.last?.reason ?? "")")
    }

    @Test("style rules of one hook run in order, later keys win, and override the Swift defaults")
    func styleOrder() throws {
        let rules = """
            flow.style.screen(function(c) return { navigationBarHidden = false, navigationTitle = "first" } end)
            flow.style.screen(function(c) return { navigationTitle = "second", multilineTextAlignment = "center" } end)
            """
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try makeEngine(rules)
        engine.install(into: router)
        let style = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.navigationBarHidden == false)
        #expect(style.screen.navigationTitle == "second")
        #expect(style.screen.multilineTextAlignment == .center)
    }

    @Test("the instruction budget stops a runaway rule, and pcall cannot swallow it")
    func budget() throws {
        let rules = """
            flow.guard("home", function() pcall(function() while true do end end) return true end)
            """
        let router = FlowRouter<AppRoute, String>(root: .splash)
        let engine = try makeEngine(rules, configuration: FlowRulesConfiguration(instructionBudget: 100_000))
        #expect(FlowRulesConfiguration().instructionBudget == 1_000_000)
        #expect(FlowRulesConfiguration().memoryBudget == 32 << 20)
        engine.install(into: router)
        #expect(!router.push(.home))
        #expect(router.history.last?.status == .failed)
    }
}
