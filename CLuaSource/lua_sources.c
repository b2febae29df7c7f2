/* Part of the Lua library target built from source: the official Lua 5.4.7 files are the ones
 * under lua/ that Package.swift lists. This file only makes a clone without them fail here, at
 * compile time, with one message saying what to run (see include/lua.h), and not later. */
#include <lua.h>
