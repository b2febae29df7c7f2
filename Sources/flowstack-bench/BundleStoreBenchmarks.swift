import FlowRuleBundles
import FlowScript
import Foundation
import Logging

/// The install time of a signed 100-file bundle into a `FlowRuleBundleStore` (verify in
/// memory, write to staging, rename, commit the state), median of 20 installs, and the
/// in-memory verification alone (decode, signature, 100 SHA-256s). The install is bound by the
/// disk: 100 file creations.
enum BundleStoreBenchmarks {
    static func run() throws {
        let pair = FlowRuleBundleKeys.generate()
        let key = try FlowRuleBundleSigningKey(base64: pair.privateKey)
        let verifier = FlowRuleBundleVerifier(
            publicKey: try FlowRuleBundlePublicKey(base64: pair.publicKey), appVersion: FlowRuleBundleVersion("2.0")!)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-bench-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FlowRuleBundleStore(
            directory: directory, verifier: verifier, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        var archives: [Data] = []
        var bytes = 0
        for version in 1...21 {
            var files: [String: Data] = [:]
            for index in 0..<100 {
                let rule = "flow.guard(\"screen\(index)\", function(op, stacks, ctx)\n"
                    + String(repeating: "  -- rule \(index) of bundle \(version)\n", count: 20)
                    + "  if not facts.isLoggedIn then return flow.redirect(\"sheet\", \"login\", \"login\") end\nend)\n"
                files["rules/r\(index).lua"] = Data(rule.utf8)
            }
            let archive = try FlowRuleBundleArchive.make(
                files: files, version: FlowRuleBundleVersion(components: [1, version])!,
                minimumAppVersion: FlowRuleBundleVersion("1.0")!, expires: Date().addingTimeInterval(86_400), signingKey: key)
            let data = archive.encoded()
            bytes = data.count
            archives.append(data)
        }
        try store.install(data: archives[0])
        var samples: [Double] = []
        for data in archives.dropFirst() {
            let start = DispatchTime.now().uptimeNanoseconds
            try store.install(data: data)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        var checks: [Double] = []
        for data in archives {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try verifier.verify(archive: try FlowRuleBundleArchive(data: data))
            checks.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        checks.sort()
        Measure.report("bundle_install_100_files_median_ms", (samples[9] + samples[10]) / 2, "ms")
        Measure.report("bundle_verify_100_files_in_memory_median_ms", checks[10], "ms")
        Measure.report("bundle_install_100_files_archive_kb", Double(bytes) / 1024, "KiB")
    }
}
