/// A Lua function held from Swift: a reference into the registry of the VM that created it.
///
/// The reference keeps the function alive while Swift holds it; releasing the last Swift
/// reference frees the registry slot (at the VM's next reference creation, on its actor).
/// Two `LuaFunctionRef`s are equal when they are the same object.
package final class LuaFunctionRef: Sendable, Hashable, CustomStringConvertible {
    /// The registry slot (`luaL_ref`).
    let reference: Int32
    /// The VM's bookkeeping of released slots; also identifies the VM.
    let owner: LuaReferenceOwner
    /// A short label for diagnostics (`rules/paywall.lua:3`).
    let label: String

    package init(reference: Int32, owner: LuaReferenceOwner, label: String) {
        self.reference = reference
        self.owner = owner
        self.label = label
    }

    deinit {
        owner.release(reference)
    }

    /// Identity equality.
    package static func == (lhs: LuaFunctionRef, rhs: LuaFunctionRef) -> Bool { lhs === rhs }

    /// Identity hash.
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `function: <label>`.
    package var description: String { "function: \(label)" }
}
