import FlowStackTestSupport
import Foundation
import Testing

@Suite("flowstack keygen and bundle")
struct BundleCommandTests {
    @Test("keygen writes a key pair; bundle signs a project with it")
    func keygenAndBundle() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            ".hidden/notes.txt": "not part of the bundle",
        ])
        defer { project.remove() }
        let keyURL = project.url.appendingPathComponent(".keys/rules.key")
        let publicURL = project.url.appendingPathComponent(".keys/rules.pub")
        let keygen = try await CLIRunner.run(["keygen", "--private-key", keyURL.path, "--public-key", publicURL.path])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let privateKey = try String(contentsOf: keyURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Data(base64Encoded: privateKey)?.count == 32)
        #expect(Data(base64Encoded: try String(contentsOf: publicURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))?.count == 32)
        let permissions = try FileManager.default.attributesOfItem(atPath: keyURL.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        let bundle = try await CLIRunner.run([
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

    @Test("bundle's --version is the bundle's: a mistake beside it is reported, never the tool's version with status 0")
    func versionOptionWithMistakes() async throws {
        let notAProject = try await CLIRunner.run([
            "bundle", "no-such-project", "--key", "rules.key", "--version", "1.4.0", "--min-app", "2.0", "--expires", "2099-06-01",
        ])
        #expect(notAProject.status == 1)
        #expect(notAProject.stderr.contains("no flow project at no-such-project"), "\(notAProject.stderr)")
        #expect(!notAProject.stdout.contains("flowstack 1."), "\(notAProject.stdout)")
        let noKey = try await CLIRunner.run(["bundle", "Scripts", "--version", "1.4.0", "--min-app", "2.0", "--expires", "2099-06-01"])
        #expect(noKey.status == 64)
        #expect(noKey.stderr.contains("--key"), "\(noKey.stderr)")
        let typo = try await CLIRunner.run([
            "bundle", "Scripts", "--key", "rules.key", "--version", "1.4.0", "--min-ap", "2.0", "--expires", "2099-06-01",
        ])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("--min-app"), "\(typo.stderr)")
        let publicKey = try await CLIRunner.run([
            "bundle", "Scripts", "--key", "rules.pub", "--version", "1.4.0", "--min-app", "2.0", "--expires", "2099-06-01",
        ])
        #expect(publicKey.status == 1)
        #expect(publicKey.stderr.contains("--key rules.pub looks like the public key"), "\(publicKey.stderr)")
        let project = try TemporaryProject(["routes.lua": TemporaryProject.manifest, "rules.key": "not read"])
        defer { project.remove() }
        let keyTypo = try await CLIRunner.run([
            "bundle", project.path, "--key", project.url.appendingPathComponent("rules.ky").path, "--version", "1.4.0",
            "--min-app", "2.0", "--expires", "2099-06-01",
        ])
        #expect(keyTypo.status == 1)
        #expect(keyTypo.stderr.contains("rules.key'?)"), "\(keyTypo.stderr)")
        let version = try await CLIRunner.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("flowstack "))
    }

    @Test("keygen without files prints both keys")
    func keygenPrints() async throws {
        let output = try await CLIRunner.run(["keygen"])
        #expect(output.status == 0)
        #expect(output.lines.count == 2)
        #expect(output.lines[0].hasPrefix("private key: "))
        #expect(output.lines[1].hasPrefix("public key:  "))
        #expect(output.stderr.contains("Keep the private key secret"))
    }

    @Test("bad arguments say what to write")
    func badArguments() async throws {
        let project = try TemporaryProject(["rules/a.lua": "-- empty\n", "key": "not a key"])
        defer { project.remove() }
        let key = project.url.appendingPathComponent("key").path
        let badDate = try await CLIRunner.run(["bundle", project.path, "--key", key, "--version", "1", "--min-app", "1", "--expires", "soon"])
        #expect(badDate.status != 0)
        #expect(badDate.stderr.contains("write it as 2027-06-01"))
        let badKey = try await CLIRunner.run(["bundle", project.path, "--key", key, "--version", "1", "--min-app", "1", "--expires", "2099-01-01"])
        #expect(badKey.status != 0)
        #expect(badKey.stderr.contains(key))
        #expect(!FileManager.default.fileExists(atPath: project.url.appendingPathComponent("bundle.json").path))
    }

    @Test("keygen never replaces an existing key without --force, and writes nothing when it refuses")
    func keygenRefusesToOverwrite() async throws {
        let project = try TemporaryProject(["keys/rules.key": "the key every shipped app trusts\n"])
        defer { project.remove() }
        let key = project.url.appendingPathComponent("keys/rules.key")
        let pub = project.url.appendingPathComponent("keys/rules.pub")
        let refused = try await CLIRunner.run(["keygen", "--private-key", key.path, "--public-key", pub.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(key.path) && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try String(contentsOf: key, encoding: .utf8) == "the key every shipped app trusts\n")
        #expect(!FileManager.default.fileExists(atPath: pub.path), "nothing written when one key is refused")

        let onlyPublic = try await CLIRunner.run(["keygen", "--public-key", key.path])
        #expect(onlyPublic.status != 0)
        #expect(try String(contentsOf: key, encoding: .utf8) == "the key every shipped app trusts\n")

        let forced = try await CLIRunner.run(["keygen", "--private-key", key.path, "--public-key", pub.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let replaced = try String(contentsOf: key, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Data(base64Encoded: replaced)?.count == 32)
        #expect((try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int) == 0o600)
    }

    @Test("keygen refuses one path for both keys, however it is spelled, before writing anything")
    func keygenRefusesOnePathForBothKeys() async throws {
        let project = try TemporaryProject(["rules/a.lua": "-- a\n"])
        defer { project.remove() }
        let key = project.url.appendingPathComponent("rules.key")
        for (first, second) in [(key.path, key.path), (key.path, project.path + "/rules/../rules.key")] {
            for force in [false, true] {
                let output = try await CLIRunner.run(["keygen", "--private-key", first, "--public-key", second] + (force ? ["--force"] : []))
                #expect(output.status != 0)
                #expect(output.stderr.contains("give each key its own file"), "\(output.stderr)")
                #expect(!FileManager.default.fileExists(atPath: key.path))
            }
        }
    }

    @Test("keygen does not follow a symbolic link to a key")
    func keygenRefusesALink() async throws {
        let project = try TemporaryProject(["outside.txt": "keep\n"])
        defer { project.remove() }
        let link = project.url.appendingPathComponent("rules.key")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: project.url.appendingPathComponent("outside.txt").path)
        let output = try await CLIRunner.run(["keygen", "--private-key", link.path, "--force"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("symbolic link"), "\(output.stderr)")
        #expect(try String(contentsOf: project.url.appendingPathComponent("outside.txt"), encoding: .utf8) == "keep\n")
    }

    @Test("bundle signs rules/ and routes.lua only: not flow tests, annotations or notes")
    func bundleTakesRulesAndManifestOnly() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            "flows/auth.lua": "it('x', function() end)\n",
            "flowstack-types.lua": "---@meta\nfacts = {}\n",
            "notes.txt": "notes\n",
            "rules/notes.md": "not a rules file\n",
            "rules.key": "",
        ])
        defer { project.remove() }
        let key = project.url.appendingPathComponent("rules.key")
        try FileManager.default.removeItem(at: key)
        #expect(try await CLIRunner.run(["keygen", "--private-key", key.path]).status == 0)
        let output = project.url.appendingPathComponent("out.flowbundle")
        let bundle = try await CLIRunner.run([
            "bundle", project.path, "--key", key.path, "--version", "1.0", "--min-app", "1.0", "--expires", "2099-01-01",
            "--output", output.path,
        ])
        #expect(bundle.status == 0, "\(bundle.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: project.url.appendingPathComponent("bundle.json"))) as? [String: Any])
        #expect((manifest["files"] as? [String: String])?.keys.sorted() == ["routes.lua", "rules/auth.lua"])
        let archive = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect((archive["files"] as? [String: String])?.keys.sorted() == ["routes.lua", "rules/auth.lua"])
    }

    @Test("bundle refuses a rules file deeper than test and check read, naming it")
    func bundleRefusesTooDeep() async throws {
        let deep = "rules/" + Array(repeating: "d", count: 32).joined(separator: "/") + "/deep.lua"
        let project = try TemporaryProject(["rules/a.lua": "-- a\n", deep: "-- never tested\n"])
        defer { project.remove() }
        let key = project.url.appendingPathComponent(".rules.key")
        #expect(try await CLIRunner.run(["keygen", "--private-key", key.path]).status == 0)
        let bundle = try await CLIRunner.run([
            "bundle", project.path, "--key", key.path, "--version", "1.0", "--min-app", "1.0", "--expires", "2099-01-01",
        ])
        #expect(bundle.status != 0)
        #expect(bundle.stderr.contains(deep) && bundle.stderr.contains("33 folders deep"), "\(bundle.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.url.appendingPathComponent("bundle.json").path))
    }

    @Test("bundle --output writes into the file itself and refuses a symbolic link there")
    func bundleOutputRefusesALink() async throws {
        let project = try TemporaryProject(["rules/a.lua": "-- a\n", "target.txt": "keep\n"])
        defer { project.remove() }
        let key = project.url.appendingPathComponent(".rules.key")
        #expect(try await CLIRunner.run(["keygen", "--private-key", key.path]).status == 0)
        let link = project.url.appendingPathComponent("out.flowbundle")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: project.url.appendingPathComponent("target.txt").path)
        let bundle = try await CLIRunner.run([
            "bundle", project.path, "--key", key.path, "--version", "1.0", "--min-app", "1.0", "--expires", "2099-01-01",
            "--output", link.path,
        ])
        #expect(bundle.status != 0)
        #expect(bundle.stderr.contains("symbolic link") && bundle.stderr.contains("--output"), "\(bundle.stderr)")
        #expect(try String(contentsOf: project.url.appendingPathComponent("target.txt"), encoding: .utf8) == "keep\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != nil, "the link stays a link")
    }
}
