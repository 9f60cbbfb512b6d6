// Tests of Dungeon.cs under Mono (run by tests/ports/bindings.sh):
//   mono test.exe layout                       struct sizes and offsets, as the C probe prints them
//   mono test.exe check TOOL PREFABS_DIR TMP   maps, analysis, recipes, exports and errors
// Maps are compared byte for byte with the dungeon tool's JSON rows and files.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;
using LibDungeon;

static class Test {
    static int passed, failed;

    static void Check(bool ok, string what) {
        if (ok) passed++; else { failed++; Console.WriteLine("FAIL: " + what); }
    }

    static string Snake(string pascal) {
        return "dg_" + Regex.Replace(pascal, "(?<=[a-z0-9])([A-Z])", "_$1").ToLowerInvariant();
    }

    // "dg_NAME size N" and "dg_NAME.FIELD N" for every struct mirror, C field names.
    static void Layout() {
        var types = typeof(Dungeon).Assembly.GetTypes()
            .Where(t => t.IsValueType && !t.IsEnum && t.Namespace == "LibDungeon" && t.IsPublic)
            .OrderBy(t => t.Name, StringComparer.Ordinal);
        foreach (var t in types) {
            string name = Snake(t.Name);
            Console.WriteLine(name + " size " + Marshal.SizeOf(t));
            foreach (var f in t.GetFields(BindingFlags.Public | BindingFlags.Instance))
                Console.WriteLine(name + "." + f.Name + " " + Marshal.OffsetOf(t, f.Name));
        }
    }

