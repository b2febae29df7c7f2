import FlowScript
import Foundation
import Testing

/// The manifest's `explore` section: a mistake in it is reported at its own line, not at the
/// first line of the file where a key of the same name appears (`params` of a route).
@Suite("Manifest: the explore section")
@MainActor
struct ExploreSectionTests {
    static func error(_ explore: String) -> FlowScriptError? {
        let source = """
            return {
              root = "home",
              routes = { home = {}, orders = { params = { id = "string" } } },
              facts = { isLoggedIn = false, tier = "free" },
              explore = {
                facts = { tier = { "free", "pro" } },
            \(explore)
              },
            }
            """
        do {
            _ = try FlowManifest.parse(source: source)
            return nil
        } catch {
            return error
        }
    }

    @Test("an empty list of parameter samples is reported at explore.params, not at the route's params")
    func emptyParams() throws {
        let error = try #require(Self.error("    params = { id = {} },"))
        #expect(error.line == 7, "\(error.description)")
        #expect(error.description.contains("explore.params.id must be a non-empty list of values"), "\(error.description)")
    }

    @Test("a fact's list is reported at its line inside explore, an unknown key with did you mean")
    func factsAndKeys() throws {
        let facts = try #require(Self.error("    hostAnswers = { requestPhotoAccess = true },"))
        #expect(facts.line == 7, "\(facts.description)")
        let unknown = try #require(Self.error("    hostAnswer = { requestPhotoAccess = { true } },"))
        #expect(unknown.line == 7, "\(unknown.description)")
        #expect(unknown.description.contains("(did you mean 'hostAnswers'?)"))
        #expect(Self.error("    urls = { \"myapp://orders/7\" },") == nil)
    }
}
