// FlowStack: the module an app imports. `import FlowStack` gives the whole API, as the original
// FlowStack's one module did: the router and its state (`FlowStackCore`), the Lua rules engine
// (`FlowScript`), and the SwiftUI host below.
//
//   FlowStackView          the host: one NavigationStack per stack, sheets and covers nested to
//                          any depth, the global dialog above everything (its own window on
//                          iOS and visionOS)
//   FlowNavigationStyle    FlowStack's style value (screen, stack and modal closures)
//   FlowRouter bindings    bindingForPath(stackID:), bindingForPresentedStack(style:)
//
// The layer holds no navigation decision of its own. It draws the stacks a `FlowStagingPlayer`
// (core) says to show, styles them with the core's resolved styles (Swift defaults, Swift style
// rules, then the rules hook, e.g. Lua), and reports gestures through the router's user API.
//
// On platforms without SwiftUI this module compiles against `SwiftUIStandIn`, a declarations-only
// stand-in, so every `swift build` on Linux type-checks it. What that check cannot catch:
// - runtime behaviour: nothing is rendered or run, so a layer that type-checks can still
//   misbehave (wrong screen, lost view state, a binding SwiftUI writes at an unexpected moment);
// - animations and transactions, whether the completions the host reports (a presented stack's
//   appearance, a sheet's `onDismiss`) come when the animation ends, and whether the 650 ms
//   fallback is long enough;
// - the UIKit files (`FlowDialogWindow+UIKit.swift`, `FlowAppearanceProbe+UIKit.swift`) against
//   UIKit itself: here they are type-checked against the stand-in's UIKit subset (what they use,
//   with Apple's signatures) and used by nothing, and the lines that use them, in the UIKit
//   branches of `FlowStackContent.dialogWindow` and `FlowAppearanceReporter`, are not compiled;
// - presentation timing: SwiftUI's one-presentation-per-update rule, the order in which it
//   writes `nil` to sheet and cover bindings, and when NavigationStack writes its path binding;
// - navigation-destination lookup and path synchronisation;
// - environment propagation into sheets and covers, and which of two nested style modifiers
//   wins (multilineTextAlignment, toolbar visibility, presentation detents);
// - `ObservableObject` updates: on Linux FlowRouter conforms to the stand-in's protocol, whose
//   publisher notifies nobody;
// - availability: `#available` branches and `#if os(...)` fences are compiled for Linux only
//   (`os(macOS)` branches are never type-checked here);
// - deprecations: the stand-in records Apple's (`tabItem` and `toolbar(_:for:)` are deprecated in
//   the 27 SDKs, with replacements from iOS 18 only), but Linux never warns; a Mac warns once a
//   deployment target reaches the deprecating release;
// - the oldest toolchain: Linux builds with a newer Swift than Xcode 16.0's 6.0, and the stand-in
//   follows Apple's current reference (initializers and modifiers `nonisolated`, `Binding(get:set:)`
//   taking `@isolated(any) @Sendable` closures). A rule Swift 6.0 enforces and a later Swift
//   relaxed, or an Xcode 16.0 declaration that differs from today's, shows only there.

#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
// `@_exported`: an app written against the original FlowStack has one `import FlowStack` and
// uses `FlowRouter`, `FlowStackState`, `FlowOperation`, ... (FlowStackCore) next to
// `FlowStackView` (here). Re-exporting the core, the engine (with FlowLua's `FlowScriptError`),
// signed bundles and live rules keeps that one import working unchanged; each stays a module of
// its own, without SwiftUI, for the CLI, the engine and the Linux tests. The flow-test runner
// (FlowTesting) is not re-exported: an app links it only if it asks for it. Swift has no other
// way to make one module's import bring another's names.
@_exported import FlowLiveRules
@_exported import FlowRuleBundles
@_exported import FlowScript
@_exported import FlowStackCore
