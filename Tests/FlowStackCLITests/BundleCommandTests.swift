import Foundation
import Testing

@Suite("flowstack keygen and bundle")
struct BundleCommandTests {
    @Test("keygen writes a key pair; bundle signs a project with it")
    func keygenAndBundle() throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            ".hidden/notes.txt": "not part of the bundle",
        ])
        defer { project.remove() }
        let keyURL = project.url.appendingPathComponent(".keys/rules.key")
        let publicURL = project.url.appendingPathComponent(".keys/rules.pub")
        let keygen = try CLIRunner.run(["keygen", "--private-key", keyURL.path, "--public-key", publicURL.path])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let privateKey = try String(contentsOf: keyURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Data(base64Encoded: privateKey)?.count == 32)
        #expect(Data(base64Encoded: try String(contentsOf: publicURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))?.count == 32)
        let permissions = try FileManager.default.attributesOfItem(atPath: keyURL.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        let bundle = try CLIRunner.run([
            "bundle", project.path, "--key", keyURL.path, "--version", "1.4.0", "--min-app", "2.0", "--expires", "2099-06-01",
        ])
        #expect(bundle.status == 0, "\(bundle.stderr)")
        #expect(bundle.stdout.contains("version 1.4.0, for apps 2.0 and later, expires 2099-06-01T00:00:00Z, 2 files"))
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: project.url.appendingPathComponent("bundle.json"))) as? [String: Any])
        #expect(manifest["version"] as? String == "1.4.0")
        let files = try #require(manifest["files"] as? [String: String])
        #expect(files.keys.sorted() == ["routes.lua", "rules/auth.lua"])
        #expect(files.values.allSatisfy { $0.count == 64 })
        let signature = try String(contentsOf: project.url.appendingPathComponent("bundle.sig"), encoding: .utf8)
        #expect(Data(base64Encoded: signature.trimmingCharacters(in: .whitespacesAndNewlines))?.count == 64)
    }

    @Test("keygen without files prints both keys")
    func keygenPrints() throws {
        let output = try CLIRunner.run(["keygen"])
        #expect(output.status == 0)
        #expect(output.lines.count == 2)
        #expect(output.lines[0].hasPrefix("private key: "))
        #expect(output.lines[1].hasPrefix("public key:  "))
        #expect(output.stderr.contains("Keep the private key secret"))
    }

    @Test("bad arguments say what to write")
    func badArguments() throws {
        let project = try TemporaryProject(["rules/a.lua": "-- empty\n", "key": "not a key"])
        defer { project.remove() }
        let key = project.url.appendingPathComponent("key").path
        let badDate = try CLIRunner.run(["bundle", project.path, "--key", key, "--version", "1", "--min-app", "1", "--expires", "soon"])
        #expect(badDate.status != 0)
        #expect(badDate.stderr.contains("write it as 2027-06-01"))
        let badKey = try CLIRunner.run(["bundle", project.path, "--key", key, "--version", "1", "--min-app", "1", "--expires", "2099-01-01"])
        #expect(badKey.status != 0)
        #expect(badKey.stderr.contains(key))
        #expect(!FileManager.default.fileExists(atPath: project.url.appendingPathComponent("bundle.json").path))
    }
}
