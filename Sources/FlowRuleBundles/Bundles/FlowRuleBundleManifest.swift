import FlowScript
import Foundation

/// The contents of a bundle's `bundle.json`: what the signature vouches for.
///
/// ```json
/// {
///   "createdAt" : "2025-06-01T09:30:00Z",
///   "expires" : "2025-12-31T00:00:00Z",
///   "files" : { "routes.lua" : "9f86d0…", "rules/auth.lua" : "60303a…" },
///   "format" : 1,
///   "minimumAppVersion" : "2.3",
///   "rollout" : 0.1,
///   "version" : "1.4.2"
/// }
/// ```
///
/// `rollout` (optional, a fraction from 0 to 1; absent: every device) stages the bundle: a
/// store installs it only where the device's bucket is below it (see
/// `FlowRuleBundleStore.rolloutUnit`).
///
/// Dates are ISO-8601 (`2025-12-31T00:00:00Z`; a plain `2025-12-31` is read as midnight UTC).
/// `files` maps every file of the bundle except `bundle.json`, `bundle.sig` and hidden files to
/// the lowercase hex SHA-256 of its bytes; paths are relative and `/`-separated.
package struct FlowRuleBundleManifest: Hashable, Sendable {
    /// The manifest format this library writes and reads.
    package static let currentFormat = 1

    /// The manifest format.
    package var format = FlowRuleBundleManifest.currentFormat
    /// The bundle's version; a loaded bundle is never replaced by an older one.
    package var version: FlowRuleBundleVersion
    /// The oldest app version the bundle's rules work with.
    package var minimumAppVersion: FlowRuleBundleVersion
    /// When the bundle stops being accepted.
    package var expires: Date
    /// When the bundle was signed.
    package var createdAt: Date
    /// Every file's relative path and the lowercase hex SHA-256 of its bytes.
    package var files: [String: String]
    /// The share of devices the bundle is for, from 0 to 1 (`nil`: every device).
    package var rollout: Double?

    /// The listed paths in lexical order (by their UTF-8 bytes, so every platform agrees).
    package var sortedPaths: [String] {
        files.keys.sorted(by: FlowRuleBundleManifest.lexicallyPrecedes)
    }

    /// The manifest as the exact bytes `write` signs: pretty-printed JSON with sorted keys.
    package func encoded() throws(FlowRuleBundleError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(self)
            data.append(0x0A)
            return data
        } catch {
            throw .signingFailed(detail: "the manifest could not be encoded: \(error)")
        }
    }

    /// Reads a manifest from `bundle.json` bytes, checking every path and hash it lists.
    ///
    /// `bundle` names the bundle in errors. Paths that leave the bundle (`..`, absolute paths)
    /// throw `pathEscapesBundle`; anything else malformed throws `malformedManifest`.
    package static func decode(_ data: Data, bundle: String) throws(FlowRuleBundleError) -> FlowRuleBundleManifest {
        let manifest: FlowRuleBundleManifest
        do {
            manifest = try JSONDecoder().decode(FlowRuleBundleManifest.self, from: data)
        } catch let error as DecodingError {
            throw .malformedManifest(bundle: bundle, detail: describe(error))
        } catch {
            throw .malformedManifest(bundle: bundle, detail: "\(error)")
        }
        if let rollout = manifest.rollout, !(0...1).contains(rollout) {
            throw .malformedManifest(bundle: bundle, detail: "rollout must be a fraction from 0 to 1, got \(rollout)")
        }
        for (path, hash) in manifest.files {
            try FlowRuleBundlePaths.checkListed(path, bundle: bundle)
            guard hash.utf8.count == 64, hash.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
                throw .malformedManifest(bundle: bundle, detail: "the hash of \(path) is not 64 lowercase hex digits of a SHA-256")
            }
        }
        return manifest
    }

    /// Orders paths by their UTF-8 bytes.
    package static func lexicallyPrecedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            return field(context) + context.debugDescription
        case .keyNotFound(let key, let context):
            return field(context) + "the field \"\(key.stringValue)\" is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return field(context) + "expected \(type)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func field(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? "" : "\(path): "
    }
}

extension FlowRuleBundleManifest: Codable {
    private enum CodingKeys: String, CodingKey {
        case format, version, minimumAppVersion, expires, createdAt, files, rollout
    }

    /// Decodes a manifest; dates are ISO-8601 text.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            format: try container.decode(Int.self, forKey: .format),
            version: try container.decode(FlowRuleBundleVersion.self, forKey: .version),
            minimumAppVersion: try container.decode(FlowRuleBundleVersion.self, forKey: .minimumAppVersion),
            expires: try Self.decodeDate(container, .expires),
            createdAt: try Self.decodeDate(container, .createdAt),
            files: try container.decode([String: String].self, forKey: .files),
            rollout: try container.decodeIfPresent(Double.self, forKey: .rollout)
        )
    }

    /// Encodes a manifest; dates are ISO-8601 text in UTC.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(version, forKey: .version)
        try container.encode(minimumAppVersion, forKey: .minimumAppVersion)
        try container.encode(Self.formatDate(expires), forKey: .expires)
        try container.encode(Self.formatDate(createdAt), forKey: .createdAt)
        try container.encode(files, forKey: .files)
        try container.encodeIfPresent(rollout, forKey: .rollout)
    }

    /// Whether the device whose rollout unit is `unit` is in the rollout: always without
    /// `rollout`; otherwise when its bucket (``rolloutBucket(unit:)``) is below `rollout × 10000`
    /// (no unit: never, but for a rollout of 1).
    package func includes(unit: String?) -> Bool {
        guard let rollout, rollout < 1 else { return true }
        guard let unit, !unit.isEmpty else { return false }
        return Double(rolloutBucket(unit: unit)) < rollout * 10_000
    }

    /// The device's bucket for this bundle, 0 to 9999: the experiments' hash
    /// (`FlowExperimentHash.bucket`) seeded with `"bundle:" + version + ":"`.
    package func rolloutBucket(unit: String) -> Int {
        FlowExperimentHash.bucket(seed: "bundle:\(version):", unit: unit)
    }

    private static func decodeDate(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = parseDate(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "\"\(text)\" is not an ISO-8601 date such as 2025-12-31T00:00:00Z"
            )
        }
        return date
    }

    /// A date as ISO-8601 text in UTC, whole seconds (`2025-12-31T00:00:00Z`).
    package static func formatDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Reads ISO-8601 text: a date and time with a zone (fractional seconds allowed) or a plain
    /// date (midnight UTC).
    package static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
