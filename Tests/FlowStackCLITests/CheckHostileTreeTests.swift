import FlowStackTestSupport
import Foundation
import Testing

/// `check` and `test` on trees an attacker (or an accident) made: files that are not UTF-8,
/// folders nested too deep, a manifest that is a FIFO, a device or a folder, names built by
/// concatenation.
@Suite("flowstack check and test on hostile trees")
struct CheckHostileTreeTests {
    /// A rules file with an error `check` must still find whatever else is in the tree.
    static let goodRules = "flow.guard(\"hme\", function() return true end)\n"

    /// Creates a file whose path is given as bytes (names that are not UTF-8); false when the
    /// file system refuses the name (APFS does).
    static func create(_ path: [UInt8], contents: [UInt8]) -> Bool {
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return contents.withUnsafeBytes { write(descriptor, $0.baseAddress, contents.count) } == contents.count
    }

    @Test("a rules file whose contents are not UTF-8 is reported with its line; the other files are still checked")
    func contentsNotUTF8() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/b-good.lua": Self.goodRules,
            "flows/f.lua": "it(\"runs\", function() end)\n",
        ])
        defer { project.remove() }
        #expect(Self.create(Array((project.path + "/rules/a-bad.lua").utf8), contents: Array("-- ok\nlocal x = \"".utf8) + [0xFF, 0xFE] + Array("\"\n".utf8)))
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1, "\(output.stdout)")
        #expect(output.stdout.contains("rules/a-bad.lua:2: error: the file is not UTF-8 text"), "\(output.stdout)")
        #expect(output.stdout.contains("rules/b-good.lua:1: error: unknown route 'hme'"), "\(output.stdout)")
        #expect(!output.stdout.contains("0 rules files"), "\(output.stdout)")
        let strict = try await CLIRunner.run(["check", project.path, "--strict"])
        #expect(strict.status == 1)
        let test = try await CLIRunner.run(["test", project.path])
        #expect(test.status != 0)
        let said = test.stdout + test.stderr
        #expect(said.contains("rules/a-bad.lua:2:"), "\(said)")
        #expect(!said.contains("Fix the manifest"), "the manifest is not to blame: \(said)")
    }

    @Test("a rules file whose name is not UTF-8 is reported (its name escaped); the other files are still checked")
    func nameNotUTF8() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/b-good.lua": Self.goodRules,
        ])
        defer { project.remove() }
        guard Self.create(Array((project.path + "/rules/a-").utf8) + [0xFF] + Array(".lua".utf8), contents: Array("x = 1\n".utf8)) else {
            return  // a file system that refuses such names cannot hold this tree
        }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1, "\(output.stdout)")
        #expect(output.stdout.contains("rules/a-\\xFF.lua: error: the file name is not UTF-8"), "\(output.stdout)")
        #expect(output.stdout.contains("rules/b-good.lua:1: error: unknown route 'hme'"), "\(output.stdout)")
        let test = try await CLIRunner.run(["test", project.path])
        #expect(test.status != 0)
        #expect((test.stdout + test.stderr).contains("rules/a-\\xFF.lua"), "\(test.stdout + test.stderr)")
    }

    @Test("rules files more than 32 folders deep are reported by check and test, not skipped; 32 deep are read")
    func depth() async throws {
        let deep31 = (1...31).map { "d\($0)" }.joined(separator: "/")
        let deep32 = deep31 + "/d32"
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/\(deep31)/ok.lua": "flow.guard(\"logn\", function() return true end)\n",
            "rules/\(deep32)/deep.lua": "flow.guard(\"home\", function() return false, \"never seen by the tests\" end)\n",
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1, "\(output.stdout)")
        #expect(output.stdout.contains("rules/\(deep31)/ok.lua:1: error: unknown route 'logn'"), "\(output.stdout)")
        #expect(output.stdout.contains("rules/\(deep32)/deep.lua: error: the file is 33 folders deep, more than the 32"), "\(output.stdout)")
        let test = try await CLIRunner.run(["test", project.path])
        #expect(test.status != 0)
        #expect((test.stdout + test.stderr).contains("rules/\(deep32)/deep.lua"), "\(test.stdout + test.stderr)")
    }

    @Test("a routes.lua that is a FIFO, a device or a folder is an error naming it, at once", arguments: ["fifo", "device", "folder"])
    func manifestNotRegular(kind: String) async throws {
        let project = try TemporaryProject(["rules/a.lua": "x = 1\n"])
        defer { project.remove() }
        let manifest = project.path + "/routes.lua"
        switch kind {
        case "fifo": #expect(mkfifo(manifest, 0o644) == 0)
        case "device": try FileManager.default.createSymbolicLink(atPath: manifest, withDestinationPath: "/dev/zero")
        default: try FileManager.default.createDirectory(atPath: manifest, withIntermediateDirectories: false)
        }
        let expected = ["fifo": "a FIFO", "device": "a device", "folder": "a folder"][kind]!
        let output = try await CLIRunner.run(["check", project.path], timeout: 30)
        #expect(output.status == 1, "\(output.stdout)")
        #expect(output.stdout.contains("routes.lua: error: is \(expected)"), "\(output.stdout)")
        let test = try await CLIRunner.run(["test", project.path], timeout: 30)
        #expect(test.status == 1)
        #expect(test.stderr.contains("routes.lua: is \(expected)"), "\(test.stderr)")
    }

    @Test("a manifest that returns a table containing itself: the error names routes.lua")
    func selfContainingManifest() async throws {
        let project = try TemporaryProject(["routes.lua": "local t = { routes = { home = {} } }\nt.me = t\nreturn t\n"])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("routes.lua: error: a table that contains itself"), "\(output.stdout)")
    }

    @Test("names built by concatenation are not checked; literal names still are")
    func concatenatedNames() async throws {
        let project = try TemporaryProject([
            "routes.lua": """
                return { root = "home", routes = { home = {}, step1 = {}, step2 = {} }, dialogs = { "oops" } }
                """,
            "rules/steps.lua": """
                for n = 1, 2 do
                  flow.guard("step" .. n, function() return true end)
                  flow.dialog_guard("oo" .. "ps", function() return true end)
                end
                flow.guard("home", function(op)
                  if op.route.name == "step" .. 1 then return flow.redirect("push", "step" .. 2) end
                end)
                """,
            "rules/typo.lua": "flow.guard(\"stpe1\", function() return true end)\n",
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(!output.stdout.contains("unknown route 'step'"), "\(output.stdout)")
        #expect(!output.stdout.contains("unknown dialog"), "\(output.stdout)")
        #expect(!output.stdout.contains("rules/steps.lua"), "\(output.stdout)")
        #expect(output.stdout.contains("rules/typo.lua:1: error: unknown route 'stpe1'"), "\(output.stdout)")
    }
}
