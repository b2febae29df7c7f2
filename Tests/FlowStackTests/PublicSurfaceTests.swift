import Foundation
import Testing
import FlowStackTestSupport

/// The engine side's public surface stays what an app needs: at most 250 public declarations
/// (`Tools/public-surface.sh` counts them), and each module's DocC landing page links every
/// public type it declares and every public member it adds to the engine.
struct PublicSurfaceTests {
    /// The engine side's modules, as `Tools/public-surface.sh` lists them.
    static let engineModules = ["FlowTesting", "FlowRuleBundles", "FlowScript", "FlowLua", "FlowLiveRules", "FlowLiveRulesServer"]

    static func sources(of module: String) throws -> [String] {
        let folder = FlowStackBinary.packageRoot.appendingPathComponent("Sources/\(module)")
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return try walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .map { try String(contentsOf: $0, encoding: .utf8) }
    }

    @Test("the engine side declares at most 250 public declarations")
    func engineSurfaceIsBounded() async throws {
        let script = FlowStackBinary.packageRoot.appendingPathComponent("Tools/public-surface.sh").path
        let counted = try await CLIRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["bash", script])
        let text = counted.stdout
        #expect(counted.status == 0, "\(text)\(counted.stderr)")
        let counts = Dictionary(uniqueKeysWithValues: text.split(separator: "\n").compactMap { line -> (String, Int)? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 2, let count = Int(fields[1]) else { return nil }
            return (String(fields[0]), count)
        })
        #expect(Set(counts.keys) == Set(Self.engineModules + ["total"]), "\(text)")
        let total = try #require(counts["total"], "\(text)")
        #expect(total > 100, "the count finds the engine's API: \(text)")
        #expect(total <= 250, "what only the CLI, the bench or tests use is package: \(text)")
    }

    @Test("each engine module's landing page links every public type and engine extension it declares")
    func landingPagesListThePublicAPI() throws {
        let typePattern = try NSRegularExpression(
            pattern: "^(?:@[A-Za-z_]+(?:\\([^)]*\\))? )*public (?:final )?(?:struct|class|enum|protocol|actor|typealias) ([A-Za-z_][A-Za-z0-9_]*)",
            options: .anchorsMatchLines)
        let memberPattern = try NSRegularExpression(
            pattern: "^    (?:@[A-Za-z_]+ )*public (?:func|var|let) ([A-Za-z_][A-Za-z0-9_]*)", options: .anchorsMatchLines)
        for module in Self.engineModules {
            let page = FlowStackBinary.packageRoot.appendingPathComponent("Sources/\(module)/\(module).docc/\(module).md")
            let landing = try String(contentsOf: page, encoding: .utf8)
            for source in try Self.sources(of: module) {
                let range = NSRange(source.startIndex..., in: source)
                for match in typePattern.matches(in: source, range: range) {
                    let start = Range(match.range, in: source)!.lowerBound
                    // An SPI declaration (`@_spi(Benchmarks)` on the line before) is not public API.
                    if source[..<start].split(separator: "\n").last?.hasPrefix("@_spi") == true { continue }
                    let name = String(source[Range(match.range(at: 1), in: source)!])
                    #expect(landing.contains("``\(name)``"), "\(module).md does not list the public type \(name)")
                }
                // Members another module adds to the engine are linked as ``FlowScript/FlowRulesEngine/…``.
                guard module != "FlowScript" else { continue }
                for block in source.components(separatedBy: "\nextension FlowRulesEngine").dropFirst() {
                    let body = block.components(separatedBy: "\n}\n").first ?? block
                    for match in memberPattern.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                        let name = String(body[Range(match.range(at: 1), in: body)!])
                        #expect(landing.contains("``FlowScript/FlowRulesEngine/\(name)"), "\(module).md does not list FlowRulesEngine.\(name)")
                    }
                }
            }
        }
    }
}
