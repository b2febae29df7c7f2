// StandInSmokeView: a compile check for the SwiftUI stand-in.
//
// Ordinary SwiftUI code (a navigation stack bound to an array path, nested sheet and full-screen
// cover driven by item bindings, an overlay, a state object, a custom view modifier, branches in
// view builders, lists and the style modifiers FlowStack uses). On Linux it type-checks against
// `SwiftUIStandIn`; on Apple platforms against SwiftUI itself. Nothing here is run: keep it
// compiling, and extend it when FlowStack starts using another part of SwiftUI.

#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// The routes the smoke stack pushes.
enum SmokeRoute: Hashable {
    case detail(Int)
    case settings
}

/// An item that drives a sheet or a full-screen cover.
struct SmokeModal: Identifiable, Hashable {
    let id: Int
    let title: String
}

/// The model behind the smoke views, observed the pre-Observation way (iOS 16).
@MainActor
final class SmokeModel: ObservableObject {
    private(set) var items: [SmokeModal] = [SmokeModal(id: 1, title: "One"), SmokeModal(id: 2, title: "Two")]

    var prefersDark = false {
        willSet { objectWillChange.send() }
    }

    func load() async {
        objectWillChange.send()
        items.append(SmokeModal(id: items.count + 1, title: "Loaded"))
    }
}

/// A reusable modifier with a branch on availability. The older branch does without
/// `onChange(of:perform:)`: it is deprecated on visionOS from 1.0, so a visionOS build would warn
/// even there.
struct SmokeCardStyle: ViewModifier {
    let highlighted: Bool
    let onToggle: (Bool) -> Void

    func body(content: Content) -> some View {
        if #available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *) {
            content
                .padding(.horizontal, 12)
                .background(highlighted ? Color.yellow : Color.clear)
                .onChange(of: highlighted, initial: true) { _, newValue in onToggle(newValue) }
        } else {
            content
                .padding(12)
                .onAppear { onToggle(highlighted) }
        }
    }
}

extension View {
    /// Applies the smoke card style.
    func smokeCard(highlighted: Bool, onToggle: @escaping (Bool) -> Void = { _ in }) -> some View {
        modifier(SmokeCardStyle(highlighted: highlighted, onToggle: onToggle))
    }
}

/// The root of the smoke check: a stack, presentations, an overlay and styling.
struct StandInSmokeView: View {
    @StateObject private var model = SmokeModel()
    @State private var path: [SmokeRoute] = []
    @State private var sheet: SmokeModal?
    @State private var cover: SmokeModal?
    @State private var showsBanner = true
    @State private var confirmsReset = false
    @Environment(\.colorScheme) private var colorScheme

    var body: some View {
        NavigationStack(path: $path) {
            List(model.items) { item in
                Button(item.title) { sheet = item }
            }
            .navigationTitle("Smoke")
            .navigationDestination(for: SmokeRoute.self) { route in
                switch route {
                case .detail(let number):
                    SmokeDetailView(number: number, path: $path)
                case .settings:
                    SmokeSettingsView()
                }
            }
            #if !os(macOS)
            .toolbar(.hidden, for: .navigationBar)
            #endif
        }
        .sheet(item: $sheet, onDismiss: { showsBanner = true }) { modal in
            SmokeSheet(modal: modal, cover: $cover)
                .presentationDetents([.medium, .large, .fraction(0.3), .height(200)])
                .presentationDragIndicator(.visible)
                .interactiveDismissDisabled(modal.id == 1)
        }
        .overlay(alignment: .bottom) {
            if showsBanner {
                Text("Banner \(model.items.count)")
                    .padding()
                    .background(.blue)
                    .onTapGesture { withAnimation(.easeInOut(duration: 0.2)) { showsBanner = false } }
            }
        }
        .animation(.default, value: showsBanner)
        .environmentObject(model)
        .preferredColorScheme(model.prefersDark ? .dark : nil)
        .tint(.orange)
        .multilineTextAlignment(.leading)
        .task { await model.load() }
        .task(id: path.count) { showsBanner = path.isEmpty }
        .onOpenURL { url in
            if url.path.isEmpty { path.append(.settings) } else { path = [.detail(url.path.count)] }
        }
        .onAppear { showsBanner = colorScheme == .light }
        .onDisappear()
        .confirmationDialog("Reset?", isPresented: $confirmsReset, titleVisibility: .visible) {
            Button("Reset", role: .destructive) { path.removeAll() }
            Button("Cancel", role: .cancel) {}
        }
    }
}

