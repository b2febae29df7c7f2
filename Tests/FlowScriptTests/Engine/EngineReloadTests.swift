import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowLua
@testable import FlowScript

/// Spec §2 "Safety" (failed reloads) and §3 "Reloading".
@Suite("Engine: reloading")
@MainActor
struct EngineReloadTests {
    static let blocking = FlowRulesSource(name: "rules/gate.lua", text: "flow.guard('editor', function() return false, 'old rules' end)")
    static let allowing = FlowRulesSource(name: "rules/gate.lua", text: "flow.guard('editor', function() return true end)")

    @Test("A successful reload increments the generation; history entries record it")
    func successfulReload() throws {
        let rig = try RulesRig(Self.blocking.text, file: Self.blocking.name)
        var reports: [FlowReloadResult] = []
        rig.engine.onReload = { reports.append($0) }
        #expect(rig.engine.generation == 1)
        #expect(rig.push("editor").status == .blockedByGuard)
        #expect(rig.engine.reload(sources: [Self.allowing]) == .loaded(generation: 2))
        #expect(rig.engine.generation == 2)
        #expect(rig.engine.lastLoadError == nil)
        #expect(rig.push("editor").isApplied)
        #expect(rig.router.history.map(\.generation) == [1, 2])
        #expect(rig.engine.reload() == .loaded(generation: 3), "reloading the same sources is a new generation")
        #expect(reports == [.loaded(generation: 2), .loaded(generation: 3)])
        #expect(rig.engine.sourceNames == ["rules/gate.lua"])
    }

    @Test("A broken reload keeps the previous rules and reports file:line", arguments: [
        ("flow.guard('editor', function()\n  return true\n", "rules/broken.lua", 3, FlowScriptError.Kind.syntax),
        ("local x = 1\nerror('top-level failure')", "rules/broken.lua", 2, .runtime),
        ("\n\nflow.guard(42, function() end)", "rules/broken.lua", 3, .runtime),
        ("flow.guard('editor', 'not a function')", "rules/broken.lua", 1, .runtime),
        ("flow.precondition('bogus', function() end)", "rules/broken.lua", 1, .runtime),
        ("flow.style.screen(nil)", "rules/broken.lua", 1, .runtime),
        ("flow.deeplink(7, function() end)", "rules/broken.lua", 1, .runtime),
        ("local t = nil\nlocal y = t.field", "rules/broken.lua", 2, .runtime),
        ("while true do end", "rules/broken.lua", 1, .instructionBudget),
    ])
    func brokenReload(text: String, file: String, line: Int, kind: FlowScriptError.Kind) throws {
        let rig = try RulesRig(Self.blocking.text, file: Self.blocking.name)
        var reports: [FlowReloadResult] = []
        rig.engine.onReload = { reports.append($0) }
        let result = rig.engine.reload(sources: [Self.allowing, FlowRulesSource(name: file, text: text)])
        guard case .failed(let error, let kept) = result else {
            Issue.record("the broken rules loaded: \(result)")
            return
        }
        #expect(kept == 1)
        #expect(error.file == file, "\(error)")
        #expect(error.line == line, "\(error)")
        #expect(error.kind == kind, "\(error)")
        #expect(error.description.hasPrefix("\(file):\(line): "))
        #expect(rig.engine.lastLoadError == error)
        #expect(reports == [result])
        #expect(rig.engine.generation == 1)
        #expect(rig.engine.sourceNames == ["rules/gate.lua"])
        let blocked = rig.push("editor")
        #expect(blocked.reason == "old rules", "the previous rules stay in force")
        #expect(blocked.generation == 1)
        #expect(rig.engine.reload(sources: [Self.allowing]) == .loaded(generation: 2))
        #expect(rig.engine.lastLoadError == nil)
        #expect(rig.push("editor").isApplied)
    }

    @Test("A failed first load throws with file:line")
    func failedInitialLoad() {
        let error = loadError("flow.guard('a', function() end)\nflow.guard('b')", file: "rules/b.lua")
        #expect(error?.description.hasPrefix("rules/b.lua:2: bad argument #2 to 'flow.guard'") == true, "\(String(describing: error))")
    }

