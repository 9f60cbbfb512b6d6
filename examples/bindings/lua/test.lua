-- Tests of dungeon.lua under LuaJIT (run by tests/ports/bindings.sh):
--   luajit test.lua TOOL PREFABS_DIR TMPDIR
-- Every generator's map is compared byte for byte with the dungeon tool's
-- JSON rows; analysis, recipes, exports and errors are checked too.
package.path = (arg[0]:match("^(.*[/\\])") or "./") .. "?.lua;" .. package.path
local dungeon = require("dungeon")
local tool, prefab_dir, tmp = arg[1], arg[2], arg[3]
local passed, failed = 0, 0

local function check(ok, what)
  if ok then passed = passed + 1 else failed = failed + 1; print("FAIL: " .. what) end
end

local function run(args)
  local out = tmp .. "/lua.out"
  local ok = os.execute(tool .. " " .. args .. " > " .. out .. " 2>&1")
  local f = assert(io.open(out, "rb"))
  local text = f:read("*a")
  f:close()
  check(ok == 0 or ok == true, "tool " .. args .. ": " .. text)
  return text
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

-- the cells of the tool's JSON map, as a byte string
local function json_rows(json)
  local rows = json:match('"rows": %[(.-)\n  %]')
  local out = {}
  for v in rows:gmatch("%d+") do out[#out + 1] = string.char(tonumber(v)) end
  return table.concat(out)
end

local SAMPLES = { ["prefab-full"] = { "shaft.txt", 56, 26 }, ["prefab-jigsaw"] = { "forest.txt", 84, 50 },
  ["prefab-islands"] = { "factory.txt", 80, 50 }, ["prefab-mixed"] = { "vaults.txt", 80, 50 },
  world = { "furnish.txt", 64, 48 } }

-- ---- every generator against the tool
for _, g in ipairs(dungeon.generators()) do
  local s = SAMPLES[g.name] or { nil, 64, 40 }
  local file = s[1] and (prefab_dir .. "/" .. s[1])
  local set = file and dungeon.load_prefabs(file)
  for _, seed in ipairs({ 1, 2, 77 }) do
    local line = string.format("%s seed=%d width=%d height=%d", g.name, seed, s[2], s[3])
    local out = tmp .. "/lua.json"
    run(string.format("--recipe '%s' --format json -o %s%s", line, out, file and (" --prefabs " .. file) or ""))
    local json = read(out)
    local map = dungeon.generate(g.name, s[2], s[3], seed, nil, set)
    check(map:bytes() == json_rows(json), line .. ": cells equal the tool's")
    check(map:export("json") == json, line .. ": JSON export equals the tool's file")
    check(map:recipe() == json:match('"recipe": "(.-)"'), line .. ": recipe")
  end
end

-- ---- analysis
local map = dungeon.from_recipe("attach seed=99 width=60 height=30")
local path, cost = map:path(map.start, map.exit)
check(#path == cost + 1 and path[1].x == map.start.x and path[#path].y == map.exit.y, "path ends and cost")
local dist = map:distance_map({ map.start })
check(dist[map.exit.y * map.width + map.exit.x] == cost, "distance map agrees with the path")
check(map:survey().route == cost, "survey route is the path's cost")
local labels, count = map:regions()
check(count == 1 and labels[map.start.y * map.width + map.start.x] == 0, "one region, start in it")
check(map:measure().floor_cells == map.metrics.floor_cells, "measure agrees with the generator")
local seen = map:fov(map.start, 6)
check(seen[map.start.y * map.width + map.start.x] == 1, "fov sees its origin")
local _, cost8 = map:path(map.start, map.exit, { neighbours = 8 })
check(cost8 <= cost, "8-way path is no longer")
local ok, err = pcall(map.dijkstra_map, map, { map.start, map.exit }, { 0, 5 })
if ok then
  check(err[map.exit.y * map.width + map.exit.x] == 5, "dijkstra map keeps a source's start cost")
elseif dungeon.is_error(err) and err.message:find("not written yet", 1, true) then
  print("skipped: dg_dijkstra_map is not in this build yet")
else
  check(false, "dijkstra map: " .. tostring(err))
end

-- ---- recipes and exports
local line = dungeon.recipe("attach", 60, 30, 99, { growth = "newest", loop_min_gain = 6 })
check(line:find("growth=newest", 1, true) and line:find("loop_min_gain=6", 1, true), "recipe line: " .. line)
check(dungeon.normalize(line) == line, "a printed recipe is normal")
check(dungeon.from_recipe(line):bytes() == dungeon.generate("attach", 60, 30, 99, { growth = 1, loop_min_gain = 6 }):bytes(),
  "enum by name and by number agree")
local sc = "scatter seed=3 width=50 height=30"
run(string.format("--recipe '%s' --no-tileset -o %s/lua.tmx", sc, tmp))
check(dungeon.from_recipe(sc):export("tmx") == read(tmp .. "/lua.tmx"), "tmx export equals the tool's file")
check(dungeon.from_recipe(sc):ascii() == run(string.format("--recipe '%s' --format ascii", sc)), "ascii equals the tool's")

-- ---- autotiling: every wall's blob index from the definition
do
  local m = dungeon.generate("attach", 60, 30, 99)
  local idx, w = m:autotile("blob")
  local function wall(x, y)
    if x < 0 or y < 0 or x >= m.width or y >= m.height then return 0 end
    local t = m:get(x, y)
    return (t == 3 or t == 11) and 1 or 0
  end
  local bad = 0
  for y = 0, m.height - 1 do
    for x = 0, m.width - 1 do
      local n, e, s, ww = wall(x, y - 1), wall(x + 1, y), wall(x, y + 1), wall(x - 1, y)
      local mask = n + 4 * e + 16 * s + 64 * ww
      if n == 1 and e == 1 and wall(x + 1, y - 1) == 1 then mask = mask + 2 end
      if s == 1 and e == 1 and wall(x + 1, y + 1) == 1 then mask = mask + 8 end
      if s == 1 and ww == 1 and wall(x - 1, y + 1) == 1 then mask = mask + 32 end
      if n == 1 and ww == 1 and wall(x - 1, y - 1) == 1 then mask = mask + 128 end
      if dungeon.blob_mask(idx[y * w + x]) ~= mask then bad = bad + 1 end
    end
  end
  check(bad == 0, "autotile blob equals the definition (" .. bad .. " cells differ)")
  local _, cw = m:autotile("corner")
  check(cw == m.width + 1, "the corner grid is one wider")
  local okk, e2 = pcall(m.autotile, m, "blob", { self_class = 7 })
  check(not okk and e2.name == "DG_E_INVALID", "no tile in the self class: " .. tostring(e2))
end

-- ---- errors carry the status name and the diagnostic
ok, err = pcall(dungeon.generate, "attach", 80, 50, 1, { growth = "sideways" })
check(not ok and dungeon.is_error(err) and err.name == "DG_E_PARSE" and err.message:find("sideways", 1, true),
  "bad enum: " .. tostring(err))
ok, err = pcall(dungeon.from_recipe, "attach seed=1 growth=sideways")
check(not ok and err.column == 22 and tostring(err):find("^DG_E_PARSE"), "bad recipe: " .. tostring(err))
ok, err = pcall(dungeon.from_recipe, "attach width=4 height=4 room_min_w=9")
check(not ok and err.name == "DG_E_TOO_SMALL", "impossible map: " .. tostring(err))
ok, err = pcall(map.path, map, map.start, { x = 0, y = 0 })
check(not ok and err.name == "DG_E_NOPATH", "path to a wall: " .. tostring(err))

print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
