-- tests/embedding.sh: loads the LuaJIT recipe of docs/embedding.md (extracted
-- as DIR/dungeon.lua) and prints, for each recipe line, what
-- tests/embedding/probe.c prints: the grid hash or the error with its message.
-- Usage: luajit lua_driver.lua DIR RECIPE...
local ffi = require("ffi")
local dg = dofile(arg[1] .. "/dungeon.lua")
local lib = dg.lib
print(string.format("version %s status %s tile %s", dg.text(lib.dg_version()),
  dg.text(lib.dg_status_str(lib.DG_E_BUFFER)), dg.text(lib.dg_tile_name(lib.DG_TILE_WALL))))
local sizes = {}
for _, name in ipairs({ "grid", "diag", "recipe", "marker", "metrics", "result" }) do
  sizes[#sizes + 1] = name .. " " .. ffi.sizeof("dg_" .. name)
end
print("sizes " .. table.concat(sizes, " "))
for i = 2, #arg do
  local ok, cells, width, height, hash = pcall(dg.generate, arg[i])
  if ok then
    print(arg[i] .. " hash 0x" .. bit.tohex(hash, 16))
  else
    print(arg[i] .. " error: " .. cells)
  end
end
