import FlowStackCore
import Foundation
import Testing

@Suite("Deep link requests")
struct DeepLinkRequestTests {
    @Test func customSchemeReadsTheHostAsTheFirstSegment() {
        let request = FlowLinkRequest("myapp://products/42")
        #expect(request.scheme == "myapp")
        #expect(request.host == nil)
        #expect(request.pathSegments == ["products", "42"])
        #expect(request.path == "/products/42")
    }

    @Test(arguments: ["myapp:///products/42", "myapp:/products/42", "myapp:products/42"])
    func customSchemeWithoutAHostUsesThePathAlone(link: String) {
        let request = FlowLinkRequest(link)
        #expect(request.scheme == "myapp")
        #expect(request.host == nil)
        #expect(request.pathSegments == ["products", "42"])
    }

    @Test func webLinkKeepsItsHostApart() {
        let request = FlowLinkRequest("https://example.com/products/42")
        #expect(request.isWebLink)
        #expect(request.host == "example.com")
        #expect(request.pathSegments == ["products", "42"])
    }

    @Test func schemeAndHostAreLowercasedButThePathIsNot() {
        let request = FlowLinkRequest("HTTPS://Example.COM/Products/ABC")
        #expect(request.scheme == "https")
        #expect(request.host == "example.com")
        #expect(request.pathSegments == ["Products", "ABC"])
        #expect(FlowLinkRequest("MyApp://Products/1").pathSegments == ["Products", "1"])
    }

    @Test func portsAndUserInfoAreSeparatedFromTheHost() {
        let request = FlowLinkRequest("https://user:secret@Example.com:8443/a?b=1")
        #expect(request.host == "example.com")
        #expect(request.port == 8443)
        #expect(request.pathSegments == ["a"])
        let ipv6 = FlowLinkRequest("http://[::1]:8080/x")
        #expect(ipv6.host == "[::1]")
        #expect(ipv6.port == 8080)
        let disguised = FlowLinkRequest("https://example.com@evil.com/products/1")
        #expect(disguised.host == "evil.com")
    }

    @Test func segmentsArePercentDecodedOneByOne() {
        let request = FlowLinkRequest("myapp://files/a%20b/caf%C3%A9/x%2Fy/%F0%9F%9A%80")
        #expect(request.pathSegments == ["files", "a b", "café", "x/y", "🚀"])
    }

    @Test func invalidEscapesAreKeptAsWritten() {
        let request = FlowLinkRequest("myapp://x/100%/%zz/%FF")
        #expect(request.pathSegments == ["x", "100%", "%zz", "%FF"])
    }

    @Test func unencodedUnicodeFromAFoundationURLIsDecoded() throws {
        let url = try #require(URL(string: "myapp://tags/%E6%97%A5%E6%9C%AC"))
        #expect(FlowLinkRequest(url).pathSegments == ["tags", "日本"])
    }

    @Test func trailingAndRepeatedSlashesAreCollapsed() {
        #expect(FlowLinkRequest("https://example.com//a///b/").pathSegments == ["a", "b"])
        #expect(FlowLinkRequest("https://example.com").pathSegments == [])
        #expect(FlowLinkRequest("https://example.com/").pathSegments == [])
    }

    @Test func dotSegmentsAreResolvedButEncodedDotsAreNot() {
        #expect(FlowLinkRequest("https://example.com/a/./b/../c").pathSegments == ["a", "c"])
        #expect(FlowLinkRequest("https://example.com/../../a").pathSegments == ["a"])
        #expect(FlowLinkRequest("myapp://products/../admin").pathSegments == ["products", "admin"])
        #expect(FlowLinkRequest("https://example.com/a/%2E%2E").pathSegments == ["a", ".."])
    }

    @Test func queryItemsAreDecodedAndPlusStaysAPlus() {
        let request = FlowLinkRequest("myapp://search?q=caf%C3%A9%20au+lait&flag&=dropped&empty=")
        #expect(request.queryItems.map(\.name) == ["q", "flag", "empty"])
        #expect(request.queryItems.map(\.value) == ["café au+lait", "", ""])
    }

    @Test func repeatedQueryNamesKeepTheLastValue() {
        let request = FlowLinkRequest("myapp://x?tab=a&tab=b&other=1&tab=c")
        #expect(request.queryItems.filter { $0.name == "tab" }.map(\.value) == ["a", "b", "c"])
        #expect(request.query == ["tab": "c", "other": "1"])
    }

    @Test func fragmentsAreIgnored() {
        let request = FlowLinkRequest("https://example.com/a/b?x=1#section/2?y=3")
        #expect(request.pathSegments == ["a", "b"])
        #expect(request.query == ["x": "1"])
        #expect(request.link == "https://example.com/a/b?x=1#section/2?y=3")
        #expect(FlowLinkRequest("myapp://#frag").pathSegments == [])
    }

    @Test func linksWithoutASchemeAreReadAsPaths() {
        let request = FlowLinkRequest("/products/42?tab=info")
        #expect(request.scheme == nil)
        #expect(request.host == nil)
        #expect(request.pathSegments == ["products", "42"])
        let protocolRelative = FlowLinkRequest("//Example.com/a")
        #expect(protocolRelative.scheme == nil)
        #expect(protocolRelative.host == "example.com")
        #expect(protocolRelative.pathSegments == ["a"])
    }

    @Test func foundationURLsAndStringsGiveTheSameRequest() throws {
        let text = "https://example.com:8080/a%2Fb/c?x=%20y#z"
        let url = try #require(URL(string: text))
        #expect(FlowLinkRequest(url) == FlowLinkRequest(text))
    }
}
