import Foundation

/// What a bundle store remembers across launches, in `state.json` (replaced atomically).
struct FlowRuleBundleStoreState: Codable, Equatable {
    /// The directory name (in `bundles/`) of the bundle in force.
    var current: String?
    /// The directory name of the bundle before it, kept for one-step rollback.
    var previous: String?
    /// The highest version ever installed: nothing older is installed again.
    var highestVersion: FlowRuleBundleVersion?
    /// The manifest SHA-256 of that version's bundle (the same version with other contents is refused).
    var highestManifestSHA256: String?
    /// Manifest SHA-256s of bundles rolled back from: never installed again.
    var withdrawn: [String] = []

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        current = try container.decodeIfPresent(String.self, forKey: .current)
        previous = try container.decodeIfPresent(String.self, forKey: .previous)
        highestVersion = try container.decodeIfPresent(FlowRuleBundleVersion.self, forKey: .highestVersion)
        highestManifestSHA256 = try container.decodeIfPresent(String.self, forKey: .highestManifestSHA256)
        withdrawn = try container.decodeIfPresent([String].self, forKey: .withdrawn) ?? []
    }

    /// The directory name of a bundle: its version and a unique suffix.
    static func directoryName(for version: FlowRuleBundleVersion) -> String {
        "\(version)-\(UUID().uuidString.lowercased())"
    }

    /// The version a bundle directory's name starts with.
    static func version(ofDirectory name: String) -> FlowRuleBundleVersion? {
        guard let dash = name.firstIndex(of: "-") else { return nil }
        return FlowRuleBundleVersion(String(name[..<dash]))
    }
}
