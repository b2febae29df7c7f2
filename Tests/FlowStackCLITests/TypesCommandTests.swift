import Foundation
import Testing

@Suite("flowstack types")
struct TypesCommandTests {
    @Test("prints LuaLS annotations: every line is an annotation, a comment or a declaration")
    func structure() throws {
        let output = try CLIRunner.run(["types", "Scripts"])
        #expect(output.status == 0)
        let lines = output.lines
        #expect(lines.first == "---@meta flowstack")
        let tags: Set<String> = ["meta", "alias", "class", "field", "param", "return", "type"]
        var classes: [String] = []
        var declared: [String] = []
        for line in lines {
            if line.isEmpty { continue }
            if let match = line.wholeMatch(of: /---@(\w+)(.*)/) {
                #expect(tags.contains(String(match.output.1)), "unknown annotation: \(line)")
                if match.output.1 == "class", let name = match.output.2.firstMatch(of: /^ ([\w.]+)/) {
                    classes.append(String(name.output.1))
                }
                continue
            }
            if line.hasPrefix("--") { continue }
            if let function = line.wholeMatch(of: /function ([\w.]+)\(([\w, ]*)\) end/) {
                declared.append(String(function.output.1))
                continue
            }
            if let global = line.wholeMatch(of: /([\w.]+) = (\{\}|\d+)/) {
                declared.append(String(global.output.1))
                continue
            }
            Issue.record("not a LuaLS annotation line: \(line)")
        }
        for name in ["Route", "Op", "Stack", "Result", "StyleContext", "StyleAttributes", "Facts", "Host", "Expectation"] {
            #expect(classes.contains(name), "class \(name)")
        }
        for name in ["flow", "router", "app", "facts", "host", "flow.guard", "flow.precondition", "flow.redirect",
                     "router.push", "router.pushAsync", "router.open", "router.style", "app.reset", "app.host",
                     "expect", "describe", "it", "before_each", "after_each"] {
            #expect(declared.contains(name), "declaration of \(name)")
        }
    }

    @Test("route names, payloads, facts and host functions come from the project")
    func projectNames() throws {
        let output = try CLIRunner.run(["types", "Scripts"])
        let lines = output.lines
        let alias = try #require(lines.first { $0.hasPrefix("---@alias RouteName ") })
        for route in ["splash", "home", "detail", "editor", "paywall", "photoPicker", "promo"] {
            #expect(alias.contains("\"\(route)\""))
        }
        #expect(lines.contains("---@class Route.detail: Route"))
        #expect(lines.contains("---@field id string"))
        #expect(lines.contains("---@field isLoggedIn boolean"))
        #expect(lines.contains("---@field maxPushDepth integer"))
        #expect(lines.contains("---@field requestPhotoAccess fun(...): any"))
        #expect(lines.contains { $0.hasPrefix("---@alias DialogId ") && $0.contains("\"sessionExpired\"") })
    }
}
