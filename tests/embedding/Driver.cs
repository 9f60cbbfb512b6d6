// tests/embedding.sh: runs the C# recipes of docs/embedding.md (Dungeon.cs and
// Blittable.cs, extracted from the page) on the command line's recipes and
// prints what tests/embedding/probe.c prints for them.
using System;
using System.Runtime.InteropServices;

public static class Driver {
    static int Size(Type t) { return Marshal.SizeOf(t); }
    static int Offset(Type t, string field) { return (int)Marshal.OffsetOf(t, field); }

    static void Run(string arg) {
        string[] parts = arg.Split('@');
        try {
            var map = Dungeon.Generate(parts[0], parts.Length > 1 ? parts[1] : null);
            Console.WriteLine("{0} hash 0x{1:x16}", parts[0], map.Hash);
            Console.Write("{0} markers {1}", parts[0], map.Markers.Length);
            for (int i = 0; i < map.Markers.Length && i < 3; i++)
                Console.Write(" " + map.Markers[i].name);
            Console.WriteLine(", start {0} {1}", map.Start.x, map.Start.y);
        } catch (InvalidOperationException e) {
            Console.WriteLine("{0} error: {1}", parts[0], e.Message);
        }
    }

    // The fixed-buffer mirrors read the same recipe and diagnostic as the marshalled ones.
    static unsafe void RunFixed(string line) {
        byte[] text = System.Text.Encoding.UTF8.GetBytes(line);
        DungeonFixed.Recipe recipe;
        DungeonFixed.Diag diag;
        int status;
        fixed (byte* t = text)
            status = DungeonFixed.dg_recipe_parse(t, (UIntPtr)text.Length, &recipe, &diag);
        if (status == 0)
            Console.WriteLine("fixed {0} {1} seed {2} {3}x{4} params {5} prefabs '{6}' 0x{7:x16}",
                line, DungeonFixed.Text(recipe.generator), recipe.seed, recipe.width,
                recipe.height, recipe.paramCount, DungeonFixed.Text(recipe.prefabs),
                recipe.prefabsHash);
        else
            Console.WriteLine("fixed {0} error: {1}: {2}", line, Dungeon.StatusName(status),
                DungeonFixed.Text(diag.message));
    }

    public static unsafe void Main(string[] args) {
        Console.WriteLine("version {0} status {1} tile {2}", Dungeon.Version(),
                          Dungeon.StatusName(-9), Dungeon.TileName(3));
        Console.WriteLine("sizes grid {0} diag {1} recipe {2} marker {3} metrics {4} result {5}",
            Size(typeof(Dungeon.Grid)), Size(typeof(Dungeon.Diag)), Size(typeof(Dungeon.Recipe)),
            Size(typeof(Dungeon.Marker)), Size(typeof(Dungeon.Metrics)), Size(typeof(Dungeon.Result)));
        Console.WriteLine("recipe offsets values {0} prefabs_hash {1} prefabs {2}",
            Offset(typeof(Dungeon.Recipe), "values"), Offset(typeof(Dungeon.Recipe), "prefabsHash"),
            Offset(typeof(Dungeon.Recipe), "prefabs"));
        Console.WriteLine("fixed sizes diag {0} recipe {1}", sizeof(DungeonFixed.Diag),
                          sizeof(DungeonFixed.Recipe));
        Console.WriteLine("fixed recipe offsets values {0} prefabs_hash {1} prefabs {2}",
            Offset(typeof(DungeonFixed.Recipe), "values"),
            Offset(typeof(DungeonFixed.Recipe), "prefabsHash"),
            Offset(typeof(DungeonFixed.Recipe), "prefabs"));
        foreach (string arg in args) {
            if (arg.StartsWith("fixed:"))
                RunFixed(arg.Substring(6));
            else
                Run(arg);
        }
    }
}
