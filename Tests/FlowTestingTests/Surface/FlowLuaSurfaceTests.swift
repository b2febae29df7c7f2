import FlowLuaTestSupport
import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowLua
@testable import FlowScript
@testable import FlowTesting

/// The one description of the Lua surface against what the preludes really expose at runtime,
/// the engine's own lists, and the contract.
@Suite("The Lua surface table matches the preludes, the engine and the contract")
@MainActor
struct FlowLuaSurfaceTests {
    /// The documents that make the contract; the test that every name is documented reads those
    /// of them that exist (the first must).
    static let contractFiles = ["docs/lua-surface.md", "docs/lua-surface-flows.md", "docs/lua-surface-sandbox.md"]

    static var packageRoot: URL {
        FlowStackBinary.packageRoot
    }

    static func luaList(_ names: [String]) -> String {
        "{ " + names.sorted().map { "\"\($0)\"" }.joined(separator: ", ") + " }"
    }

    /// Lua that compares the keys of each table (through `pairs`: frozen tables list theirs by `__pairs`) (`label`, Lua expression, expected names;
    /// for `_G`, Lua's standard names left out) and raises one error naming every name the table
    /// lacks or has extra.
    static func walk(_ tables: [(label: String, expression: String, expected: [String])]) -> String {
        var lua = """
            local standard = {}
            for _, name in ipairs(\(luaList(FlowLuaSurface.luaStandardGlobals))) do standard[name] = true end
            local problems = {}
            local function compare(label, t, expected, skipStandard)
              local wanted, seen = {}, {}
              for _, name in ipairs(expected) do wanted[name] = true end
              local extra, missing = {}, {}
              for key in pairs(t) do
                if not (skipStandard and standard[key]) then
                  seen[key] = true
                  if not wanted[key] then extra[#extra + 1] = tostring(key) end
                end
              end
              for _, name in ipairs(expected) do if not seen[name] then missing[#missing + 1] = name end end
              table.sort(extra)
              if #extra > 0 then problems[#problems + 1] = label .. " has names the surface table lacks: " .. table.concat(extra, ", ") end
              if #missing > 0 then problems[#problems + 1] = label .. " lacks names the surface table has: " .. table.concat(missing, ", ") end
            end

            """
        for table in tables {
            lua += "compare(\"\(table.label)\", \(table.expression), \(luaList(table.expected)), \(table.expression == "_G"))\n"
        }
        lua += "if #problems > 0 then error(table.concat(problems, \"; \"), 0) end\n"
        return lua
    }

    static func callableNames(_ owner: FlowLuaOwner) -> [String] {
        FlowLuaSurface.functions(of: owner).filter { !$0.isProperty }.flatMap { $0.hasAsyncTwin ? [$0.name, $0.name + "Async"] : [$0.name] }
    }

    /// A VM that ran the rules prelude (`Prelude/rules.lua`) over stand-ins for its Swift and C
    /// helpers: its globals are open to `pairs`, as the engine's locked ones are not.
    static func rulesPreludeVM() throws -> LuaVM {
        let vm = try LuaVM()
        _ = try run(vm, """
            local function any() return any, any end
            __flow_native = setmetatable({ kinds = \(luaList(FlowLuaSurface.kindNames)), sources = { "code" } },
              { __index = function() return any end })
            """)
        _ = try run(vm, try FlowPreludeFile.rules.get(), chunkName: "=flowstack")
        return vm
    }

    /// The globals the engine installs from Swift rather than the prelude.
    static let engineGlobals = ["facts", "host", "experiments"]

    @Test("the rules prelude's flow, flow.style and globals are exactly the table's")
    func rulesPrelude() throws {
        let error = scriptError(try Self.rulesPreludeVM(), Self.walk([
            ("flow", "flow", FlowLuaSurface.names(of: .flow)),
            ("flow.style", "flow.style", FlowLuaSurface.names(of: .flowStyle)),
            ("the rules prelude's globals", "_G", FlowLuaSurface.globalNames(of: .rules).filter { !Self.engineGlobals.contains($0) }),
        ]))
        #expect(error == nil, "\(error?.description ?? "")")
        // The engine's rules VM has every global of the table (its globals are locked: rawget reads them).
        let checks = FlowLuaSurface.globalNames(of: .rules).map {
            "if rawget(_G, \"\($0)\") == nil then error(\"the rules VM has no global '\($0)'\", 0) end"
        }.joined(separator: "\n")
        let runner = try FlowProjectFixture.runner([:], rules: checks)
        #expect(runner.rulesLoadError == nil, "\(runner.rulesLoadError?.description ?? "")")
    }

