import FlowLua
import FlowStackCore
import Foundation

/// One experiment the manifest declares (`experiments = { paywallStyle = { variants = {
/// control = 50, annualFirst = 50 }, salt = "2026-12" } }`): its variants with their weights in
/// percent, and the salt that seeds its assignment.
public struct FlowExperiment: Hashable, Sendable {
    /// One arm of an experiment.
    public struct Variant: Hashable, Sendable {
        /// The variant's name, as rules read it (`experiments.paywallStyle == "annualFirst"`).
        public var name: String
        /// Its share of the units, in whole percent (0 to 100).
        public var weight: Int

        /// Creates a variant.
        public init(name: String, weight: Int) {
            self.name = name
            self.weight = weight
        }
    }

    /// The experiment's name (the key under `experiments`).
    public var name: String
    /// The variants in ascending byte order of their names: the order their ranges are laid
    /// out in (see ``FlowExperimentHash``).
    public var variants: [Variant]
    /// The salt: changing it reassigns every unit.
    public var salt: String

    /// The name that stands for "not enrolled" where a name is needed (flows'
    /// `app.experiments{ x = "none" }`, exploration's reports); no variant may take it.
    package static let notEnrolled = "none"

    /// Creates an experiment; `variants` are put in ascending byte order of their names.
    public init(name: String, variants: [Variant], salt: String) {
        self.name = name
        self.variants = variants.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        self.salt = salt
    }

    /// The variant names, in ascending byte order.
    package var variantNames: [String] { variants.map(\.name) }

    /// The share of units enrolled, in percent (the sum of the weights).
    package var enrolledPercent: Int { variants.reduce(0) { $0 + $1.weight } }

    /// The variant the unit `unit` is assigned, or `nil` when its bucket falls beyond the sum
    /// of the weights (not enrolled). Audiences and overrides are the engine's: this is the
    /// hash alone.
    public func variant(forUnit unit: String) -> String? {
        let bucket = FlowExperimentHash.bucket(seed: "\(name):\(salt):", unit: unit)
        var end = 0
        for variant in variants {
            end += variant.weight * 100
            if bucket < end { return variant.name }
        }
        return nil
    }
}

/// The hash experiments and staged rollouts assign with: GrowthBook's published FNV-1a 32-bit
/// "v2" bucketing, so a server or a notebook recomputes any assignment.
///
/// `bucket(seed:unit:)` is `fnv1a32(String(fnv1a32(seed + unit))) % 10000`, where `fnv1a32` is
/// FNV-1a, 32 bits (offset basis 2166136261, prime 16777619), over UTF-8 bytes, and
/// `String(h)` is the decimal text of the unsigned hash, no sign and no leading zeros. An
/// experiment's seed is `name + ":" + salt + ":"`; a bundle's is `"bundle:" + version + ":"`.
public enum FlowExperimentHash {
    static let offsetBasis: UInt32 = 2_166_136_261
    static let prime: UInt32 = 16_777_619

    /// FNV-1a, 32 bits, over the bytes of `text`'s UTF-8.
    package static func fnv1a32(_ text: String) -> UInt32 {
        fnv1a32(text.utf8, from: offsetBasis)
    }

