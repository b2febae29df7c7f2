// SwiftUIStandIn: DECLARATIONS ONLY, for type-checking SwiftUI code on platforms without SwiftUI.
//
// This module is never linked on Apple platforms: Package.swift adds it only for platforms
// without SwiftUI, and every file is wrapped in `#if !canImport(SwiftUI)`, so the module is empty
// wherever the real framework exists. Runtime behaviour is not modelled: nothing here renders, lays
// out, animates, presents, stores state or propagates an environment. Function bodies only return
// placeholder values so that code written against Apple's SwiftUI compiles unchanged; primitive
// views have no body, exactly as in SwiftUI.
//
// Signatures follow Apple's SwiftUI reference for the Xcode 16/26 SDKs (`@ViewBuilder` closures,
// `nonisolated` view modifiers, `@MainActor @preconcurrency` protocols and property wrappers,
// `Sendable` closures where Apple requires them). Code that uses this module the way it would use
// `import SwiftUI` therefore gets the same type-checking, within these limits:
//
// What the stand-in cannot check:
// - runtime behaviour of any kind: nothing runs, so a layer that type-checks here can still
//   misbehave in a real app;
// - animations and transactions (accepted and ignored);
// - layout: frames, padding, stacks and alignment are accepted and ignored;
// - environment propagation: `@Environment` reads default values, `@EnvironmentObject` has no
//   object to read, `environment(_:_:)` and `environmentObject(_:)` store nothing;
// - presentation timing: SwiftUI's one-presentation-per-update limit, sheet and cover dismissal
//   order, navigation-destination lookup and path synchronisation are not modelled;
// - availability: the `@available` annotations here mirror Apple's only for the declarations in
//   this module, and are not checked on Linux; an API Apple introduced after the package's
//   deployment targets (iOS 16, macOS 13) must still be guarded with `if #available` by the caller;
// - the parts of SwiftUI that are not declared here (anything else fails to compile, which is the
//   point: add a declaration matching Apple's documented signature when the layer needs it).
//
// Two values cannot be produced without SwiftUI's runtime and stop with a message if code compiled
// against the stand-in is ever run: reading a `Binding` made with `init(get:set:)` (its closures are
// `@isolated(any)`, so they can only be called asynchronously) and reading an `@EnvironmentObject`.
//
// The module re-exports Foundation (and Observation, and Combine where it exists) because
// `import SwiftUI` makes them visible to its importers too. It also declares the small part of
// UIKit that FlowStack's UIKit files use (`UIKit.swift`) and SwiftUI's bridges to it
// (`UIKitRepresentable.swift`), so that those files type-check here as well.

#if !canImport(SwiftUI)
@_exported import Foundation
#if canImport(Combine)
@_exported import Combine
#endif
#if canImport(Observation)
@_exported import Observation
#endif

/// Ends a stand-in path that would need SwiftUI's runtime to produce a value.
///
/// Only reachable by running code compiled against the stand-in, which nothing does: the module
/// exists for type-checking. The message names the declaration and the reason.
func standInRuntimeNotModelled<T>(_ declaration: String) -> T {
    preconditionFailure(
        "SwiftUIStandIn: \(declaration) needs SwiftUI's runtime, which this declarations-only module does not model; "
            + "run the code on an Apple platform with the real SwiftUI."
    )
}

/// Ends the `body` of a primitive view, modifier or scene: primitive views have no body.
func primitiveViewHasNoBody(_ type: Any.Type) -> Never {
    preconditionFailure("\(type) is a primitive view: primitive views have no body.")
}
#endif
