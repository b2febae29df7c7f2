import Foundation

/// A semantic-version-like number such as `1.4.2`, compared component by component as integers.
///
/// Rule bundles and apps carry one: a bundle's `version` must never go backwards (no rollback),
/// and its `minimumAppVersion` must not exceed the running app's version. Versions are one or
/// more dot-separated non-negative integers (`2`, `1.4`, `1.4.2`, `2024.06.1.7`); missing
/// trailing components count as zero, so `1.4` equals `1.4.0`, and `1.10` is newer than `1.9`.
/// Pre-release or build suffixes (`1.0-beta`) are not accepted: a bundle is either released or
/// it is not.
public struct FlowRuleBundleVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The numeric components as written, most significant first.
    package let components: [Int]

    /// Creates a version from its components; `nil` when there are none or one is negative.
    package init?(components: [Int]) {
        guard !components.isEmpty, components.allSatisfy({ $0 >= 0 }) else { return nil }
        self.components = components
    }

    /// Parses `1.4.2`-style text; `nil` when it is not one or more dot-separated integers.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else { return nil }
        var parsed: [Int] = []
        for part in trimmed.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.count <= 9, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Int(part) else { return nil }
            parsed.append(value)
        }
        self.init(components: parsed)
    }

    /// Parses `1.4.2`-style text, throwing a readable error naming `field` when it is malformed.
    package init(parsing text: String, field: String = "version") throws(FlowRuleBundleError) {
        guard let version = FlowRuleBundleVersion(text) else {
            throw .invalidVersion(field: field, text: text)
        }
        self = version
    }

    /// The version as written, such as `1.4.2`.
    public var description: String {
        components.map(String.init).joined(separator: ".")
    }

    /// The components without trailing zeros: equal versions have equal normalized components.
    private var normalized: ArraySlice<Int> {
        var end = components.count
        while end > 1, components[end - 1] == 0 { end -= 1 }
        return components[..<end]
    }

    /// Versions are equal when they differ only by trailing zero components (`1.4` == `1.4.0`).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.normalized == rhs.normalized
    }

    /// Hashes the normalized components, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Array(normalized))
    }

    /// Compares component by component as integers; missing components count as zero.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        let count = max(lhs.components.count, rhs.components.count)
        for index in 0..<count {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }
}

extension FlowRuleBundleVersion: Codable {
    /// Decodes a version from its `1.4.2` text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = FlowRuleBundleVersion(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(text)\" is not a version like 1.4.2 (dot-separated non-negative integers)"
            )
        }
        self = version
    }

    /// Encodes the version as its `1.4.2` text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
