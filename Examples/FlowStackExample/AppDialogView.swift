#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStack

/// The global dialog: a dimmed background and a card. Setting `dialog` to `nil` hides it; the
/// router then shows the next queued dialog, if any.
struct AppDialogView: View {
    /// The visible dialog, or `nil`.
    @Binding var dialog: AppDialog?
    /// Deletes the project on screen (the delete confirmation's action).
    let onDelete: @MainActor () -> Void

    var body: some View {
        if let shown = dialog {
            ZStack {
                Color.black.opacity(0.35)
                    .ignoresSafeArea()
                    .onTapGesture { dialog = nil }
                VStack(alignment: .leading, spacing: 12) {
                    Text(title(of: shown)).font(.headline)
                    Text(message(of: shown)).font(.subheadline)
                    HStack {
                        Spacer()
                        actions(for: shown)
                    }
                }
                .padding()
                .background(Color.white)
                .padding(32)
            }
        }
    }

    /// The buttons of one dialog.
    @ViewBuilder
    private func actions(for shown: AppDialog) -> some View {
        switch shown {
        case .deleteConfirmation:
            Button("Cancel", role: .cancel) { dialog = nil }
            Button("Delete", role: .destructive) {
                dialog = nil
                onDelete()
            }
        case .networkError, .sessionExpired:
            Button("OK") { dialog = nil }
        }
    }

    private func title(of shown: AppDialog) -> String {
        switch shown {
        case .networkError: "No connection"
        case .sessionExpired: "Session expired"
        case .deleteConfirmation: "Delete this project?"
        }
    }

    private func message(of shown: AppDialog) -> String {
        switch shown {
        case .networkError: "Check your connection and try again."
        case .sessionExpired: "Sign in again to continue."
        case .deleteConfirmation: "The project and its history are removed."
        }
    }
}

#endif
