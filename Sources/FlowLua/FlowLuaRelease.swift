import CLua

/// Which Lua release FlowScript runs: the one linked into the process.
///
/// Debian's `liblua5.4-dev` (the default on Linux, 5.4.4) and the official sources built by the
/// package (Apple platforms, `FLOWSTACK_LUA=source`, 5.4.7) are different releases; the sandbox
/// gives rules the same functions and nesting limit on both (docs/lua-surface.md, "Lua
/// versions"). `flowstack --version` prints this.
public enum FlowLuaRelease {
    /// The linked library's release, e.g. `"Lua 5.4.7"`, read from its identification string
    /// (`lua_ident`), so that it names the library actually running, not the headers compiled against.
    public static let linked: String = parse(ident: String(cString: clua_library_ident()))
        ?? String(cString: clua_header_release())

    /// The release the C headers were compiled against (`LUA_RELEASE`).
    public static let headers: String = String(cString: clua_header_release())

    /// The release named by an identification string `"$LuaVersion: Lua 5.4.7  Copyright ... $"`.
    package static func parse(ident: String) -> String? {
        let prefix = "$LuaVersion: "
        guard ident.hasPrefix(prefix) else { return nil }
        let rest = ident.dropFirst(prefix.count)
        guard let end = rest.range(of: "  ") else { return nil }
        let release = String(rest[..<end.lowerBound])
        return release.hasPrefix("Lua ") ? release : nil
    }
}
