import FlowStackCore
import Testing

@Suite("Deep link policy")
struct DeepLinkPolicyTests {
    private let policy = FlowLinkPolicy(allowedSchemes: ["myapp", "https"], allowedHosts: ["example.com"])

    @Test func disallowedSchemeIsRejectedWithTheAllowedList() {
        #expect(
            policy.rejectionReason(for: FlowLinkRequest("ftp://example.com/products/1"))
                == "scheme 'ftp' is not allowed (allowed: myapp, https)"
        )
        #expect(
            policy.rejectionReason(for: FlowLinkRequest("http://example.com/products/1"))
                == "scheme 'http' is not allowed (allowed: myapp, https)"
        )
    }

    @Test func disallowedHostIsRejectedWithTheAllowedList() {
        #expect(
            policy.rejectionReason(for: FlowLinkRequest("https://evil.com/products/1"))
                == "host 'evil.com' is not allowed (allowed: example.com)"
        )
        #expect(
            policy.rejectionReason(for: FlowLinkRequest("https://example.com@evil.com/products/1"))
                == "host 'evil.com' is not allowed (allowed: example.com)"
        )
        #expect(!policy.allows(FlowLinkRequest("https://sub.example.com/a")), "hosts are compared exactly")
    }

    @Test func allowedLinksPassWhateverTheirCase() {
        #expect(policy.allows(FlowLinkRequest("HTTPS://EXAMPLE.COM:443/products/1")))
        #expect(policy.allows(FlowLinkRequest("MyApp://products/1")))
    }

    @Test func hostsDoNotApplyToCustomSchemes() {
        #expect(policy.allows(FlowLinkRequest("myapp://anything/at/all")))
        #expect(policy.allows(FlowLinkRequest("myapp:///products/1")))
    }

    @Test func webLinksWithoutAHostAreRejectedWhenHostsAreLimited() {
        #expect(
            policy.rejectionReason(for: FlowLinkRequest("https:///products/1"))
                == "link 'https:///products/1' has no host (allowed: example.com)"
        )
    }

    @Test func schemelessLinksAreRejectedWhenSchemesAreLimited() {
        #expect(
            policy.rejectionReason(for: FlowLinkRequest("/products/1"))
                == "link '/products/1' has no scheme (allowed: myapp, https)"
        )
        let hostsOnly = FlowLinkPolicy(allowedHosts: ["example.com"])
        #expect(hostsOnly.allows(FlowLinkRequest("/products/1")))
        #expect(!hostsOnly.allows(FlowLinkRequest("//evil.com/products/1")))
    }

    @Test func emptyListsAcceptAnything() {
        for link in ["ftp://evil.com/x", "/x", "whatever:stuff", "https://any.host/"] {
            #expect(FlowLinkPolicy.allowAll.rejectionReason(for: FlowLinkRequest(link)) == nil, "\(link)")
        }
    }

    @Test func entriesAreNormalized() {
        let written = FlowLinkPolicy(
            allowedSchemes: ["MyApp://", " HTTPS: ", "myapp", ""],
            allowedHosts: ["Example.COM", "example.com "]
        )
        #expect(written.allowedSchemes == ["myapp", "https"])
        #expect(written.allowedHosts == ["example.com"])
        #expect(written == policy)
    }
}
