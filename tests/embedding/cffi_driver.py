"""tests/embedding.sh: imports the cffi recipe of docs/embedding.md (extracted
into DIR as dungeon_cffi.py) and prints, for each recipe line, what
tests/embedding/probe.c prints: the grid hash or the error with its message.
Usage: cffi_driver.py DIR RECIPE..."""
import sys

sys.path.insert(0, sys.argv[1])
import dungeon_cffi as dg  # noqa: E402

print("version %s status %s tile %s" % (dg.text(dg.lib.dg_version()),
      dg.text(dg.lib.dg_status_str(dg.lib.DG_E_BUFFER)), dg.text(dg.lib.dg_tile_name(dg.lib.DG_TILE_WALL))))
print("sizes " + " ".join("%s %d" % (name, dg.ffi.sizeof("dg_" + name))
                          for name in ("grid", "diag", "recipe", "marker", "metrics", "result")))
for line in sys.argv[2:]:
    try:
        cells, width, height, hash_ = dg.generate(line)
        print("%s hash 0x%016x" % (line, hash_))
    except ValueError as e:
        print("%s error: %s" % (line, e))