/// A pushed screen that edits the path it sits on.
struct SmokeDetailView: View {
    let number: Int
    @Binding var path: [SmokeRoute]
    @EnvironmentObject private var model: SmokeModel
    @State private var highlighted = false

    var body: some View {
        ScrollView {
            detailRows
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .navigationBarBackButtonHidden()
        .id(number)
    }

    private var detailRows: some View {
        VStack(alignment: .leading, spacing: 8) {
            Image(systemName: "star").resizable()
            Divider()
            Text("Detail \(number)")
                .font(.headline)
                .foregroundColor(.secondary)
            ForEach(0..<3) { index in
                Text(verbatim: "Row \(index)")
            }
            ForEach(["a", "b"], id: \.self) { letter in
                Text(letter)
            }
            HStack {
                Spacer(minLength: 4)
                Button("Deeper") { path.append(.detail(number + 1)) }
                NavigationLink("Settings", value: SmokeRoute.settings)
            }
            .smokeCard(highlighted: highlighted) { highlighted = $0 }
            Toggle("Dark", isOn: $model.prefersDark)
            Toggle(
                isOn: Binding(
                    get: { @MainActor in model.prefersDark },
                    set: { @MainActor newValue in model.prefersDark = newValue }
                )
            ) {
                Label("Dark (explicit binding)", systemImage: "moon")
            }
            SmokeSwitch(isOn: .constant(true))
        }
    }
}

/// A custom control built from a binding.
struct SmokeSwitch: View {
    @Binding var isOn: Bool

    var body: some View {
        Button(isOn ? "On" : "Off") { isOn.toggle() }
    }
}

/// A screen reached through a value-based link.
struct SmokeSettingsView: View {
    @ObservedObject private var model = SmokeModel()
    @State private var anyPath = NavigationPath()

    var body: some View {
        NavigationStack(path: $anyPath) {
            Group {
                if model.items.isEmpty {
                    ProgressView("Loading")
                } else {
                    AnyView(Text("Ready").italic())
                }
            }
            .navigationTitle(Text("Settings"))
        }
        .background(Color(red: 0.1, green: 0.2, blue: 0.3))
        .onAppear { anyPath.append(SmokeRoute.settings) }
    }
}

/// A sheet that presents a full-screen cover of its own.
struct SmokeSheet: View {
    let modal: SmokeModal
    @Binding var cover: SmokeModal?
    @Environment(\.dismiss) private var dismiss
    @State private var showsAlert = false

    var body: some View {
        ZStack(alignment: .topLeading) {
            Color.black.opacity(0.2)
            VStack {
                Text(modal.title)
                Button("Cover") { cover = modal }
                Button("Close") { dismiss() }
            }
        }
        #if !os(macOS)
        .fullScreenCover(item: $cover) { covered in
            Text("Covering \(covered.id)")
                .background { Color.white }
        }
        #endif
        .alert("Stop?", isPresented: $showsAlert) {
            Button("OK", role: .cancel) {}
        } message: {
            Text("Nothing runs here.")
        }
    }
}

/// A tab bar: a `TabView` with a selection, a `NavigationStack` per tab, items and tags (and one
/// without a selection).
struct SmokeTabsView: View {
    @State private var selection = 0

    var body: some View {
        TabView(selection: $selection) {
            NavigationStack {
                Text("Feed")
            }
            .tabItem { Label("Feed", systemImage: "list.bullet") }
            .tag(0)
            NavigationStack {
                Text("Profile")
            }
            .tabItem {
                Image(systemName: "person")
                Text("Profile")
            }
            .tag(1)
        }
        .overlay {
            TabView {
                Text("Page")
            }
        }
    }
}

/// An app built from the smoke views (no `@main`: the example target owns its entry point).
struct SmokeApp: App {
    @StateObject private var model = SmokeModel()

    var body: some Scene {
        WindowGroup {
            StandInSmokeView()
        }
        WindowGroup("Settings", id: "settings") {
            SmokeSettingsView()
                .environmentObject(model)
        }
    }
}

#endif