    static string Run(string tool, params string[] args) {
        var p = new ProcessStartInfo(tool, string.Join(" ", args.Select(a => "\"" + a + "\"")))
            { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        using (var proc = Process.Start(p)) {
            string output = proc.StandardOutput.ReadToEnd();
            string err = proc.StandardError.ReadToEnd();
            proc.WaitForExit();
            Check(proc.ExitCode == 0, "tool " + string.Join(" ", args) + ": " + err);
            return output;
        }
    }

    // The cells of the tool's JSON map: the numbers of its "rows" array.
    static byte[] JsonRows(string json) {
        int start = json.IndexOf("\"rows\": [", StringComparison.Ordinal) + 9;
        int end = json.IndexOf("\n  ]", start, StringComparison.Ordinal);
        return Regex.Matches(json.Substring(start, end - start), "[0-9]+")
            .Cast<Match>().Select(m => byte.Parse(m.Value)).ToArray();
    }

    static void Maps(string tool, string prefabDir, string tmp) {
        var samples = new Dictionary<string, string[]> {
            { "prefab-full", new[] { "shaft.txt", "56", "26" } }, { "prefab-jigsaw", new[] { "forest.txt", "84", "50" } },
            { "prefab-islands", new[] { "factory.txt", "80", "50" } }, { "prefab-mixed", new[] { "vaults.txt", "80", "50" } },
            { "world", new[] { "furnish.txt", "64", "48" } } };
        foreach (var g in Dungeon.Generators()) {
            string[] s;
            if (!samples.TryGetValue(g.Name, out s)) s = new[] { null, "64", "40" };
            Check(g.NeedsPrefabs == (s[0] != null && g.Name != "world"), g.Name + ": needs prefabs as the registry says");
            string file = s[0] == null ? null : Path.Combine(prefabDir, s[0]);
            using (var set = file == null ? null : PrefabSet.Load(file)) {
                foreach (ulong seed in new ulong[] { 1, 2, 77 }) {
                    string line = g.Name + " seed=" + seed + " width=" + s[1] + " height=" + s[2];
                    string out1 = Path.Combine(tmp, "cs.json");
                    var args = new List<string> { "--recipe", line, "--format", "json", "-o", out1 };
                    if (file != null) { args.Add("--prefabs"); args.Add(file); }
                    Run(tool, args.ToArray());
                    using (var m = Dungeon.Generate(g.Name, int.Parse(s[1]), int.Parse(s[2]), seed, null, set)) {
                        byte[] theirs = File.ReadAllBytes(out1);
                        Check(m.Cells.SequenceEqual(JsonRows(Encoding.UTF8.GetString(theirs))), line + ": cells equal the tool's");
                        Check(m.Export("json").SequenceEqual(theirs), line + ": JSON export equals the tool's file");
                    }
                }
            }
        }
    }

    static void Analysis(string tool, string tmp) {
        using (var m = Dungeon.FromRecipe("attach seed=99 width=60 height=30")) {
            int cost;
            var path = m.Path(m.Start, m.Exit, out cost);
            Check(path.Length == cost + 1 && path[0].x == m.Start.x && path[path.Length - 1].y == m.Exit.y, "path ends and cost");
            int[] dist = m.DistanceMap(new[] { m.Start });
            Check(dist[m.Exit.y * m.Width + m.Exit.x] == cost, "distance map agrees with the path");
            Check(cost * 10 >= dist.Max() * 9 && m.Survey().exit_rank_permille <= 100,
                  "the exit is a farthest room cell, among the farthest tenth");
            Check(m.Survey().route == cost, "survey route is the path's cost");
            int[] sizes;
            int[] labels = m.Regions(out sizes);
            Check(sizes.Length == 1 && sizes[0] == m.Measure().floor_cells, "one region holds every floor cell");
            Check(labels[m.Start.y * m.Width + m.Start.x] == 0, "start is in region 0");
            byte[] seen = m.Fov(m.Start, 6);
            Check(seen[m.Start.y * m.Width + m.Start.x] == 1 && seen.Count(v => v != 0) < seen.Length, "fov");
            var eight = new MoveOptions { Neighbours = 8 };
            int cost8;
            m.Path(m.Start, m.Exit, out cost8, eight);
            Check(cost8 <= cost, "8-way path is no longer");
            try {
                int[] dm = m.DijkstraMap(new[] { m.Start, m.Exit }, new[] { 0, 5 });
                Check(dm[m.Exit.y * m.Width + m.Exit.x] == 5, "dijkstra map keeps a source's start cost");
            } catch (DungeonException e) {
                if (e.Diagnostic.Contains("not written yet")) Console.WriteLine("skipped: dg_dijkstra_map is not in this build yet");
                else Check(false, "dijkstra map: " + e.Message);
            }
            try {
                m.Path(m.Start, new Point { x = 0, y = 0 }, out cost);
                Check(false, "path to a wall raises");
            } catch (DungeonException e) {
                Check(e.StatusName == "DG_E_NOPATH", "path to a wall: " + e.Message);
            }
        }
        // Tiled export and PNG pixels against the tool
        string line = "scatter seed=3 width=50 height=30";
        using (var m = Dungeon.FromRecipe(line)) {
            string tmx = Path.Combine(tmp, "cs.tmx");
            Run(tool, "--recipe", line, "--no-tileset", "-o", tmx);
            Check(m.Export("tmx").SequenceEqual(File.ReadAllBytes(tmx)), "tmx export equals the tool's file");
            Check(m.Rgba(2).Length == 100 * 60 * 4, "rgba size");
            Check(Dungeon.TilesetRgba(8).Length == 128 * 128 * 4, "tileset size");
            Check(m.Ascii().Replace("\n", "") == Run(tool, "--recipe", line, "--format", "ascii").Replace("\n", ""), "ascii equals the tool's");
        }
    }

    static void Recipes() {
        var p = new Dictionary<string, string> { { "growth", "newest" }, { "loop_min_gain", "6" } };
        string line = Dungeon.MakeRecipe("attach", 99, 60, 30, p);
        Check(line.Contains("growth=newest") && line.Contains("loop_min_gain=6"), "recipe line: " + line);
        using (var a = Dungeon.FromRecipe(line))
        using (var b = Dungeon.Generate("attach", 60, 30, 99, p)) {
            Check(a.Cells.SequenceEqual(b.Cells) && a.Hash == b.Hash, "recipe and generate agree");
            Check(a.Recipe == line, "the map's recipe is the line");
        }
        Check(Dungeon.Version() == Marshal.PtrToStringAnsi(Native.dg_version()), "version");
    }

    static void Errors() {
        try {
            Dungeon.Generate("attach", 80, 50, 1, new Dictionary<string, string> { { "growth", "sideways" } });
            Check(false, "bad enum raises");
        } catch (DungeonException e) {
            Check(e.Status == -7 && e.StatusName == "DG_E_PARSE" && e.Diagnostic.Contains("sideways"), "bad enum: " + e.Message);
        }
        try {
            Dungeon.FromRecipe("attach width=4 height=4 room_min_w=9");
            Check(false, "impossible map raises");
        } catch (DungeonException e) {
            Check(e.StatusName == "DG_E_TOO_SMALL" && e.Diagnostic.Length > 0, "impossible map: " + e.Message);
        }
        try {
            Dungeon.ParseRecipe("attach seed=1 growth=sideways");
            Check(false, "bad recipe raises");
        } catch (DungeonException e) {
            Check(e.Column == 22, "bad recipe column: " + e.Column);
        }
        try {
            PrefabSet.Parse("prefab x\nmap\n#?#\nend\n", "bad.txt");
            Check(false, "bad prefab raises");
        } catch (DungeonException e) {
            Check(e.StatusName == "DG_E_PARSE" && e.Diagnostic.StartsWith("bad.txt:"), "bad prefab: " + e.Message);
        }
    }

    static int Main(string[] args) {
        if (args.Length > 0 && args[0] == "layout") { Layout(); return 0; }
        Maps(args[1], args[2], args[3]);
        Analysis(args[1], args[3]);
        Recipes();
        Errors();
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
