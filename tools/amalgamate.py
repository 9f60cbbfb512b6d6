#!/usr/bin/env python3
"""Writes libdungeon as one C file: OUTDIR/dungeon.c and OUTDIR/dungeon.h.

    python3 tools/amalgamate.py OUTDIR        (make amalgamation: build/amalgamation)

dungeon.c holds every lib/*/*.c (found by the glob, as the Makefile does) in
sorted order, with each private header and include/dungeon.h inlined where it
is first included and never again (the include guards stay in place), and the
system headers gathered at the top. It compiles alone (cc -c dungeon.c); a
program includes the dungeon.h beside it.

Names that are private to one file would meet in the one translation unit:
  - file-scope static functions and variables, typedefs, struct/union/enum tags
    and enum constants that another file also names (as its own or as a local
    variable, which -Wshadow would report), or that a header the file does not
    include declares, get a unique name in each file that defines them
    (name_folder_file); members (after . and -> and in struct bodies) keep
    their names;
  - every macro a .c file defines is #undef'd at the end of that file, and one
    that a header also defines is renamed like the rest.
#line directives keep compiler messages pointing at the original files.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TOKEN = re.compile(r'''
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<punct>->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\.\.\.|\#\#|[^\s])
  | (?P<space>\s+)
''', re.S | re.X)

KEYWORDS = set('''auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool
_Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local __attribute__'''.split())


def tokens(text):
    """(kind, text, start) for every token, comments and blanks included."""
    return [(m.lastgroup, m.group(), m.start()) for m in TOKEN.finditer(text)]


def split_lines(text):
    """The text as logical units: ('pp', lines) for a preprocessor directive
    (with its continuation lines) and ('code', lines) for anything else."""
    out = []
    lines = text.splitlines(keepends=True)
    i = 0
    in_comment = False
    while i < len(lines):
        line = lines[i]
        if not in_comment and line.lstrip().startswith('#'):
            block = [line]
            while block[-1].rstrip('\n').endswith('\\') and i + 1 < len(lines):
                i += 1
                block.append(lines[i])
            out.append(('pp', block))
        else:
            out.append(('code', [line]))
            # a block comment left open on this line (good enough for lib/)
            stripped = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
            stripped = re.sub(r'//.*', '', stripped)
            for part in re.findall(r'/\*|\*/', stripped):
                in_comment = part == '/*'
        i += 1
    return out


def code_tokens(text):
    """Tokens of the C code outside preprocessor lines, without comments and blanks."""
    body = ''.join(''.join(ls) if kind == 'code' else '\n' * len(ls) for kind, ls in split_lines(text))
    return [(k, t) for k, t, _ in tokens(body) if k not in ('comment', 'space')]


def macros_defined(text):
    names = []
    for kind, ls in split_lines(text):
        m = kind == 'pp' and re.match(r'\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)', ls[0])
        if m:
            names.append(m.group(1))
    return names


def declarator_name(toks):
    """The name a declaration's declarator introduces, from its tokens at depth 0."""
    name = None
    for i, (kind, text) in enumerate(toks):
        if kind == 'ident' and text not in KEYWORDS:
            name = text
        elif text in ('(', '[', '=', ';', ',', ':', '{'):
            if text == '(' and i + 1 < len(toks) and toks[i + 1][1] == '*':
                for k, t in toks[i + 1:]:
                    if k == 'ident' and t not in KEYWORDS and t not in ('const', 'restrict'):
                        return t
            return name
    return name


def file_scope_names(text, every=False):
    """Names a .c file defines at file scope that are private to it (every:
    all names a header declares at file scope)."""
    toks = code_tokens(text)
    # extern "C" { ... } (for C++) holds file-scope declarations
    for i in range(len(toks) - 2, -1, -1):
        if toks[i] == ('ident', 'extern') and toks[i + 1][0] == 'string' and toks[i + 2][1] == '{':
            del toks[i:i + 3]
    names = set()
    stmt = []          # (kind, text, brace depth, paren depth) of the statement so far
    brace = paren = 0
    body = False       # inside a function body
    enum_depth = None  # brace depth of an enum's list
    prev = None
    for kind, text in toks:
        if body:
            if text == '{':
                brace += 1
            elif text == '}':
                brace -= 1
                if brace == 0:
                    body = False
                    names.update(statement_names(stmt, every))
                    stmt = []
            prev = text
            continue
        if text == '{':
            if brace == 0 and paren == 0 and prev == ')':
                body = True
                brace = 1
                prev = text
                continue
            brace += 1
            if len(stmt) >= 1 and (stmt[-1][1] == 'enum' or (len(stmt) >= 2 and stmt[-2][1] == 'enum')):
                enum_depth = brace
        elif text == '}' and brace == 0:
            continue  # the end of extern "C"
        elif text == '}':
            if enum_depth == brace:
                enum_depth = None
            brace -= 1
        elif text == '(':
            paren += 1
        elif text == ')':
            paren -= 1
        elif enum_depth == brace and kind == 'ident' and prev in ('{', ','):
            names.add(text)
        if text == ';' and brace == 0 and paren == 0:
            names.update(statement_names(stmt, every))
            stmt = []
        else:
            stmt.append((kind, text, brace, paren))
        prev = text
    return names


