import Foundation

extension FlowRouter {
    /// The router's deep-link center: configure links here (`resolver`, `pendingLinkTimeout`),
    /// open them with `open(url:)`. Created on first use; the same center for the router's
    /// lifetime.
    public var deepLinks: FlowDeepLinkCenter<Route, Dialog> {
        FlowDeepLinkCenterStore.center(for: self)
    }
}

/// Keeps each router's deep-link center, since an extension cannot add a stored property.
///
/// Entries are keyed by the router's identity and hold the router weakly; an entry whose
/// router is gone is never returned (an identity can be reused) and is removed the next time
/// a center is created.
@MainActor
enum FlowDeepLinkCenterStore {
    private struct Entry {
        weak var router: AnyObject?
        let center: AnyObject
    }

    private static var entries: [ObjectIdentifier: Entry] = [:]

    static func center<Route, Dialog>(for router: FlowRouter<Route, Dialog>) -> FlowDeepLinkCenter<Route, Dialog> {
        let key = ObjectIdentifier(router)
        if let entry = entries[key], entry.router === router,
           let center = entry.center as? FlowDeepLinkCenter<Route, Dialog> {
            return center
        }
        entries = entries.filter { $0.value.router != nil && $0.key != key }
        let center = FlowDeepLinkCenter(router: router)
        entries[key] = Entry(router: router, center: center)
        return center
    }

    /// The number of centers kept, for tests.
    static var count: Int { entries.count }
}