    @Test("the flow prelude's router, app, matchers and globals are exactly the table's")
    func flowPrelude() async throws {
        let matchers = FlowLuaSurface.names(of: .expectation)
        let properties = FlowLuaSurface.functions(of: .router).filter(\.isProperty).map(\.name)
        let flow = """
            it("exposes the surface", function()
            \(Self.walk([
                ("router", "router", Self.callableNames(.router)),
                ("app", "app", Self.callableNames(.app)),
                ("the flows' globals", "_G", FlowLuaSurface.globalNames(of: .flows)),
            ]))
              for _, name in ipairs(\(Self.luaList(matchers))) do
                expect(type(expect(1)[name])).to_be("function")
              end
              for _, name in ipairs(\(Self.luaList(properties))) do
                expect(router[name]).never.to_be_nil()
              end
            end)
            """
        let report = try await FlowProjectFixture.run(["surface.lua": flow])
        #expect(report.results.count == 1)
        #expect(report.results.allSatisfy { $0.failures.isEmpty }, "\(FlowProjectFixture.failures(report))")
        #expect(report.loadErrors.isEmpty, "\(FlowProjectFixture.failures(report))")
    }

    @Test("the walk fails on a name the table lacks and on one it has extra")
    func walkFindsDifferences() throws {
        let names = FlowLuaSurface.names(of: .flow).filter { $0 != "guard" } + ["navigate"]
        let error = scriptError(try Self.rulesPreludeVM(), Self.walk([("flow", "flow", names)]))
        #expect(error?.message.contains("flow has names the surface table lacks: guard") == true, "\(String(describing: error))")
        #expect(error?.message.contains("flow lacks names the surface table has: navigate") == true, "\(String(describing: error))")
    }

    @Test("explore files see exactly the table's globals")
    func exploreGlobals() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("surface-explore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.walk([("explore's globals", "_G", FlowLuaSurface.globalNames(of: .explore))])
            .write(to: directory.appendingPathComponent("walk.lua"), atomically: true, encoding: .utf8)
        #expect(throws: Never.self) { _ = try FlowExploreInvariants(directory: directory) }
    }

    @Test("kinds, policies, style attributes and payload types are the engine's")
    func engineLists() {
        #expect(FlowLuaSurface.kindNames == FlowRuleKind.allCases.map(\.rawValue))
        #expect(FlowLuaSurface.policyNames == FlowDialogPolicy.allCases.map(\.rawValue))
        #expect(FlowLuaSurface.styleAttributes.map(\.name) == FlowStyleAttributes.knownKeys)
        #expect(FlowManifest.parameterTypes == FlowLuaSurface.payloadTypes.map(\.name))
        #expect(FlowTestPrelude.matchers == FlowLuaSurface.names(of: .expectation))
        #expect(FlowLuaSurface.exploreKeys.map(\.name) == FlowExploreSection.keys)
    }

    @Test("every manifest key the table lists is accepted, and no other")
    func manifestKeys() throws {
        let (_, problems) = try FlowManifest.parseReportingProblems(source: "return { routes = { home = {} }, roots = 1 }")
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("did you mean 'root'") == true)
        for key in FlowLuaSurface.manifestKeys.map(\.name) {
            #expect(problems.first?.message.contains(key) == true, "the message lists \(key)")
        }
    }

    @Test("signatures read as parameters: names, types, optional ones and arity")
    func signatures() throws {
        let popTo = try #require(FlowLuaSurface.function(.router, "popToAsync"))
        #expect(popTo.parameters.map(\.name) == ["route", "match"])
        #expect(popTo.parameters.map(\.isOptional) == [false, true])
        #expect(popTo.minimumArguments == 1 && popTo.maximumArguments == 2)
        let deeplink = try #require(FlowLuaSurface.function(.flow, "deeplink"))
        #expect(deeplink.parameters.count == 2, "a comma inside fun(...) does not split")
        let calledWith = try #require(FlowLuaSurface.function(.expectation, "to_have_been_called_with"))
        #expect(calledWith.maximumArguments == nil)
        #expect(FlowLuaSurface.function(.router, "hideDialogAsync") == nil)
    }

    @Test("every name of the table appears in the contract")
    func documented() throws {
        let files = Self.contractFiles.enumerated().filter { index, file in
            index == 0 || FileManager.default.fileExists(atPath: Self.packageRoot.appendingPathComponent(file).path)
        }.map(\.element)
        let text = try files.map {
            try String(contentsOf: Self.packageRoot.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        var names = FlowLuaSurface.functions.map(\.name) + FlowLuaSurface.globals.map(\.name)
        names += FlowLuaSurface.manifestKeys.map(\.name) + FlowLuaSurface.styleAttributes.map(\.name)
        names += FlowLuaSurface.kindNames + FlowLuaSurface.policyNames + FlowLuaSurface.payloadTypes.map(\.name)
        names += FlowLuaSurface.exploreState.map(\.name) + FlowLuaSurface.exploreKeys.map(\.name)
        let missing = Set(names).filter { name in
            text.firstMatch(of: try! Regex("(^|[^A-Za-z0-9_])\(name)($|[^A-Za-z0-9_])")) == nil
        }
        #expect(missing.isEmpty, "not in \(files.joined(separator: ", ")): \(missing.sorted().joined(separator: ", "))")
    }
}