    /// FNV-1a, 32 bits, continued from `hash` over `bytes` (FNV is a stream: hashing a
    /// concatenation is hashing its parts one after the other).
    static func fnv1a32(_ bytes: String.UTF8View, from hash: UInt32) -> UInt32 {
        var hash = hash
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// The unit's bucket for `seed`, from 0 to 9999: `fnv1a32(String(fnv1a32(seed + unit))) % 10000`.
    public static func bucket(seed: String, unit: String) -> Int {
        let first = fnv1a32(unit.utf8, from: fnv1a32(seed.utf8, from: offsetBasis))
        // The decimal digits of `first`, most significant first, hashed as ASCII.
        var divisor: UInt32 = 1
        while first / divisor >= 10 { divisor *= 10 }
        var second = offsetBasis
        while divisor > 0 {
            second = (second ^ (0x30 + first / divisor % 10)) &* prime
            divisor /= 10
        }
        return Int(second % 10_000)
    }
}

extension FlowManifest {
    /// Checks an experiment name against the declared experiments.
    package func problem(withExperiment name: String) -> String? {
        if experiments[name] != nil { return nil }
        let near = FlowSuggestion.closest(to: name, in: experiments.keys.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown experiment '\(name)'"
            + (near.isEmpty ? " (not declared in \(file): add it to experiments there)" : near + " (declared in \(file))")
    }

    /// Checks a variant name of a declared experiment (`"none"` stands for not enrolled).
    package func problem(withVariant variant: String, of name: String) -> String? {
        if let problem = problem(withExperiment: name) { return problem }
        let names = experiments[name]!.variantNames
        if variant == FlowExperiment.notEnrolled || names.contains(variant) { return nil }
        let near = FlowSuggestion.closest(to: variant, in: names).map { " (did you mean '\($0)'?)" } ?? ""
        return "experiment '\(name)' has no variant '\(variant)'\(near); its variants are \(names.joined(separator: ", ")), and \"none\" is not enrolled"
    }

    /// Reads `experiments = { name = { variants = { a = 50, b = 50 }, salt = "..." } }`.
    static func parseExperiments(
        _ value: LuaValue, fail: (String, [String]) -> FlowScriptError
    ) throws(FlowScriptError) -> [String: FlowExperiment] {
        let shape = "experiments = { paywallStyle = { variants = { control = 50, annualFirst = 50 }, salt = \"2026-12\" } }"
        guard case .table(let table) = value, table.array.isEmpty else {
            throw fail("experiments must map names to declarations, as \(shape)", [])
        }
        var result: [String: FlowExperiment] = [:]
        let keys = ["variants", "salt"]
        for (key, body) in table.fields.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            guard case .string(let name) = key, name.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_]*/) != nil else {
                throw fail("experiment names must be identifiers (letters, digits, _), got \(key)", [])
            }
            guard case .table(let entry) = body, entry.array.isEmpty else {
                throw fail("experiment '\(name)' must be a table, as \(shape)", [name])
            }
            for case .string(let stray) in entry.fields.keys where !keys.contains(stray) {
                let hint = FlowSuggestion.closest(to: stray, in: keys).map { " (did you mean '\($0)'?)" } ?? ""
                throw fail("experiment '\(name)': unknown key '\(stray)'\(hint); an experiment has variants and salt", [name, stray])
            }
            guard case .string(let salt)? = entry.fields["salt"] else {
                throw fail(
                    "experiment '\(name)': salt must be a string (any text, as salt = \"2026-12\"; changing it reassigns every unit)",
                    [name, entry.fields["salt"] == nil ? name : "salt"])
            }
            guard case .table(let list)? = entry.fields["variants"], list.array.isEmpty, !list.fields.isEmpty else {
                throw fail(
                    "experiment '\(name)': variants must map each variant's name to its weight in percent, as variants = { control = 50, annualFirst = 50 }",
                    [name, entry.fields["variants"] == nil ? name : "variants"])
            }
            var variants: [FlowExperiment.Variant] = []
            for (variantKey, weight) in list.fields {
                guard case .string(let variant) = variantKey, !variant.isEmpty else {
                    throw fail("experiment '\(name)': variant names must be non-empty strings, got \(variantKey)", [name, "variants"])
                }
                if variant == FlowExperiment.notEnrolled {
                    throw fail("experiment '\(name)': no variant may be named \"none\" (it stands for not enrolled); rename it", [name, "variants", variant])
                }
                guard case .integer(let percent) = weight, (0...100).contains(percent) else {
                    throw fail(
                        "experiment '\(name)': variant '\(variant)' must weigh a whole percent from 0 to 100, got \(weight)",
                        [name, "variants", variant])
                }
                variants.append(FlowExperiment.Variant(name: variant, weight: Int(percent)))
            }
            let experiment = FlowExperiment(name: name, variants: variants, salt: salt)
            if experiment.enrolledPercent > 100 {
                let sum = experiment.variants.map { "\($0.name) \($0.weight)" }.joined(separator: " + ")
                throw fail(
                    "experiment '\(name)': the weights add up to \(experiment.enrolledPercent)% (\(sum)); they must add up to at most 100 (the rest is not enrolled)",
                    [name, "variants"])
            }
            result[name] = experiment
        }
        return result
    }
}
