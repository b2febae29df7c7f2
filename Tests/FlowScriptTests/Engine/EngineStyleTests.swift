import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §4: style rules, their context, merging over the Swift defaults, warnings.
@Suite("Engine: style rules")
@MainActor
struct EngineStyleTests {
    static let contextLogger = """
        local function describe(hook, c)
          host.log(hook, c.stackIndex, c.presentation, tostring(c.isRootStack), c.rootRoute.name,
            c.screenRoute.name, c.screenDepth, tostring(c.isRootScreen), type(c.stackID))
        end
        flow.style.screen(function(c) describe("screen", c) end)
        flow.style.stack(function(c) describe("stack", c) end)
        flow.style.modal(function(c) describe("modal", c) end)
        """

    @Test("The context of screen, stack and modal rules: 1-based stack index, depth 0 at the root")
    func contexts() throws {
        let rig = try RulesRig(Self.contextLogger)
        rig.router.push(route("list"))
        rig.router.sheet(route("picker", ["mode": "photo"]))
        rig.router.push(route("crop"))
        rig.clearLog()
        let root = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 1))
        #expect(root.modal == nil)
        #expect(rig.log == [
            "screen 1 root true home list 1 false string",
            "stack 1 root true home home 0 true string",
        ])
        rig.clearLog()
        _ = try #require(rig.router.resolvedStyle(stackIndex: 1, screenDepth: 1))
        #expect(rig.log == [
            "screen 2 sheet false picker crop 1 false string",
            "stack 2 sheet false picker picker 0 true string",
            "modal 2 sheet false picker picker 0 true string",
        ])
        rig.clearLog()
        #expect(rig.router.resolvedStyle(stackIndex: 1, screenDepth: 2) == nil)
        #expect(rig.router.resolvedStyle(stackIndex: 2, screenDepth: 0) == nil)
        #expect(rig.log.isEmpty)
    }

    @Test("stackID and screen payloads reach the rules")
    func contextValues() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c)
              host.log(c.stackID, c.screenRoute.id, c.rootRoute.name)
            end)
            """)
        rig.router.fullScreenCover(route("cover"))
        rig.router.push(route("detail", ["id": "42"]))
        _ = rig.router.resolvedStyle(stackIndex: 1, screenDepth: 1)
        #expect(rig.log == ["\(rig.router.stacks[1].id.uuidString) 42 cover"])
    }

    @Test("Swift defaults: navigation bar hidden, text leading; Lua results override them")
    func defaultsAndOverride() throws {
        let plain = try RulesRig("")
        let defaults = try #require(plain.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(defaults.screen == FlowStyleAttributes(navigationBarHidden: true, multilineTextAlignment: .leading))
        #expect(defaults.stack.isEmpty)

        let rig = try RulesRig("""
            flow.style.screen(function(c)
              if c.screenRoute.name == "detail" then return { navigationBarHidden = false, navigationTitle = "Detail" } end
            end)
            """)
        rig.router.push(route("detail"))
        let home = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(home.screen == FlowStyleAttributes.flowStackScreenDefaults)
        let detail = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 1))
        #expect(detail.screen.navigationBarHidden == false)
        #expect(detail.screen.multilineTextAlignment == .leading)
        #expect(detail.screen.navigationTitle == "Detail")
    }

    @Test("Rules of one hook run in order; later keys override earlier ones; Swift rules come first")
    func mergingOrder() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c) host.log("lua 1"); return { tint = "red", background = "#FFFFFF", navigationTitle = "one" } end)
            flow.style.screen(function(c) host.log("lua 2") end)
            flow.style.screen(function(c) host.log("lua 3"); return { tint = "#00FF0080", multilineTextAlignment = "center" } end)
            """)
        rig.router.addStyleRule(.screen) { _ in
            FlowStyleAttributes(tint: .named(.blue), navigationBarBackButtonHidden: true, navigationTitle: "swift")
        }
        let style = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(rig.log == ["lua 1", "lua 2", "lua 3"])
        #expect(style.screen.tint == .rgba(red: 0, green: 255, blue: 0, alpha: 128))
        #expect(style.screen.background == .rgba(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(style.screen.navigationTitle == "one")
        #expect(style.screen.multilineTextAlignment == .center)
        #expect(style.screen.navigationBarBackButtonHidden == true)
        #expect(style.screen.navigationBarHidden == true)
    }

    @Test("Every attribute of the table parses from Lua")
    func everyAttribute() throws {
        let rig = try RulesRig("""
            flow.style.modal(function(c)
              return {
                presentationDetents = { "medium", "large", 0.25, { height = 320 } },
                presentationDragIndicator = "visible",
                interactiveDismissDisabled = true,
                preferredColorScheme = "dark",
                tint = "accent",
                background = "clear",
              }
            end)
            flow.style.stack(function(c) return { navigationBarHidden = false, tint = "#102030" } end)
            """)
        rig.router.sheet(route("picker"))
        let style = try #require(rig.router.resolvedStyle(stackIndex: 1, screenDepth: 0))
        let modal = try #require(style.modal)
        #expect(modal.presentationDetents == [.medium, .large, .fraction(0.25), .height(320)])
        #expect(modal.presentationDragIndicator == .visible)
        #expect(modal.interactiveDismissDisabled == true)
        #expect(modal.preferredColorScheme == .dark)
        #expect(modal.tint == .named(.accent))
        #expect(modal.background == .named(.clear))
        #expect(style.stack.navigationBarHidden == false)
        #expect(style.stack.tint == .rgba(red: 0x10, green: 0x20, blue: 0x30, alpha: 255))
        #expect(rig.engine.diagnostics.isEmpty, "\(rig.engine.diagnostics)")
    }

    @Test("Modal rules do not apply on the root stack")
    func modalNilOnRoot() throws {
        let rig = try RulesRig("flow.style.modal(function(c) host.log('modal', c.stackIndex); return { tint = 'red' } end)")
        #expect(try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0)).modal == nil)
        #expect(rig.log.isEmpty)
        rig.router.fullScreenCover(route("cover"))
        #expect(try #require(rig.router.resolvedStyle(stackIndex: 1, screenDepth: 0)).modal?.tint == .named(.red))
        #expect(rig.log == ["modal 2"])
    }

    @Test("Unknown keys and bad values are warnings in diagnostics; the good keys still apply")
    func warnings() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c)
              return {
                navigationBarHiden = true,
                tint = "octarine",
                multilineTextAlignment = "justified",
                presentationDetents = { 2 },
                navigationTitle = 42,
                background = print,
                preferredColorScheme = "dark",
              }
            end)
            """)
        let style = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.preferredColorScheme == .dark)
        #expect(style.screen.tint == nil)
        #expect(style.screen.multilineTextAlignment == .leading, "the bad value leaves the default")
        #expect(style.screen.navigationBarHidden == true)
        let messages = rig.engine.diagnostics.map(\.message)
        #expect(rig.engine.diagnostics.allSatisfy { $0.severity == .warning })
        for key in ["navigationBarHiden", "tint", "multilineTextAlignment", "presentationDetents", "navigationTitle", "background"] {
            #expect(messages.contains { $0.contains(key) }, "no warning for \(key): \(messages)")
        }
        #expect(messages.contains { $0.contains("navigationBarHidden") }, "a suggestion for the misspelt key: \(messages)")
        let count = rig.engine.diagnostics.count
        _ = rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0)
        #expect(rig.engine.diagnostics.count == count, "the same warning is reported once")
    }

    @Test("A bad value is ignored: an earlier rule's value for the key stays")
    func badLaterValueKeepsEarlier() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c) return { tint = "red", navigationTitle = "first" } end)

            flow.style.screen(function(c) return { tint = "octarine", navigationTitle = "second" } end)
            """)
        let style = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.tint == .named(.red))
        #expect(style.screen.navigationTitle == "second")
        let warning = try #require(rig.engine.diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.description.hasPrefix("warning: screen style attribute tint ignored"), "\(warning)")
        #expect(rig.engine.diagnostics.count == 1)
    }

    @Test("A style rule that errors is a diagnostic with file:line; the rules that did not fail still apply")
    func failingStyleRule() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c) return { navigationTitle = "kept?" } end)
            flow.style.screen(function(c)
              return { tint = c.missing.field }
            end)
            flow.style.stack(function(c) return 42 end)
            """)
        let style = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.navigationTitle == "kept?")
        #expect(style.stack.isEmpty)
        let errors = rig.engine.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 2, "\(rig.engine.diagnostics)")
        #expect(errors.first?.file == "rules/test.lua")
        #expect(errors.first?.line == 3)
        #expect(errors.first?.message.contains("style rule failed") == true)
        #expect(errors.last?.line == 5)
        #expect(errors.last?.message.contains("must return a table of attributes or nil") == true, "\(errors)")
    }

    @Test("A style rule calling an asynchronous host function is left out, and the error says style rules run synchronously")
    func asyncHostInStyleRule() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c) return { navigationTitle = "kept" } end)
            flow.style.screen(function(c) if host.darkMode() then return { tint = "red" } end end)
            """)
        rig.engine.registerAsyncHost("darkMode") { _ in [.bool(true)] }
        let style = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.navigationTitle == "kept")
        let error = try #require(rig.engine.diagnostics.first { $0.severity == .error }, "\(rig.engine.diagnostics)")
        #expect(error.file == "rules/test.lua")
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("style rule failed: host.darkMode is asynchronous, and style rules run synchronously: "), "\(error)")
        #expect(!error.message.contains("call it from an async navigation"))
    }

    @Test("A runaway style rule is stopped by the budget and reported")
    func runawayStyleRule() throws {
        let rig = try RulesRig("flow.style.screen(function(c) while true do end end)")
        let style = try #require(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen == FlowStyleAttributes.flowStackScreenDefaults)
        #expect(rig.engine.diagnostics.last?.message.contains("instruction budget") == true)
        #expect(rig.push("next").isApplied, "the VM is still usable")
    }

    @Test("Style rules read facts")
    func styleReadsFacts() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c) if facts.darkMode then return { preferredColorScheme = "dark" } end end)
            """)
        #expect(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0)?.screen.preferredColorScheme == nil)
        try rig.engine.setFact("darkMode", true)
        #expect(rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0)?.screen.preferredColorScheme == .dark)
    }
}
