@testable import FlowLua
import Testing

@Suite("The linked Lua release")
struct FlowLuaReleaseTests {
    @Test("the linked library is a Lua 5.4 release and matches the headers it was compiled against")
    func linkedMatchesHeaders() {
        #expect(FlowLuaRelease.linked.hasPrefix("Lua 5.4."))
        #expect(FlowLuaRelease.linked == FlowLuaRelease.headers)
    }

    @Test("the release is read out of the library's identification string")
    func parsesIdent() {
        #expect(FlowLuaRelease.parse(ident: "$LuaVersion: Lua 5.4.7  Copyright (C) 1994-2024 Lua.org, PUC-Rio $") == "Lua 5.4.7")
        #expect(FlowLuaRelease.parse(ident: "Lua 5.4.7") == nil)
        #expect(FlowLuaRelease.parse(ident: "$LuaVersion: something else $") == nil)
    }
}
