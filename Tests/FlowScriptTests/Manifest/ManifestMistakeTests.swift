import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Contract section 2: a manifest mistake is an error at the line of its key, with "did you mean".
@Suite("Manifest: mistakes")
@MainActor
struct ManifestMistakeTests {
    /// The error `source` throws, or `nil` when it loads.
    private func error(_ source: String) -> FlowScriptError? {
        do {
            _ = try FlowManifest.parse(source: source)
            return nil
        } catch {
            return error
        }
    }

    @Test("Of several unknown keys, the first one in the file is reported, every time")
    func firstUnknownKeyByLine() throws {
        let source = """
            return {
              root = "home",
              routs = { home = {} },
              fact = {},
              dialog = {},
            }
            """
        for _ in 0..<20 {
            let failure = try #require(error(source))
            #expect(failure.line == 3, "\(failure)")
            #expect(failure.message.hasPrefix("unknown manifest key 'routs' (did you mean 'routes'?)"), "\(failure)")
        }
        let problems = try FlowManifest.parseReportingProblems(source: source).problems
        #expect(problems.map(\.line) == [3, 4, 5])
    }

    @Test("A tab's misspelt key gets \"did you mean\", even when it hides the tab's root")
    func misspeltTabKey() throws {
        let failure = try #require(error("""
            return {
              tabs = {
                { name = "feed", root = "feedHome" },
                { name = "profile", rot = "profileHome" },
              },
              routes = { feedHome = {}, profileHome = {} },
            }
            """))
        #expect(failure.message == "tab 'profile': unknown key 'rot' (did you mean 'root'?); a tab has name and root", "\(failure)")
        #expect(failure.line == 2)
        let nameless = try #require(error("return { tabs = { { nme = \"feed\", root = \"feedHome\" } }, routes = { feedHome = {} } }"))
        #expect(nameless.message == "tab 1: unknown key 'nme' (did you mean 'name'?); a tab has name and root", "\(nameless)")
    }

    @Test("A misspelt key in a route declaration or in links is an error with \"did you mean\", never ignored")
    func misspeltRouteAndLinksKeys() throws {
        let route = try #require(error("""
            return {
              root = "home",
              routes = { home = {}, detail = { param = { id = "string" } } },
            }
            """))
        #expect(route.message.hasPrefix("route 'detail': unknown key 'param' (did you mean 'params'?)"), "\(route)")
        #expect(route.line == 3)
        let params = try #require(error("return { routes = { detail = { params = \"string\" } } }"))
        #expect(params.message.hasPrefix("route 'detail': params must be a table of field types"), "\(params)")
        let links = try #require(error("""
            return {
              routes = { home = {} },
              links = { scheme = { "myapp" } },
            }
            """))
        #expect(links.message.hasPrefix("links: unknown key 'scheme' (did you mean 'schemes'?)"), "\(links)")
        #expect(links.line == 3)
        let checked = try FlowManifest.parseReportingProblems(source: """
            return {
              routes = { home = {}, detail = { param = { id = "string" } } },
              links = { host = { "example.com" } },
            }
            """)
        #expect(checked.problems.count == 2, "flowstack check reports both: \(checked.problems)")
        #expect(checked.manifest.routes["detail"] != nil, "the route stays declared, so names that use it still check")
    }

    @Test("A manifest that is not where the app looked names the path it looked at")
    func missingManifestNamesItsPath() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowstack-missing-manifest-\(UUID().uuidString)")
        let url = folder.appendingPathComponent("routes.lua")
        do {
            _ = try FlowManifest.load(contentsOf: url)
            Issue.record("a missing routes.lua loaded")
        } catch {
            #expect(error.file == "routes.lua", "\(error)")
            #expect(error.message.hasPrefix("cannot open the file at \(url.path): "), "\(error)")
            #expect(error.message.hasSuffix("check that it exists and can be read"), "\(error)")
        }
    }

    @Test("A name the manifest does not declare, with no declared name near it, says where to declare it")
    func undeclaredNameSaysWhereToDeclareIt() throws {
        let manifest = try FlowManifest.parse(source: """
            return {
              root = "home",
              routes = { home = {}, detail = {} },
              dialogs = { "oops" },
              facts = { isLoggedIn = false },
            }
            """)
        #expect(manifest.problem(withFact: "hasSeenOnboarding")
            == "unknown fact 'hasSeenOnboarding' (not declared in routes.lua: add it to facts there)")
        #expect(manifest.problem(with: FlowRouteValue(name: "paywall", fields: nil))
            == "unknown route 'paywall' (not declared in routes.lua: add it to routes there)")
        #expect(manifest.problem(withDialog: "ratingPrompt")
            == "unknown dialog 'ratingPrompt' (not declared in routes.lua: add it to dialogs there)")
        // A near name still gets "did you mean" and where the names are declared.
        #expect(manifest.problem(withFact: "isLogedIn")
            == "unknown fact 'isLogedIn' (did you mean 'isLoggedIn'?) (declared in routes.lua)")

        let tabbed = try FlowManifest.parse(source: """
            return { tabs = { { name = "feed", root = "home" } }, routes = { home = {} } }
            """)
        #expect(tabbed.problem(withTab: "settings") == "unknown tab 'settings' (not declared in routes.lua: add it to tabs there)")
    }
}
