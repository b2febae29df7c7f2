import FlowStackCore
import Testing

@Suite("Deep link diagnostics")
struct DeepLinkDiagnosticsTests {
    private func diagnostics(_ patterns: [String]) throws -> [FlowLinkDiagnostic] {
        var matcher = FlowLinkMatcher<Int>()
        for (index, pattern) in patterns.enumerated() { try matcher.add(pattern, index) }
        return matcher.diagnostics
    }

    private func summary(_ diagnostics: [FlowLinkDiagnostic]) -> [String] {
        diagnostics.map { "\($0.kind) \($0.subject.index) by \($0.earlier.map(\.index))" }
    }

    @Test func orderedPatternsHaveNoDiagnostics() throws {
        let clean = try diagnostics(["/products/featured", "/products/:id", "/products/*", "/", "/:section/*"])
        #expect(clean.isEmpty, "\(clean)")
    }

    @Test func sameShapeWithOtherParameterNamesIsADuplicate() throws {
        let found = try diagnostics(["/a/:x", "/b", "/a/:y"])
        #expect(summary(found) == ["duplicate 2 by [0]"])
        #expect(found[0].severity == .warning)
        #expect(found[0].message == "deep link '/a/:y' (#3) matches the same paths as '/a/:x' (#1), "
            + "which was registered first and always wins; remove one of them or change its path")
    }

    @Test func identicalPatternIsReportedAsRegisteredTwice() throws {
        let found = try diagnostics(["/settings/", "/settings"])
        #expect(summary(found) == ["duplicate 1 by [0]"])
        #expect(found[0].message.contains("is registered twice"))
    }

    @Test func wildcardBeforeParameterShadowsIt() throws {
        let found = try diagnostics(["/products/*", "/products/:id"])
        #expect(summary(found) == ["shadowed 1 by [0]"])
        #expect(found[0].message == "deep link '/products/:id' (#2) is never matched: '/products/*' (#1), "
            + "registered earlier, matches every path it matches; register '/products/:id' before it, or remove it")
    }

    @Test func parameterBeforeLiteralShadowsIt() throws {
        #expect(summary(try diagnostics(["/a/:x", "/a/b"])) == ["shadowed 1 by [0]"])
        #expect(summary(try diagnostics(["/:x/:y", "/a/b", "/a/*"])) == ["shadowed 1 by [0]"])
        #expect(summary(try diagnostics(["/*", "/", "/anything/at/all"])) == ["shadowed 1 by [0]", "shadowed 2 by [0]"])
    }

    @Test func wildcardIsNotShadowedByFixedLengthPatterns() throws {
        #expect(try diagnostics(["/a/:x", "/a", "/a/*"]).isEmpty)
        #expect(try diagnostics(["/a/b/:c", "/a/*"]).isEmpty)
    }

    @Test func patternsCanBeShadowedOnlyTogether() throws {
        let found = try diagnostics(["/", "/docs", "/:first/*", "/*"])
        #expect(summary(found) == ["shadowed 3 by [0, 2]"])
        let message = try #require(found.first?.message)
        #expect(message.contains("together, '/' (#1), '/:first/*' (#3), registered earlier"))
        #expect(message.contains("before them"))
    }

    @Test func messagesNameSourceLocations() throws {
        var matcher = FlowLinkMatcher<Int>()
        try matcher.add("/promo/*", 1, file: "rules/links.lua", line: 3)
        try matcher.add("/promo/:code", 2, file: "rules/links.lua", line: 9)
        let found = matcher.diagnostics
        #expect(found.count == 1)
        #expect(found.first?.location == FlowLinkSourceLocation(file: "rules/links.lua", line: 9))
        #expect(found.first?.earlier.first?.location?.description == "rules/links.lua:3")
        #expect(found.first?.message.hasPrefix("deep link '/promo/:code' (#2, rules/links.lua:9) is never matched: "
            + "'/promo/*' (#1, rules/links.lua:3)") == true)
        #expect(found.first?.description.hasPrefix("warning: deep link") == true)
    }

    @Test func coverageGivesAConcreteCounterexample() throws {
        let target = try FlowLinkPattern("/a/:x/*")
        let earlier = [try FlowLinkPattern("/a/b/*"), try FlowLinkPattern("/a/:y")]
        let witness = try #require(target.uncoveredPath(by: earlier))
        #expect(target.matches(witness))
        #expect(!earlier.contains { $0.matches(witness) })
        #expect(try target.isCovered(by: [FlowLinkPattern("/a/*")]))
        #expect(try FlowLinkPattern("/a/b").isCovered(by: FlowLinkPattern("/a/b")))
    }
}
