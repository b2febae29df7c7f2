import Foundation
import Testing
@testable import FlowStackCore

/// Parsing style attributes from script values, colours and suggestions.
struct StyleAttributesParsingTests {
    @Test func everyKeyParsesAGoodValue() {
        let (attributes, warnings) = FlowStyleAttributes.parse([
            "navigationBarHidden": .bool(false),
            "multilineTextAlignment": .string("center"),
            "tint": .string("#FF0000"),
            "background": .string("blue"),
            "preferredColorScheme": .string("dark"),
            "presentationDragIndicator": .string("hidden"),
            "presentationDetents": .array([.string("medium"), .string("large"), .number(0.25), .table(["height": .number(300)])]),
            "interactiveDismissDisabled": .bool(true),
            "navigationBarBackButtonHidden": .bool(true),
            "navigationTitle": .string("Home"),
        ])
        #expect(warnings.isEmpty)
        #expect(attributes == FlowStyleAttributes(
            navigationBarHidden: false, multilineTextAlignment: .center,
            tint: .rgba(red: 255, green: 0, blue: 0, alpha: 255), background: .named(.blue),
            preferredColorScheme: .dark, presentationDragIndicator: .hidden,
            presentationDetents: [.medium, .large, .fraction(0.25), .height(300)],
            interactiveDismissDisabled: true, navigationBarBackButtonHidden: true, navigationTitle: "Home"
        ))
        #expect(Set(FlowStyleAttributes.knownKeys).count == 10)
    }

    @Test func everyChoiceIsAccepted() {
        for alignment in FlowTextAlignment.allCases {
            #expect(FlowStyleAttributes.parse(["multilineTextAlignment": .string(alignment.rawValue)]).0.multilineTextAlignment == alignment)
        }
        for scheme in FlowColorScheme.allCases {
            #expect(FlowStyleAttributes.parse(["preferredColorScheme": .string(scheme.rawValue)]).0.preferredColorScheme == scheme)
        }
        for visibility in FlowVisibility.allCases {
            #expect(FlowStyleAttributes.parse(["presentationDragIndicator": .string(visibility.rawValue)]).0.presentationDragIndicator == visibility)
        }
        #expect(FlowStyleAttributes.parse(["presentationDetents": .array([.number(1)])]).0.presentationDetents == [.fraction(1)])
    }

    @Test func everyKeyRejectsABadValueWithAWarning() {
        let bad: [String: FlowStyleValue] = [
            "navigationBarHidden": .string("yes"),
            "multilineTextAlignment": .string("middle"),
            "tint": .string("#GG0000"),
            "background": .number(3),
            "preferredColorScheme": .string("Dark"),
            "presentationDragIndicator": .bool(true),
            "presentationDetents": .array([]),
            "interactiveDismissDisabled": .number(1),
            "navigationBarBackButtonHidden": .string("true"),
            "navigationTitle": .number(3),
        ]
        let (attributes, warnings) = FlowStyleAttributes.parse(bad)
        #expect(attributes.isEmpty)
        #expect(warnings.map(\.key) == bad.keys.sorted())
        let byKey = Dictionary(uniqueKeysWithValues: warnings.map { ($0.key, $0.message) })
        #expect(byKey["navigationBarHidden"] == "expected a boolean, got \"yes\"")
        #expect(byKey["multilineTextAlignment"] == "expected one of \"leading\", \"center\", \"trailing\", got \"middle\"")
        #expect(byKey["preferredColorScheme"]?.contains("\"light\", \"dark\"") == true)
        #expect(byKey["presentationDragIndicator"]?.contains("got true") == true)
        #expect(byKey["tint"]?.contains("#RRGGBB") == true)
        #expect(byKey["background"]?.contains("got 3") == true)
        #expect(byKey["presentationDetents"]?.contains("non-empty array") == true)
        #expect(byKey["navigationTitle"] == "expected a string, got 3")
        #expect(warnings.first?.description.hasPrefix("background: ") == true)
    }

    @Test func badDetentsAreReportedOneByOne() {
        let cases: [FlowStyleValue] = [
            .array([.number(1.5)]), .array([.number(0)]), .array([.string("small")]),
            .array([.table(["height": .number(-1)])]), .array([.table(["height": .string("300")])]),
            .array([.table(["height": .number(300), "width": .number(2)])]), .string("medium"),
        ]
        for value in cases {
            let (attributes, warnings) = FlowStyleAttributes.parse(["presentationDetents": value])
            #expect(attributes.presentationDetents == nil)
            #expect(warnings.count == 1)
        }
        let (_, warnings) = FlowStyleAttributes.parse(["presentationDetents": .array([.string("medium"), .number(2)])])
        #expect(warnings.first?.message.hasPrefix("bad detent 2") == true)
    }

    @Test func unknownKeysGetADidYouMean() {
        let (attributes, warnings) = FlowStyleAttributes.parse([
            "navigationBarHiden": .bool(true),
            "tnit": .string("red"),
            "zzzzzzzzzzzz": .bool(true),
            "navigationTitle": .string("kept"),
        ])
        #expect(attributes == FlowStyleAttributes(navigationTitle: "kept"))
        let byKey = Dictionary(uniqueKeysWithValues: warnings.map { ($0.key, $0.message) })
        #expect(byKey["navigationBarHiden"] == "unknown style attribute (did you mean 'navigationBarHidden'?)")
        #expect(byKey["tnit"] == "unknown style attribute (did you mean 'tint'?)")
        #expect(byKey["zzzzzzzzzzzz"] == "unknown style attribute; attributes are navigationBarHidden, multilineTextAlignment, tint, "
            + "background, preferredColorScheme, presentationDragIndicator, presentationDetents, interactiveDismissDisabled, "
            + "navigationBarBackButtonHidden, navigationTitle")
    }

    @Test func coloursParseFromHexAndNames() {
        #expect(FlowColor(parsing: "#FF8000") == .rgba(red: 255, green: 128, blue: 0, alpha: 255))
        #expect(FlowColor(parsing: "#ff800080") == .rgba(red: 255, green: 128, blue: 0, alpha: 128))
        #expect(FlowColor(parsing: "#00000000") == .rgba(red: 0, green: 0, blue: 0, alpha: 0))
        for name in FlowNamedColor.allCases {
            #expect(FlowColor(parsing: name.rawValue) == .named(name))
        }
    }

    @Test func malformedColoursAreRejected() {
        for text in ["", "#", "#FFF", "FF0000", "#GG0000", "#FF00000", "#FF0000 ", " #FF0000", "Red", "#+12345", "#+1234567", "#-12345", "0xFF0000"] {
            #expect(FlowColor(parsing: text) == nil, "\(text) should not parse")
        }
    }

    @Test func coloursWriteBackAsScriptsWriteThem() {
        #expect(FlowColor.rgba(red: 255, green: 128, blue: 0, alpha: 255).scriptValue == "#FF8000")
        #expect(FlowColor.rgba(red: 1, green: 2, blue: 3, alpha: 4).scriptValue == "#01020304")
        #expect(FlowColor.named(.accent).scriptValue == "accent")
        for text in ["#12AB9F", "#12AB9F80", "purple"] {
            #expect(FlowColor(parsing: text)?.scriptValue == text)
        }
    }

    @Test func suggestionsUseEditDistance() {
        #expect(FlowSuggestion.editDistance("kitten", "sitting") == 3)
        #expect(FlowSuggestion.editDistance("ab", "ba") == 1)
        #expect(FlowSuggestion.editDistance("", "abc") == 3)
        #expect(FlowSuggestion.editDistance("abc", "") == 3)
        #expect(FlowSuggestion.editDistance("same", "same") == 0)
        #expect(FlowSuggestion.closest(to: "NAVIGATIONTITLE", in: FlowStyleAttributes.knownKeys) == "navigationTitle")
        #expect(FlowSuggestion.closest(to: "push", in: ["push", "pop"]) == "push")
        #expect(FlowSuggestion.closest(to: "sheeet", in: ["sheet", "setRoot"]) == "sheet")
        #expect(FlowSuggestion.closest(to: "completely", in: ["pop", "push"]) == nil)
        #expect(FlowSuggestion.closest(to: "x", in: []) == nil)
    }

    @Test func valuesSummariseForWarnings() {
        #expect(FlowStyleValue.number(3).summary == "3")
        #expect(FlowStyleValue.number(0.5).summary == "0.5")
        #expect(FlowStyleValue.bool(false).summary == "false")
        #expect(FlowStyleValue.string("x").summary == "\"x\"")
        #expect(FlowStyleValue.array([.number(1), .string("a")]).summary == "{1, \"a\"}")
        #expect(FlowStyleValue.table(["b": .bool(true), "a": .number(2)]).summary == "{a = 2, b = true}")
    }
}