def statement_names(stmt, every=False):
    names = set()
    for i, (kind, text, b, p) in enumerate(stmt):
        # struct/union/enum TAG { : a tag defined here
        if text in ('struct', 'union', 'enum') and i + 2 < len(stmt) and stmt[i + 1][0] == 'ident' \
                and stmt[i + 2][1] == '{':
            names.add(stmt[i + 1][1])
    top = [(k, t) for k, t, b, p in stmt if b == 0]
    words = [t for k, t in top]
    if 'typedef' in words:
        flat = [(k, t) for k, t, b, p in stmt if b == 0] + [('punct', ';')]
        # the name is the last identifier before the ; (or the one after "(*")
        if '(' in words and words[words.index('(') + 1:words.index('(') + 2] == ['*']:
            name = declarator_name(flat)
        else:
            name = None
            for k, t in flat:
                if k == 'ident' and t not in KEYWORDS:
                    name = t
                elif t in (';', '[', ','):
                    break
        if name:
            names.add(name)
    elif every or ('static' in words and 'extern' not in words):
        # split into declarators at the commas of depth 0
        parts, cur = [], []
        for k, t, b, p in stmt:
            if b == 0 and p == 0 and t == ',':
                parts.append(cur)
                cur = []
            elif b == 0:
                cur.append((k, t))
        parts.append(cur)
        for part in parts:
            name = declarator_name(part + [('punct', ';')])
            if name:
                names.add(name)
    return names


def rename(text, mapping):
    """Renames identifiers of the text (code and directives, not comments or
    strings), but not members: neither after . or -> nor where a struct or
    union body declares them."""
    if not mapping:
        return text
    toks = tokens(text)
    sig = [i for i, (kind, _, _) in enumerate(toks) if kind not in ('space', 'comment')]
    stack = []  # per open brace: True for a struct or union body
    out = [t for _, t, _ in toks]
    for n, i in enumerate(sig):
        kind, tok, _ = toks[i]
        prev = toks[sig[n - 1]][1] if n else None
        nxt = toks[sig[n + 1]][1] if n + 1 < len(sig) else None
        if tok == '{':
            back = [toks[k][1] for k in sig[max(0, n - 2):n]]
            stack.append('struct' in back or 'union' in back)
        elif tok == '}' and stack:
            stack.pop()
        elif kind == 'ident' and tok in mapping and prev not in ('.', '->'):
            member = stack and stack[-1] and (nxt in (';', ',', '[', ':') or (nxt == ')' and prev == '*'))
            if not member:
                out[i] = mapping[tok]
    return ''.join(out)


# GCC's -Wmaybe-uninitialized guesses along inlined paths. With every file in
# one translation unit it inlines across files and reports arrays that the
# called function fills (as -flto would); built file by file, as make and
# CMake do, the library has no such warning. Off for the library's text only.
GCC_GUESS_BEGIN = """#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
"""
GCC_GUESS_END = """
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
"""

INCLUDE = re.compile(r'\s*#\s*include\s*([<"])([^>"]+)[>"]')


def resolve(name, including):
    for base in (os.path.dirname(including), os.path.join(ROOT, 'lib'), os.path.join(ROOT, 'include')):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path):
            return path
    raise SystemExit('amalgamate: %s: cannot find "%s"' % (os.path.relpath(including, ROOT), name))


def rel(path):
    return os.path.relpath(path, ROOT)


