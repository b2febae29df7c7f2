extension LuaVM {
    /// A registry reference to the function at `index` of `state`'s stack.
    func makeFunctionRef(state: OpaquePointer, index: Int32) -> LuaFunctionRef {
        releaseDroppedReferences()
        let index = LuaStackReader.absolute(state, index)
        let stack = LuaStackWriter(state: state, owner: referenceOwner)
        stack.reserve(2)
        stack.pushCopy(of: index)
        let label = LuaVM.functionLabel(stack)
        return LuaFunctionRef(reference: stack.anchor(), owner: referenceOwner, label: label)
    }

    /// Frees the registry slots of function references Swift no longer holds.
    func releaseDroppedReferences() {
        guard !isClosed else { return }
        let stack = LuaStackWriter(state: handle.main, owner: referenceOwner)
        for reference in referenceOwner.drain() { stack.releaseAnchor(reference) }
    }

    /// `file:line` where the function on top of the stack is defined, or `[C]` (leaves the
    /// stack as is; needs one free slot).
    static func functionLabel(_ stack: LuaStackWriter) -> String {
        stack.pushCopy(of: -1)
        guard let (source, line) = LuaStackReader.popFunctionDefinition(stack.state) else { return "?" }
        return line > 0 ? "\(source):\(line)" : source
    }

    /// Where the function of `reference` is defined: its chunk name and first line, if it is a Lua function.
    package func definitionLocation(of function: LuaFunctionRef) -> (file: String, line: Int)? {
        guard !isClosed, function.owner === referenceOwner else { return nil }
        let stack = LuaStackWriter(state: handle.main, owner: referenceOwner)
        guard stack.hasRoom(for: 2) else { return nil }
        stack.pushAnchored(function.reference)
        guard let (source, line) = LuaStackReader.popFunctionDefinition(stack.state), line >= 0, source != "[C]" else {
            return nil
        }
        return (expandChunkName(source), max(line, 1))
    }

    /// The full chunk name for a name Lua shortened to fit its 60-byte source ids.
    package func expandChunkName(_ name: String) -> String {
        if chunkNames.contains(name) { return name }
        let candidates = chunkNames.filter { $0.hasPrefix(name) }
        return candidates.count == 1 ? candidates.first! : name
    }
}