    @Test("A missing rules directory is an error naming its path")
    func missingDirectory() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-rules-\(UUID().uuidString)")
        do {
            _ = try FlowRulesEngine<FlowRouteValue>(directory: missing)
            Issue.record("a missing directory loaded")
        } catch {
            #expect(error.message.contains(missing.lastPathComponent), "\(error)")
        }
    }

    @Test("Files load in lexical order of their paths, into one VM")
    func lexicalOrder() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let files = [
            "b.lua": "shared = shared .. 'b'\nflow.guard('x', function() host.log('b') end)",
            "a.lua": "shared = 'a'\nflow.guard('x', function() host.log('a', shared) end)",
            "sub/c.lua": "shared = shared .. 'c'\nflow.guard('x', function() host.log('sub/c') end)",
            "notes.txt": "this is not Lua",
        ]
        for (name, text) in files {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let engine = try FlowRulesEngine<FlowRouteValue>(directory: directory)
        #expect(engine.sourceNames == ["rules/a.lua", "rules/b.lua", "rules/sub/c.lua"])
        let router = ScriptRouter(root: route("home"))
        engine.install(into: router)
        var log: [String] = []
        engine.registerHost("log") { arguments in
            log.append(arguments.compactMap { $0.map(RulesRig.describe) }.joined(separator: " "))
            return []
        }
        router.push(route("x"))
        #expect(log == ["a abc", "b", "sub/c"])
    }

    @Test("Hidden files and folders, folders named like Lua files and other files are not rules")
    func directorySkipsWhatIsNotRules() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let manager = FileManager.default
        try manager.createDirectory(at: directory.appendingPathComponent(".git/sub"), withIntermediateDirectories: true)
        try manager.createDirectory(at: directory.appendingPathComponent("folder.lua"), withIntermediateDirectories: true)
        try manager.createDirectory(at: directory.appendingPathComponent("nested/deeper"), withIntermediateDirectories: true)
        for name in [".hidden.lua", ".git/sub/x.lua", "notes.txt", "folder.lua/inside.lua", "nested/deeper/z.lua", "a.lua"] {
            try "-- \(name)".write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        // A link to a file is a rules file; a link to a folder (here, a loop) is not followed.
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("linked.lua").path,
                                       withDestinationPath: directory.appendingPathComponent("a.lua").path)
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("nested/loop").path,
                                       withDestinationPath: directory.path)
        let names = try FlowRulesSource.directory(directory).map(\.name)
        #expect(names == ["rules/a.lua", "rules/folder.lua/inside.lua", "rules/linked.lua", "rules/nested/deeper/z.lua"])
    }

    @Test("An unchanged file reloads from its compiled form with its lines; a changed file is compiled again")
    func compiledFormsAcrossReloads() throws {
        let failing = FlowRulesSource(name: "rules/fail.lua", text: "\n\nflow.guard('editor', function()\n  error('boom')\nend)")
        let rig = try RulesRig(failing.text, file: failing.name)
        for generation in 2...3 {
            #expect(rig.engine.reload(sources: [failing, Self.blocking]) == .loaded(generation: generation))
            let result = rig.push("editor")
            #expect(result.status == .failed)
            #expect(result.reason?.contains("rules/fail.lua:4: boom") == true, "\(result.reason ?? "nil")")
        }
        #expect(rig.engine.compiledSources.keys.sorted() == ["rules/fail.lua", "rules/gate.lua"])
        let changed = FlowRulesSource(name: "rules/fail.lua", text: "flow.guard('editor', function() return true end)")
        #expect(rig.engine.reload(sources: [changed, Self.allowing]) == .loaded(generation: 4))
        #expect(rig.push("editor").isApplied)
        #expect(rig.engine.compiledSources["rules/fail.lua"]?.text == changed.text)
    }

    @Test("reload() re-reads the directory; a broken file names its path in the directory")
    func directoryReload() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let file = directory.appendingPathComponent("gate.lua")
        try Self.blocking.text.write(to: file, atomically: true, encoding: .utf8)
        let engine = try FlowRulesEngine<FlowRouteValue>(directory: directory)
        let router = ScriptRouter(root: route("home"))
        engine.install(into: router)
        #expect(!router.push(route("editor")))
        try "flow.guard('editor', function()\n  return (\nend)".write(to: file, atomically: true, encoding: .utf8)
        guard case .failed(let error, 1) = engine.reload() else {
            Issue.record("a syntax error loaded")
            return
        }
        #expect(error.file == "rules/gate.lua")
        #expect(error.line == 3)
        #expect(!router.push(route("editor")))
        try Self.allowing.text.write(to: file, atomically: true, encoding: .utf8)
        #expect(engine.reload() == .loaded(generation: 2))
        #expect(router.push(route("editor")))
    }

    @Test("Async operations queued across a reload: the waiting one finishes with the old rules, later ones use the new generation")
    func reloadWhileAsyncQueued() async throws {
        let latch = HostLatch()
        let rig = try RulesRig("""
            flow.guard("slow", function(op, stacks, ctx)
              host.wait()
              if ctx.generation ~= 1 then return false, "saw generation " .. ctx.generation end
              return true
            end)
            flow.guard("next", function(op, stacks, ctx) return true end)
            """, file: "rules/gen1.lua")
        rig.engine.registerAsyncHost("wait") { _ in [await latch.wait()] }
        let first = Task { @MainActor in await rig.router.pushAsync(route("slow")) }
        await latch.waitForArrivals(1)
        let second = Task { @MainActor in await rig.router.pushAsync(route("next")) }
        await spinUntil { rig.router.queuedTransitionCount == 1 }
        #expect(rig.router.queuedTransitionCount == 1)

        let reload = rig.engine.reload(sources: [FlowRulesSource(name: "rules/gen2.lua", text: """
            flow.guard("slow", function() return false, "new rules" end)
            flow.guard("next", function(op, stacks, ctx) return false, "new rules, generation " .. ctx.generation end)
            """)])
        #expect(reload == .loaded(generation: 2))
        latch.resume(with: nil)
        #expect(await first.value, "the waiting decision finishes with the rules it started with")
        #expect(await second.value == false)
        #expect(rig.router.activeStack.path == [route("slow")])
        let entries = rig.router.history.filter { $0.command != nil }
        #expect(entries.count == 2)
        #expect(entries.last?.reason == "new rules, generation 2")
        #expect(entries.last?.generation == 2)
        #expect(entries.first?.generation == 1, "the entry records the generation that decided it")
        #expect(!rig.push("slow").isApplied)
    }

    @Test("Watching a directory reloads after a rename-save; a broken save keeps the rules")
    func watchingRenameSaves() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let file = directory.appendingPathComponent("gate.lua")
        try Self.blocking.text.write(to: file, atomically: false, encoding: .utf8)
        let engine = try FlowRulesEngine<FlowRouteValue>(directory: directory)
        let router = ScriptRouter(root: route("home"))
        engine.install(into: router)
        var reports: [FlowReloadResult] = []
        engine.onReload = { reports.append($0) }
        try engine.startWatching(debounce: .milliseconds(300))
        #expect(engine.isWatching)
        defer { engine.stopWatching() }

        func renameSave(_ text: String) throws {
            let temporary = directory.appendingPathComponent(".gate.lua.\(UUID().uuidString).tmp")
            try text.write(to: temporary, atomically: false, encoding: .utf8)
            guard rename(temporary.path, file.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
        }

        try renameSave("flow.guard('editor', function() return false, 'draft 1' end)")
        try renameSave("flow.guard('editor', function() return false, 'draft 2' end)")
        try renameSave(Self.allowing.text)
        // The reload runs on the main actor, which the whole suite shares: in a full run it can
        // wait behind other tests' main-actor work for tens of seconds (alone: about 300 ms).
        #expect(await eventually(timeout: .seconds(60)) { reports.count >= 1 })
        // One reload for the burst; on a loaded machine a write can stall past the debounce and
        // split it, and each part loads: wait until no reload has come for a second.
        var settled = -1
        while settled != reports.count {
            settled = reports.count
            try await Task.sleep(for: .seconds(1))
        }
        #expect(reports.first == .loaded(generation: 2))
        #expect(reports.allSatisfy { if case .loaded = $0 { true } else { false } }, "\(reports)")
        #expect(router.push(route("editor")), "the last save is in force")
        let generation = engine.generation

        try renameSave("flow.guard('editor', function(\n")
        #expect(await eventually(timeout: .seconds(60)) { reports.count > settled })
        guard case .failed(let error, generation)? = reports.last else {
            Issue.record("the broken save did not fail: \(reports)")
            return
        }
        #expect(error.file == "rules/gate.lua")
        #expect(engine.generation == generation)
        #expect(engine.lastLoadError == error)
        #expect(router.push(route("editor")))

        engine.stopWatching()
        #expect(!engine.isWatching)
    }

    @Test("Only a directory can be watched")
    func watchingNeedsADirectory() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [Self.allowing])
        #expect(throws: FlowScriptError.self) { try engine.startWatching() }
        #expect(!engine.isWatching)
    }
}
