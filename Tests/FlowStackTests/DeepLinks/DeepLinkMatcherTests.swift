import FlowStackCore
import Foundation
import Testing

@Suite("Deep link matcher")
struct DeepLinkMatcherTests {
    private func matcher(_ patterns: [String]) throws -> FlowLinkMatcher<String> {
        var matcher = FlowLinkMatcher<String>()
        for pattern in patterns { try matcher.add(pattern, pattern) }
        return matcher
    }

    @Test func customSchemeAndUniversalLinkMatchTheSamePattern() throws {
        let links = try matcher(["/products/:id"])
        for text in ["myapp://products/42", "myapp:///products/42", "https://example.com/products/42"] {
            let match = links.match(try #require(URL(string: text)))
            #expect(match?.handler == "/products/:id", "\(text)")
            #expect(match?.parameters == ["id": "42"], "\(text)")
        }
    }

    @Test func firstRegisteredMatchWins() throws {
        let links = try matcher(["/products/featured", "/products/:id", "/products/*"])
        #expect(links.match("myapp://products/featured")?.handler == "/products/featured")
        #expect(links.match("myapp://products/featured")?.index == 0)
        #expect(links.match("myapp://products/7")?.handler == "/products/:id")
        #expect(links.match("myapp://products/7/reviews")?.handler == "/products/*")
        #expect(links.match("myapp://products")?.parameters == ["*": ""])

        let reversed = try matcher(["/products/*", "/products/:id", "/products/featured"])
        #expect(reversed.match("myapp://products/featured")?.handler == "/products/*")
        #expect(reversed.match("myapp://products/featured")?.parameters == ["*": "featured"])
    }

    @Test func queryItemsJoinParametersAndPathParametersWin() throws {
        let links = try matcher(["/products/:id", "/promo/*"])
        let product = links.match("myapp://products/42?id=99&tab=reviews&tab=specs&ref=mail")
        #expect(product?.parameters == ["id": "42", "tab": "specs", "ref": "mail"])
        let promo = links.match("myapp://promo/spring/sale?*=ignored&code=A%2BB")
        #expect(promo?.parameters == ["*": "spring/sale", "code": "A+B"])
    }

    @Test func parametersArePercentDecoded() throws {
        let links = try matcher(["/files/:name/*"])
        let match = links.match("myapp://files/my%20report%2F2025/caf%C3%A9/%E2%9C%93")
        #expect(match?.parameters == ["name": "my report/2025", "*": "café/✓"])
    }

    @Test func trailingSlashesAndFragmentsDoNotMatter() throws {
        let links = try matcher(["/settings"])
        #expect(links.match("myapp://settings/")?.handler == "/settings")
        #expect(links.match("https://example.com/settings//#privacy")?.handler == "/settings")
    }

    @Test func literalsAreCaseSensitiveButSchemesAndHostsAreNot() throws {
        let links = try matcher(["/settings"])
        let policy = FlowLinkPolicy(allowedSchemes: ["https"], allowedHosts: ["example.com"])
        #expect(links.resolve("HTTPS://EXAMPLE.com/settings", policy: policy).match != nil)
        #expect(links.resolve("https://example.com/Settings", policy: policy).match == nil)
    }

    @Test func resolveRejectsBeforeMatching() throws {
        let links = try matcher(["/products/:id"])
        let policy = FlowLinkPolicy(allowedSchemes: ["myapp", "https"], allowedHosts: ["example.com"])
        #expect(
            links.resolve(try #require(URL(string: "ftp://example.com/products/1")), policy: policy)
                == .rejected(reason: "scheme 'ftp' is not allowed (allowed: myapp, https)")
        )
        #expect(
            links.resolve("https://evil.com/products/1", policy: policy)
                == .rejected(reason: "host 'evil.com' is not allowed (allowed: example.com)")
        )
        let allowed = links.resolve("https://example.com/products/1", policy: policy)
        #expect(allowed.match?.parameters == ["id": "1"])
        #expect(allowed.reason == nil)
    }

    @Test("an unhandled link names its path and each pattern tried, with why it did not match")
    func unhandledLinksNameTheirPath() throws {
        let links = try matcher(["/products/:id", "/promo/*"])
        #expect(
            links.resolve("myapp://products/1/extra%20bit")
                == .unhandled(reason: "no deep link pattern matches path '/products/1/extra bit' "
                    + "(tried '/products/:id': the path has 3 segments, the pattern 2; "
                    + "'/promo/*': segment 1 is 'products', the pattern wants 'promo')")
        )
        #expect(
            FlowLinkMatcher<Int>().resolve("myapp://x").reason
                == "no deep link pattern matches path '/x' (no patterns are registered)"
        )
        let many = try matcher((1...7).map { "/p\($0)" })
        #expect(many.resolve("myapp://none").reason?.hasSuffix("'/p5': segment 1 is 'none', the pattern wants 'p5'; and 2 more)") == true)
        #expect(try matcher(["/a/*"]).resolve("myapp://").reason
            == "no deep link pattern matches path '/' (tried '/a/*': the path has 0 segments, the pattern at least 1)")
    }

    @Test func aFailedAddRegistersNothing() throws {
        var links = try matcher(["/a"])
        #expect(throws: FlowLinkPatternError(pattern: "/b/*/c", kind: .wildcardNotLast)) {
            try links.add("/b/*/c", "bad")
        }
        #expect(links.count == 1)
        #expect(links.registrations.map(\.handler) == ["/a"])
    }

    @Test func registrationsKeepTheirSourceLocation() throws {
        var links = FlowLinkMatcher<Int>()
        try links.add("/a/:x", 1, file: "rules/links.lua", line: 12)
        links.add(try FlowLinkPattern("/b"), 2)
        #expect(links.registrations.map(\.location) == [FlowLinkSourceLocation(file: "rules/links.lua", line: 12), nil])
        #expect(links.match("myapp://a/1")?.location?.description == "rules/links.lua:12")
        links.removeAll()
        #expect(links.isEmpty)
    }

    @Test func matchesCarryTheNormalizedRequest() throws {
        let links = try matcher(["/a"])
        let match = try #require(links.match("HTTPS://Example.com:8080/a?x=1"))
        #expect(match.request.host == "example.com")
        #expect(match.request.port == 8080)
        #expect(match.pattern == (try FlowLinkPattern("/a")))
    }

    @Test func matchersAreSendableValues() async throws {
        let links = try matcher(["/products/:id"])
        let handler = await Task.detached { links.match("myapp://products/3")?.handler }.value
        #expect(handler == "/products/:id")
        var copy = links
        try copy.add("/other", "/other")
        #expect(links.count == 1)
        #expect(copy != links)
    }
}
