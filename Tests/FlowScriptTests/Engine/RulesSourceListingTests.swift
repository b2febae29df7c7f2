import Foundation
import Testing
@testable import FlowLua
@testable import FlowScript

/// Reading a rules folder and a manifest from a tree that may be hostile: every file that
/// cannot be read is named, the others are still read; a manifest that is not a regular file
/// is refused at once.
@Suite("Engine: reading rules folders and manifests")
@MainActor
struct RulesSourceListingTests {
    /// A fresh folder `rules/` in a temporary directory, removed by the caller.
    func folder(_ files: [String: [UInt8]]) throws -> URL {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-listing-\(UUID().uuidString)")
        let rules = base.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        for (path, bytes) in files {
            let url = rules.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return rules
    }

    @Test("a file that is not UTF-8 is one problem with its line; the other files are read; directory() throws naming it")
    func notUTF8() throws {
        let rules = try folder([
            "a.lua": Array("x = 1\n".utf8),
            "b.lua": Array("y = 1\n-- \u{E9}\nz = '".utf8) + [0xC3, 0x28] + Array("'\n".utf8),
            "c.lua": Array("w = 1\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: rules.deletingLastPathComponent()) }
        let listing = try FlowRulesSource.listing(rules)
        #expect(listing.sources.map(\.name) == ["rules/a.lua", "rules/c.lua"])
        #expect(listing.problems.count == 1)
        #expect(listing.problems.first?.file == "rules/b.lua")
        #expect(listing.problems.first?.line == 3)
        #expect(listing.problems.first?.message.contains("not UTF-8") == true)
        #expect(throws: FlowScriptError.self) { try FlowRulesSource.directory(rules) }
        do {
            _ = try FlowRulesSource.directory(rules)
        } catch {
            #expect(error.file == "rules/b.lua")
        }
    }

    @Test("files more than 32 folders deep are reported, not skipped; 32 folders deep are read")
    func depth() throws {
        let deep31 = (1...31).map { "d\($0)" }.joined(separator: "/")
        let rules = try folder([
            "\(deep31)/ok.lua": Array("x = 1\n".utf8),
            "\(deep31)/d32/deep.lua": Array("y = 1\n".utf8),
            "\(deep31)/d32/d33/deeper.lua": Array("z = 1\n".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: rules.deletingLastPathComponent()) }
        let listing = try FlowRulesSource.listing(rules)
        #expect(listing.sources.map(\.name) == ["rules/\(deep31)/ok.lua"])
        #expect(listing.problems.map(\.file) == ["rules/\(deep31)/d32/d33/deeper.lua", "rules/\(deep31)/d32/deep.lua"])
        #expect(listing.problems.first?.message.contains("34 folders deep, more than the 32") == true, "\(listing.problems)")
        #expect(FlowRulesSource.maximumFolderDepth == 32)
    }

    @Test("a .lua entry that is a FIFO or a link to nothing is reported, never read nor skipped in silence")
    func luaEntryNotRegular() throws {
        let rules = try folder(["a.lua": Array("x = 1\n".utf8)])
        defer { try? FileManager.default.removeItem(at: rules.deletingLastPathComponent()) }
        #expect(mkfifo(rules.appendingPathComponent("pipe.lua").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: rules.appendingPathComponent("gone.lua").path, withDestinationPath: rules.appendingPathComponent("missing").path)
        let listing = try FlowRulesSource.listing(rules)
        #expect(listing.sources.map(\.name) == ["rules/a.lua"])
        #expect(listing.problems.map(\.file) == ["rules/gone.lua", "rules/pipe.lua"])
        #expect(listing.problems.allSatisfy { $0.message.hasPrefix("is not a regular file") })
    }

    @Test("a manifest that is a FIFO or a folder is refused at once, naming it")
    func manifestNotRegular() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let fifo = base.appendingPathComponent("routes.lua")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        #expect(throws: FlowScriptError.self) { try FlowManifest.load(contentsOf: fifo) }
        do {
            _ = try FlowManifest.load(contentsOf: fifo)
        } catch {
            #expect(error.file == "routes.lua")
            #expect(error.message.hasPrefix("is a FIFO"), "\(error.message)")
        }
        do {
            _ = try FlowManifest.load(contentsOf: base)
            Issue.record("a folder was read as a manifest")
        } catch {
            #expect(error.message.hasPrefix("is a folder"), "\(error.message)")
        }
    }

    @Test("a manifest returning a table that contains itself: the error names the manifest")
    func selfContaining() {
        do {
            _ = try FlowManifest.parse(source: "local t = { routes = {} }\nt.me = t\nreturn t\n")
            Issue.record("the manifest loaded")
        } catch {
            #expect(error.file == "routes.lua")
        }
    }
}