def main():
    if len(sys.argv) != 2:
        raise SystemExit('usage: amalgamate.py OUTDIR')
    outdir = sys.argv[1]
    sources = sorted(glob.glob(os.path.join(ROOT, 'lib', '*', '*.c')))
    headers = sorted(glob.glob(os.path.join(ROOT, 'lib', '*', '*.h')))
    public = os.path.join(ROOT, 'include', 'dungeon.h')
    text = {}
    for path in sources + headers + [public]:
        with open(path, encoding='utf-8') as f:
            text[path] = f.read()

    # every identifier and macro each header names: a file's private name equal
    # to one of them would meet the header's wherever the header comes first,
    # unless the file includes that header itself (then the normal build
    # already has them side by side: an opaque struct completed, a macro
    # defined again the same way)
    header_words = {}
    header_macros = set()
    for path in headers + [public]:
        header_words[path] = file_scope_names(text[path], every=True)
        header_words[path].update(macros_defined(text[path]))
        header_macros.update(macros_defined(text[path]))
    all_words = set()
    for path in headers + [public]:
        all_words.update(t for k, t in code_tokens(text[path]) if k == 'ident')

    def included(path, seen=None):
        seen = set() if seen is None else seen
        for kind, ls in split_lines(text[path]):
            m = kind == 'pp' and INCLUDE.match(ls[0])
            if m and m.group(1) == '"':
                target = resolve(m.group(2), path)
                if target not in seen:
                    seen.add(target)
                    included(target, seen)
        return seen
    private = {}
    macros = {}
    words = {}  # every identifier of each .c file
    for path in sources:
        private[path] = file_scope_names(text[path])
        macros[path] = macros_defined(text[path])
        words[path] = {t for k, t in code_tokens(text[path]) if k == 'ident'}
        all_words.update(words[path])

    mapping = {path: {} for path in sources}
    keep = {}  # macros a file defines again as its headers do: they stay
    for path in sources:
        folder = os.path.basename(os.path.dirname(path))
        stem = os.path.splitext(os.path.basename(path))[0]
        mine = included(path)
        foreign = set().union(*(w for h, w in header_words.items() if h not in mine))
        others = set().union(*(w for q, w in words.items() if q != path))
        # a tag that completes a type of an included header is not private
        shared = set().union(*(w for h, w in header_words.items() if h in mine))
        clash = {n for n in private[path] - shared if n in others or n in foreign}
        clash.update(n for n in macros[path] if n in foreign)
        keep[path] = {n for n in macros[path] if n in header_macros and n not in foreign}
        for name in sorted(clash):
            new = '%s_%s_%s' % (name, folder, stem)
            while new in all_words:
                new += '_'
            all_words.add(new)
            mapping[path][name] = new

    system = []   # system includes, in order of first appearance
    done = set()  # headers already inlined
    body = []

    def emit(path, names):
        """The file's text with its quoted includes inlined (once) or dropped."""
        lineno = 1
        body.append('#line 1 "%s"\n' % rel(path))
        for kind, ls in split_lines(rename(text[path], names)):
            m = kind == 'pp' and INCLUDE.match(ls[0])
            if m and m.group(1) == '<':
                if m.group(2) not in system:
                    system.append(m.group(2))
                body.append('/* #include <%s>: at the top */\n' % m.group(2))
            elif m:
                target = resolve(m.group(2), path)
                if target in done:
                    body.append('/* #include "%s": already above */\n' % m.group(2))
                else:
                    done.add(target)
                    body.append('/* #include "%s" */\n' % m.group(2))
                    emit(target, {})
                    body.append('#line %d "%s"\n' % (lineno + 1, rel(path)))
            else:
                body.append(''.join(ls))
            lineno += len(ls)

    for path in sources:
        body.append('\n/* ==== %s ==== */\n' % rel(path))
        emit(path, mapping[path])
        defined = [mapping[path].get(n, n) for n in macros[path] if n not in keep[path]]
        if defined:
            body.append('/* the macros of %s end here */\n' % rel(path))
            body.extend('#undef %s\n' % n for n in sorted(set(defined)))

    version = re.search(r'#define DG_VERSION_MAJOR (\d+)\s+#define DG_VERSION_MINOR (\d+)\s+'
                        r'#define DG_VERSION_PATCH (\d+)', text[public])
    head = ('/* libdungeon %s as one C file, generated by tools/amalgamate.py from lib/ and\n'
            ' * include/ (make amalgamation); do not edit. Compile it with the program\n'
            ' * (C11) and include the dungeon.h beside it. docs/build.md */\n'
            % '.'.join(version.groups()))
    renamed = sum(len(m) for m in mapping.values())
    head += '/* %d files; %d file-private names renamed to stay apart. */\n' % (len(sources), renamed)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'dungeon.c'), 'w', encoding='utf-8') as f:
        f.write(head)
        f.writelines('#include <%s>\n' % s for s in system)
        f.write(GCC_GUESS_BEGIN)
        f.writelines(body)
        f.write(GCC_GUESS_END)
    with open(os.path.join(outdir, 'dungeon.h'), 'w', encoding='utf-8') as f:
        f.write(text[public])


if __name__ == '__main__':
    main()
