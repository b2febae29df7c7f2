extension FlowLinkMatcher {
    /// The registered patterns that can never be the first match, in registration order.
    ///
    /// A pattern is reported as a duplicate when an earlier one has the same shape
    /// (`/a/:y` after `/a/:x`), and as shadowed when earlier patterns, alone or together,
    /// match every path it matches (`/products/:id` after `/products/*`; `/*` after `/` and
    /// `/:x/*`). Each pattern is reported at most once.
    public var diagnostics: [FlowLinkDiagnostic] {
        var result: [FlowLinkDiagnostic] = []
        let patterns = registrations.map(\.pattern)
        for index in patterns.indices {
            let pattern = patterns[index]
            let before = Array(patterns[..<index])
            guard pattern.isCovered(by: before) else { continue }
            let subject = reference(index)
            if let twin = before.firstIndex(where: { $0.hasSameShape(as: pattern) }) {
                result.append(duplicate(subject, of: reference(twin)))
            } else if let single = before.firstIndex(where: { pattern.isCovered(by: $0) }) {
                result.append(shadowed(subject, by: [reference(single)]))
            } else {
                let cover = minimalCover(of: pattern, among: Array(before.indices))
                result.append(shadowed(subject, by: cover.map(reference)))
            }
        }
        return result
    }

    private func reference(_ index: Int) -> FlowLinkPatternReference {
        let registration = registrations[index]
        return FlowLinkPatternReference(index: index, pattern: registration.pattern, location: registration.location)
    }

    /// Drops covering patterns, latest first, while the rest still cover `pattern`.
    private func minimalCover(of pattern: FlowLinkPattern, among candidates: [Int]) -> [Int] {
        var kept = candidates
        for candidate in candidates.reversed() {
            let without = kept.filter { $0 != candidate }
            if pattern.isCovered(by: without.map { registrations[$0].pattern }) { kept = without }
        }
        return kept
    }

    private func duplicate(_ subject: FlowLinkPatternReference, of twin: FlowLinkPatternReference) -> FlowLinkDiagnostic {
        let sameText = subject.pattern == twin.pattern
        let what = sameText ? "is registered twice" : "matches the same paths as"
        let message = sameText
            ? "deep link \(subject) \(what): \(twin) was registered first and always wins; remove one of them"
            : "deep link \(subject) \(what) \(twin), which was registered first and always wins; "
                + "remove one of them or change its path"
        return FlowLinkDiagnostic(kind: .duplicate, subject: subject, earlier: [twin], message: message)
    }

    private func shadowed(_ subject: FlowLinkPatternReference, by earlier: [FlowLinkPatternReference]) -> FlowLinkDiagnostic {
        let message: String
        if earlier.count == 1 {
            message = "deep link \(subject) is never matched: \(earlier[0]), registered earlier, "
                + "matches every path it matches; register '\(subject.pattern)' before it, or remove it"
        } else {
            let names = earlier.map(\.description).joined(separator: ", ")
            message = "deep link \(subject) is never matched: together, \(names), registered earlier, "
                + "match every path it matches; register '\(subject.pattern)' before them, or remove it"
        }
        return FlowLinkDiagnostic(kind: .shadowed, subject: subject, earlier: earlier, message: message)
    }
}
