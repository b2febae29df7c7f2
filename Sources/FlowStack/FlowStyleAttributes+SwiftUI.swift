#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

// The one place where resolved style attributes become SwiftUI modifiers.
//
// Which attributes apply where:
//   appearance  (tint, background, preferredColorScheme, multilineTextAlignment)
//               on screens, stacks and presentations
//   navigation  (navigationBarHidden, navigationBarBackButtonHidden, navigationTitle)
//               on screens only: they configure the screen inside its NavigationStack
//   presentation (presentationDetents, presentationDragIndicator, interactiveDismissDisabled)
//               on presentations only (the `modal` hook): they configure the sheet or cover
//
// Attributes that rules switch on and off with facts (navigationBarHidden,
// navigationBarBackButtonHidden, interactiveDismissDisabled, multilineTextAlignment) are always
// applied, unset ones with SwiftUI's default or the inherited value, so switching them never
// changes the structure of the view and never resets a screen's state. The others are applied
// only when set, so that an unset one leaves the app's own modifiers alone.

extension FlowTextAlignment {
    /// The core alignment for a SwiftUI one.
    init(_ alignment: TextAlignment) {
        switch alignment {
        case .leading: self = .leading
        case .center: self = .center
        case .trailing: self = .trailing
        }
    }

    /// The SwiftUI alignment.
    var textAlignment: TextAlignment {
        switch self {
        case .leading: .leading
        case .center: .center
        case .trailing: .trailing
        }
    }
}

extension FlowColor {
    /// The SwiftUI colour (sRGB for components).
    var color: Color {
        switch self {
        case .named(let name):
            return name.color
        case .rgba(let red, let green, let blue, let alpha):
            return Color(
                .sRGB, red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255,
                opacity: Double(alpha) / 255
            )
        }
    }
}

extension FlowNamedColor {
    /// The SwiftUI colour of the same name (`accent` is the app's accent colour).
    var color: Color {
        switch self {
        case .primary: .primary
        case .secondary: .secondary
        case .accent: .accentColor
        case .red: .red
        case .orange: .orange
        case .yellow: .yellow
        case .green: .green
        case .blue: .blue
        case .purple: .purple
        case .pink: .pink
        case .gray: .gray
        case .black: .black
        case .white: .white
        case .clear: .clear
        }
    }
}

extension FlowColorScheme {
    /// The SwiftUI colour scheme.
    var colorScheme: ColorScheme {
        switch self {
        case .light: .light
        case .dark: .dark
        }
    }
}

extension FlowVisibility {
    /// The SwiftUI visibility.
    var visibility: Visibility {
        switch self {
        case .automatic: .automatic
        case .visible: .visible
        case .hidden: .hidden
        }
    }
}

extension FlowDetent {
    /// The SwiftUI sheet detent.
    var presentationDetent: PresentationDetent {
        switch self {
        case .medium: .medium
        case .large: .large
        case .fraction(let fraction): .fraction(CGFloat(fraction))
        case .height(let height): .height(CGFloat(height))
        }
    }
}

/// Tint, background, colour scheme and text alignment.
struct FlowAppearanceModifier: ViewModifier {
    /// The resolved attributes.
    let attributes: FlowStyleAttributes
    /// The alignment the view would inherit, applied when the attributes set none.
    @Environment(\.multilineTextAlignment) private var inheritedAlignment

    func body(content: Content) -> some View {
        content
            .multilineTextAlignment(attributes.multilineTextAlignment?.textAlignment ?? inheritedAlignment)
            .flowApply(attributes.tint) { view, tint in view.tint(tint.color) }
            .flowApply(attributes.background) { view, background in view.background(background.color) }
            .flowApply(attributes.preferredColorScheme) { view, scheme in view.preferredColorScheme(scheme.colorScheme) }
    }
}

/// Navigation bar, back button and title of a screen.
struct FlowScreenNavigationModifier: ViewModifier {
    /// The resolved attributes.
    let attributes: FlowStyleAttributes

    func body(content: Content) -> some View {
        content
            .navigationBarBackButtonHidden(attributes.navigationBarBackButtonHidden ?? false)
            .flowApply(attributes.navigationTitle) { view, title in view.navigationTitle(title) }
            .modifier(FlowNavigationBarVisibility(hidden: attributes.navigationBarHidden))
    }
}

/// The navigation bar's visibility where apps hide it (iOS, iPadOS, visionOS; as FlowStack,
/// not on macOS, tvOS or watchOS). Every other platform compiles the call, so the stand-in
/// type-checks it on Linux.
struct FlowNavigationBarVisibility: ViewModifier {
    /// Hidden, shown, or `nil` for SwiftUI's automatic choice.
    let hidden: Bool?

    func body(content: Content) -> some View {
        #if os(macOS) || os(tvOS) || os(watchOS)
        content
        #else
        content.toolbar(hidden.map { $0 ? Visibility.hidden : .visible } ?? .automatic, for: .navigationBar)
        #endif
    }
}

/// Detents, drag indicator and swipe-down of a presented stack.
struct FlowPresentationAttributesModifier: ViewModifier {
    /// The resolved attributes.
    let attributes: FlowStyleAttributes

    func body(content: Content) -> some View {
        content
            .interactiveDismissDisabled(attributes.interactiveDismissDisabled ?? false)
            .flowApply(attributes.presentationDetents) { view, detents in
                view.presentationDetents(Set(detents.map(\.presentationDetent)))
            }
            .flowApply(attributes.presentationDragIndicator) { view, indicator in
                view.presentationDragIndicator(indicator.visibility)
            }
    }
}

extension View {
    /// Applies a screen's resolved attributes.
    func flowScreenStyle(_ attributes: FlowStyleAttributes) -> some View {
        modifier(FlowScreenNavigationModifier(attributes: attributes))
            .modifier(FlowAppearanceModifier(attributes: attributes))
    }

    /// Applies a stack's resolved attributes.
    func flowStackStyle(_ attributes: FlowStyleAttributes) -> some View {
        modifier(FlowAppearanceModifier(attributes: attributes))
    }

    /// Applies a presentation's resolved attributes.
    func flowModalStyle(_ attributes: FlowStyleAttributes) -> some View {
        modifier(FlowPresentationAttributesModifier(attributes: attributes))
            .modifier(FlowAppearanceModifier(attributes: attributes))
    }

    /// This view transformed with `value` when there is one, unchanged otherwise.
    @ViewBuilder
    func flowApply<Value, Transformed: View>(
        _ value: Value?,
        @ViewBuilder _ transform: (Self, Value) -> Transformed
    ) -> some View {
        if let value {
            transform(self, value)
        } else {
            self
        }
    }
}

#endif
