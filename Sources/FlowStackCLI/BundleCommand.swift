import ArgumentParser
import FlowRuleBundles
import FlowScript
import Foundation

/// `flowstack bundle DIR`: signs a rules directory for shipping over the air.
struct BundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Sign a rules directory as a bundle an app can load over the air.",
        discussion: """
            Hashes the project's rules (the *.lua files below DIR/rules/, hidden
            files excepted) and its route manifest (DIR/routes.lua) into
            DIR/bundle.json with the bundle's version, the oldest app version
            that may load it and its expiry, and signs it into DIR/bundle.sig
            with the private key. Nothing else of DIR is signed or shipped:
            flow tests, generated annotations (flowstack types --output) and
            notes stay out. Apps load it with engine.loadBundle(at:verifier:),
            which refuses a bad signature, a changed, missing or added rules
            file, an expired bundle, an app that is too old, or a rollback.

            Limits (the same in every app): at most 4096 files, 8 MiB per file,
            12 MiB together, 32 folders deep, and a 16 MiB archive; a project
            over one is refused and nothing is written.

            With --rollout F (a fraction from 0 to 1, such as 0.1) the bundle is
            staged: an app's FlowRuleBundleStore installs it only where the
            device's bucket, fnv1a32(str(fnv1a32("bundle:" + version + ":" +
            unit))) % 10000 for the store's rolloutUnit, is below F × 10000.
            Publishing the same version again with the same rules and a higher
            --rollout widens it: devices already in keep it, the newly covered
            ones install it.

            With --output FILE it also writes the signed bundle as one archive
            file (JSON), the file to publish for FlowRuleBundleUpdater /
            FlowRuleBundleStore.install(data:) to download and install.

            Key handling: the private key signs on the developer's machine or in
            CI only (keep it in a secrets store, never in the repository); the
            app embeds only the public key. An app cannot sign, and a leaked app
            binary cannot be used to publish rules.

            Examples:
              flowstack keygen --private-key rules.key --public-key rules.pub
              flowstack bundle Scripts --key rules.key --version 1.4.0 \\
                  --min-app 2.0 --expires 2027-06-01
              flowstack bundle Scripts --key rules.key --version 1.4.1 \\
                  --min-app 2.0 --expires 2027-06-01 --output rules-1.4.1.flowbundle
              flowstack bundle Scripts --key rules.key --version 1.5.0 \\
                  --min-app 2.0 --expires 2027-06-01 --rollout 0.1 --output rules-1.5.0.flowbundle
            """
    )

    @OptionGroup var project: ProjectArgument

    @Option(help: ArgumentHelp("The file holding the base64 private key (from `flowstack keygen`).", valueName: "FILE"))
    var key: String

    @Option(help: "The bundle's version, such as 1.4.0 (an app never loads an older one after a newer).")
    var version: String

    @Option(help: "The oldest app version that may load the bundle, such as 2.0.")
    var minApp: String

    @Option(help: ArgumentHelp("When the bundle expires: a date (2027-06-01) or an ISO-8601 date and time.", valueName: "DATE"))
    var expires: String

    @Option(help: ArgumentHelp("Also write the signed bundle as one archive file, to publish for apps to download.", valueName: "FILE"))
    var output: String?

    @Option(help: ArgumentHelp("Stage the bundle: the share of devices that install it, a fraction from 0 to 1 (such as 0.1).", valueName: "F"))
    var rollout: Double?

    mutating func run() async throws {
        let directory = project.url
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("no directory at \(project.directory): pass the rules project to sign, as in `flowstack bundle Scripts --key rules.key ...`")
        }
        let hasRules = FileManager.default.fileExists(atPath: directory.appendingPathComponent(FlowRuleBundle.projectRulesFolder).path)
        let hasManifest = FileManager.default.fileExists(atPath: directory.appendingPathComponent(FlowRuleBundle.projectManifestPath).path)
        guard hasRules || hasManifest else {
            throw CommandFailure(
                "\(project.directory) has no rules/ folder and no routes.lua, so there is nothing to sign: pass the rules project, as in `flowstack bundle Scripts --key rules.key ...`")
        }
        guard let expiry = FlowRuleBundleManifest.parseDate(expires) else {
            throw CommandFailure("--expires \"\(expires)\" is not a date: write it as 2027-06-01 or 2027-06-01T12:00:00Z")
        }
        if let rollout, !(rollout >= 0 && rollout <= 1) {
            throw CommandFailure("--rollout \(rollout) is not a share of devices: give a fraction from 0 to 1, as in --rollout 0.1 (10%)")
        }
        do {
            let signingKey = try Self.signingKey(at: key)
            let manifest = try FlowRuleBundle.write(
                directory: directory, privateKey: signingKey,
                version: try FlowRuleBundleVersion(parsing: version, field: "--version"),
                minimumAppVersion: try FlowRuleBundleVersion(parsing: minApp, field: "--min-app"),
                expires: expiry, contents: .rulesAndManifest, rollout: rollout)
            Terminal.write("""
                signed \(project.directory): version \(manifest.version), for apps \(manifest.minimumAppVersion) and later, \
                expires \(FlowRuleBundleManifest.formatDate(manifest.expires)), \(manifest.files.count) files\
                \(manifest.rollout.map { ", rolled out to \(FlowRuleBundleStoreError.percent($0)) of devices" } ?? "")
                wrote \(project.directory)/\(FlowRuleBundle.manifestFileName) and \(project.directory)/\(FlowRuleBundle.signatureFileName)

                """)
            if let output {
                let archive = try FlowRuleBundleArchive(directory: directory)
                try OutputFile.write(archive.encoded(), to: output, option: "--output")
                Terminal.write("wrote \(output) (\(archive.files.count) files, archive \(archive.tag))\n")
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch let error as FlowRuleBundleError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// The private key at `path`; a `.pub` file is refused: both keys are 32 bytes of base64, and
    /// a bundle signed with the public key as if it were the private one is refused by every app.
    static func signingKey(at path: String) throws -> FlowRuleBundleSigningKey {
        if URL(fileURLWithPath: path).pathExtension == "pub" {
            throw CommandFailure(
                "--key \(path) looks like the public key (a .pub file): sign with the private key, the file "
                    + "`flowstack keygen --private-key FILE` wrote (as in --key rules.key)")
        }
        let near = ProjectArgument.nearFile(to: path)
        if !near.isEmpty {
            throw CommandFailure("no key file at \(path)\(near): pass the private key file `flowstack keygen --private-key FILE` wrote")
        }
        return try FlowRuleBundleSigningKey(contentsOf: URL(fileURLWithPath: path))
    }
}
