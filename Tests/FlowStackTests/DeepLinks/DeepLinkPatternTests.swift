import FlowStackCore
import Testing

@Suite("Deep link patterns")
struct DeepLinkPatternTests {
    private func pattern(_ text: String) throws -> FlowLinkPattern {
        try FlowLinkPattern(text)
    }

    private func parseError(_ text: String) -> FlowLinkPatternError? {
        do {
            _ = try FlowLinkPattern(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func literalPatternMatchesOnlyItsPath() throws {
        let settings = try pattern("/settings")
        #expect(settings.segments == [.literal("settings")])
        #expect(settings.match(["settings"]) == [:])
        #expect(settings.match([]) == nil)
        #expect(settings.match(["settings", "more"]) == nil)
        #expect(settings.match(["Settings"]) == nil, "literals are case-sensitive")
    }

    @Test func parametersCaptureOneSegmentEach() throws {
        let posts = try pattern("/users/:uid/posts/:pid")
        #expect(posts.parameterNames == ["uid", "pid"])
        #expect(posts.match(["users", "7", "posts", "99"]) == ["uid": "7", "pid": "99"])
        #expect(posts.match(["users", "7", "posts"]) == nil)
        #expect(posts.match(["users", "7", "comments", "99"]) == nil)
    }

    @Test(arguments: [
        ([String](), ""),
        (["spring"], "spring"),
        (["spring", "2025", "sale"], "spring/2025/sale"),
    ])
    func wildcardMatchesZeroOrMoreSegments(path: [String], captured: String) throws {
        let promo = try pattern("/promo/*")
        #expect(promo.hasWildcard)
        #expect(promo.match(["promo"] + path) == ["*": captured])
        #expect(promo.match(["other"] + path) == nil)
    }

    @Test func rootPatternMatchesTheEmptyPath() throws {
        let root = try pattern("/")
        #expect(root.segments.isEmpty)
        #expect(root.description == "/")
        #expect(root.match([]) == [:])
        #expect(root.match(["a"]) == nil)
        let everything = try pattern("/*")
        #expect(everything.match([]) == ["*": ""])
        #expect(everything.match(["a", "b"]) == ["*": "a/b"])
    }

    @Test func trailingAndRepeatedSlashesAreIgnored() throws {
        let messy = try pattern("//products//:id/")
        #expect(messy == (try pattern("/products/:id")))
        #expect(messy.description == "/products/:id")
        #expect(messy.source == "//products//:id/")
    }

    @Test func shapeIgnoresParameterNames() throws {
        #expect(try pattern("/a/:x").hasSameShape(as: pattern("/a/:y")))
        #expect(try pattern("/a/:x") != pattern("/a/:y"))
        #expect(try !pattern("/a/:x").hasSameShape(as: pattern("/a/*")))
        #expect(try !pattern("/a/:x").hasSameShape(as: pattern("/a/x")))
    }

    @Test func unicodeAndPunctuationLiteralsAreAccepted() throws {
        let cafe = try pattern("/café/menu-2025_v1.json/@me")
        #expect(cafe.match(["café", "menu-2025_v1.json", "@me"]) == [:])
    }

    @Test func errorsSayWhatToDo() {
        #expect(parseError("")?.kind == .empty)
        #expect(parseError("")?.message.contains("write '/'") == true)

        let noSlash = parseError("products/:id")
        #expect(noSlash?.kind == .missingLeadingSlash)
        #expect(noSlash?.message.contains("write '/products/:id'") == true)

        let emptyName = parseError("/products/:")
        #expect(emptyName?.kind == .emptyParameterName)
        #expect(emptyName?.message.contains("'/products/:'") == true)

        #expect(parseError("/a/:1st")?.kind == .invalidParameterName("1st"))
        #expect(parseError("/a/:user-id")?.kind == .invalidParameterName("user-id"))

        let twice = parseError("/users/:id/posts/:id")
        #expect(twice?.kind == .duplicateParameterName("id"))
        #expect(twice?.message.contains("own name") == true)

        let starInside = parseError("/promo/*/details")
        #expect(starInside?.kind == .wildcardNotLast)
        #expect(starInside?.message.contains("move it to the end") == true)
    }

    @Test(arguments: [
        ("/search?q", Character("?"), "query items"),
        ("/page#top", Character("#"), "fragments are ignored"),
        ("/a%20b", Character("%"), "decoded character"),
        ("/promo*", Character("*"), "whole segment"),
        ("/a:b", Character(":"), "only begin a segment"),
        ("/a b", Character(" "), "U+20"),
    ])
    func invalidCharactersAreExplained(text: String, character: Character, hint: String) {
        let error = parseError(text)
        guard case .invalidCharacter(let found, _)? = error?.kind else {
            Issue.record("expected an invalid character error for \(text), got \(String(describing: error))")
            return
        }
        #expect(found == character)
        #expect(error?.message.contains(hint) == true, "\(error?.message ?? "")")
        #expect(error?.description == error?.message)
    }
}
