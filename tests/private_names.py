#!/usr/bin/env python3
"""private_names.py: prints, one "header: name" a line, each file-scope name a
private header under lib/ declares without its prefix (README.md, Layout):
dgi_ or dg_ (DGI_, DG_ for macros and enum constants), or in a module's own
header (MODULE below) also that module's prefix. The names are types, struct,
union and enum tags, enum constants, macros, functions (inline or not) and
variables, as tools/amalgamate.py finds them: the amalgamation puts every
lib/ file in one translation unit, where such a name would meet any other
file's. Struct fields, locals and parameters are not file-scope names. Run by
tests/symbols.sh; prints nothing when every name has its prefix."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import amalgamate  # noqa: E402  (its parser of file-scope names)

# A module's own header and the prefix its module's names carry.
MODULE = {
    'lib/gen/attach_state.h': 'att',
    'lib/gen/bsp_state.h': 'bsp',
    'lib/gen/cave_state.h': 'cave',
    'lib/gen/scatter_state.h': 'scatter',
    'lib/graph/layout_state.h': 'layout',
    'lib/prefab/islands_state.h': 'islands',
    'lib/prefab/parse_state.h': 'prefab',
    'lib/progress/lock_state.h': 'lock',
}
# Headers not checked (none now).
EXCEPT = set()


def unprefixed(path):
    text = open(os.path.join(ROOT, path), encoding='utf-8').read()
    names = amalgamate.file_scope_names(text, every=True)
    names.update(amalgamate.macros_defined(text))
    prefixes = ['dgi_', 'dg_']
    if path in MODULE:
        prefixes.append(MODULE[path] + '_')
    allowed = re.compile('|'.join(p for q in prefixes for p in (q, q.upper())))
    return sorted(n for n in names if not allowed.match(n))


def main():
    headers = sorted(os.path.relpath(h, ROOT) for h in glob.glob(os.path.join(ROOT, 'lib', '*', '*.h')))
    for path in headers:
        if path not in EXCEPT:
            for name in unprefixed(path):
                print('%s: %s' % (path, name))


if __name__ == '__main__':
    main()
