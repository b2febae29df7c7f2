import Foundation

/// The style of one screen, stack or presentation that a UI shows, with the context it was
/// resolved for (the context the SwiftUI layer passes to `FlowNavigationStyle`'s closures).
public struct FlowShownStyle: Hashable {
    /// Where the screen, stack or presentation sits.
    public let context: FlowStyleContext
    /// Its resolved attributes.
    public let attributes: FlowStyleAttributes

    /// Creates a shown style.
    public init(context: FlowStyleContext, attributes: FlowStyleAttributes) {
        self.context = context
        self.attributes = attributes
    }
}

extension FlowPath {
    /// The depth of the screen with this identity (1 for the bottom of the path), or `nil`.
    func depth(of id: UUID) -> Int? {
        var link = top
        while let current = link {
            if current.id == id { return current.count }
            link = current.parent
        }
        return nil
    }
}
