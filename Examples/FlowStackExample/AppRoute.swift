#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStack

/// The example app's screens, as declared in `Scripts/routes.lua` (the payload labels match the
/// manifest's `params`).
enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    // Launch and account.
    /// The launch screen (the manifest's root).
    case splash
    /// First-launch introduction.
    case onboarding
    /// Sign-in.
    case login

    // The signed-in app.
    /// The signed-in home screen.
    case home
    /// The list of projects.
    case projects
    /// One project.
    case detail(id: String)
    /// The editor of one project (premium only, `Scripts/rules/20-paywall.lua`).
    case editor(id: String)
    /// The settings.
    case settings
    /// The person's profile.
    case profile

    // Presented screens.
    /// The paywall, a full-screen cover.
    case paywall
    /// The photo picker, behind the photo permission prompt.
    case photoPicker
    /// Shown when the photo permission was refused.
    case permissionDenied
    /// A promotion, only ever a sheet.
    case promo
}

/// The app's global dialogs, as declared in `Scripts/routes.lua`; the rules see their `id`.
enum AppDialog: String, Hashable, Codable, Identifiable {
    /// A request failed.
    case networkError
    /// The session ended; private screens stay closed while it is up.
    case sessionExpired
    /// Confirms deleting the project on screen.
    case deleteConfirmation

    /// The id the rules see (`ctx.dialog`).
    var id: String { rawValue }
}

/// The example's router.
typealias AppRouter = FlowRouter<AppRoute, AppDialog>

#endif
