import FlowStackTestSupport
import Foundation
import Testing

@Suite("flowstack types")
struct TypesCommandTests {
    @Test("prints LuaLS annotations: every line is an annotation, a comment or a declaration")
    func structure() async throws {
        let output = try await CLIRunner.run(["types", "Scripts"])
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
        // The Async twin of every navigation, and app.scriptErrors.
        let navigations = ["setRoot", "push", "pushMany", "pushRemovingPrevious", "replaceCurrent", "replacePath", "pop",
                           "popToRoot", "popTo", "sheet", "fullScreenCover", "dismiss", "dismissAll", "showDialog"]
        for name in navigations.flatMap({ ["router." + $0, "router." + $0 + "Async"] }) + ["app.scriptErrors"] {
            #expect(declared.contains(name), "declaration of \(name)")
        }
    }

    @Test("route names, payloads, facts and host functions come from the project")
    func projectNames() async throws {
        let output = try await CLIRunner.run(["types", "Scripts"])
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

@Suite("flowstack types --luacheck / --luarc")
struct LinterConfigTests {
    @Test("--luacheck writes the .luacheckrc the example ships, and luacheck passes with it")
    func luacheck() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            "flows/f.lua": "describe(\"x\", function()\n  before_all(function() end)\n  it(\"y\", function() expect(router.top()).never.to_be_nil() end)\nend)\n",
            "explore/shop.lua": "invariant(\"detail needs a login\", function(s)\n  return s.top.name ~= \"detail\" or s.facts.isLoggedIn\nend)\n",
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["types", project.path, "--luacheck"])
        #expect(output.status == 0)
        #expect(output.stdout.isEmpty, "no annotations printed with --luacheck alone")
        let written = try String(contentsOf: project.url.appendingPathComponent(".luacheckrc"), encoding: .utf8)
        #expect(written.contains(#"files["**/flows/**/*.lua"]"#))
        #expect(written.contains(#"std = "+busted""#))
        #expect(written.contains(#"files["**/explore/**/*.lua"]"#))
        #expect(written.contains(#"read_globals = { "invariant" }"#))
        let shipped = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Scripts/.luacheckrc"), encoding: .utf8)
        let regenerated = try await CLIRunner.run(["types", "Scripts", "--luacheck"])
        #expect(regenerated.status == 0)
        let after = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Scripts/.luacheckrc"), encoding: .utf8)
        #expect(shipped == after, "Scripts/.luacheckrc is what `flowstack types Scripts --luacheck` writes")

        #expect(written.contains(#"exclude_files = { "**/flowstack-types.lua" }"#))

        let luacheck = URL(fileURLWithPath: "/usr/bin/luacheck")
        guard FileManager.default.isExecutableFile(atPath: luacheck.path) else { return }
        // The generated annotations declare globals on purpose: the .luacheckrc leaves them out.
        #expect(try await CLIRunner.run(["types", project.path, "--output", project.url.appendingPathComponent("flowstack-types.lua").path]).status == 0)
        let parent = project.url.deletingLastPathComponent()
        let name = project.url.lastPathComponent
        // The commands the docs give: `luacheck .` in the project, `--config` from the directory holding it.
        for (directory, arguments) in [
            (CLIRunner.packageRoot.appendingPathComponent("Scripts"), ["--no-color", "."]),
            (CLIRunner.packageRoot, ["--no-color", "Scripts", "--config", "Scripts/.luacheckrc"]),
            (project.url, ["--no-color", "."]),
            (parent, ["--no-color", name, "--config", "\(name)/.luacheckrc"]),
        ] {
            let checked = try await CLIRunner.run(luacheck, arguments, in: directory)
            #expect(checked.status == 0, "\(checked.stdout)")
            #expect(checked.stdout.contains("Total: 0 warnings / 0 errors"), "\(checked.stdout)")
        }
    }

    @Test("--luarc writes a .luarc.json pointing at the annotations file")
    func luarc() async throws {
        let project = try TemporaryProject(["routes.lua": TemporaryProject.manifest])
        defer { project.remove() }
        let annotations = project.url.appendingPathComponent("types/flowstack.lua").path
        let output = try await CLIRunner.run(["types", project.path, "--output", annotations, "--luarc"])
        #expect(output.status == 0)
        let data = try Data(contentsOf: project.url.appendingPathComponent(".luarc.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["workspace.library"] as? [String] == ["types/flowstack.lua"])
        #expect((json["diagnostics.globals"] as? [String])?.contains("expect") == true)
        #expect(FileManager.default.fileExists(atPath: annotations))
    }
}
