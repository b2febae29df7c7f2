import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Key files are read only when they are short regular files: a FIFO or a device given as a
/// key (`bundle --key`) is refused at once, never waited on or read without end.
@Suite("Rule bundles: key files")
struct BundleKeyFileTests {
    @Test("a FIFO or /dev/zero as a key file is refused at once", .timeLimit(.minutes(10)))
    func nonRegularKeyFilesAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("rules.key")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for url in [fifo, URL(fileURLWithPath: "/dev/zero")] {
            #expect {
                _ = try FlowRuleBundleSigningKey(contentsOf: url)
            } throws: { error in
                (error as? FlowRuleBundleError) == .invalidKey(source: url.path, detail: "it is not a regular file")
            }
            #expect(throws: FlowRuleBundleError.self) { _ = try FlowRuleBundlePublicKey(contentsOf: url) }
        }
        let long = folder.appendingPathComponent("long.key")
        try Data(repeating: UInt8(ascii: "A"), count: 1 << 20).write(to: long)
        #expect {
            _ = try FlowRuleBundleSigningKey(contentsOf: long)
        } throws: { error in
            (error as? FlowRuleBundleError) == .invalidKey(source: long.path, detail: "the file is not a short text file")
        }
    }
}
