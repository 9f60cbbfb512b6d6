#!/usr/bin/env python3
"""Writes docs/reference.md, the one-line-per-name reference of include/dungeon.h.

    python3 docs/reference.py            regenerate docs/reference.md
    python3 docs/reference.py --check    exit 1 if docs/reference.md is stale or the
                                         header has a function without a summary
    python3 docs/reference.py --stdout   print the reference instead of writing it

Options: --header FILE (default include/dungeon.h), --docs DIR (default docs/),
--out FILE (default DIR/reference.md). Paths are taken relative to the working
directory; the defaults are relative to the repository (the script's parent).

Every public function, struct, enum, other typedef and constant (#define DG_*)
of the header is listed under the header's section banners
("/* ---- title ---- */"), in header order, with the first sentence of its
comment: the comment directly above it or the one beside it on its first line.
Each section and each name links to the docs page that explains it: a section
through SECTION_PAGES below, a name through the page that mentions it (the
section's page first, else the explaining page that mentions it most), at
the heading where it is explained. A name no page explains links to its
section's guide (api.md for a section with no page), with a warning on
stderr. The output depends only on the header and docs/*.md: a docs edit
can make docs/reference.md stale too.
"""

import os
import re
import sys

# Section banner (a regular expression over its title) -> docs page[#heading].
# The first match wins. "generator: ... (NAME)" banners go to docs/NAME.md when
# that page exists, before this table is consulted.
SECTION_PAGES = [
    (r"\bversion\b", "api.md#version"),
    (r"status|diagnostic", "api.md#status-and-diagnostics"),
    (r"allocator", "api.md#allocator-hooks"),
    (r"\btiles?\b", "api.md#tiles"),
    (r"\bgrid\b", "api.md#grids-the-caller-owns-the-memory"),
    (r"random", "api.md#random-numbers"),
    (r"structured output|\bresult\b", "api.md#the-structured-result"),
    (r"render", "api.md#rendering"),
    (r"analysis", "analysis.md"),
    (r"progression|\block", "progression.md"),
    (r"anchor|floors?\b|\bsite", "progression.md"),
    (r"prefab", "prefabs.md"),
    (r"scheduler", "scheduler.md"),
    (r"chase", "scheduler.md#chase-many-monsters-one-map"),
    (r"\bworld\b", "world.md"),
    (r"recipe|registry|parameter", "recipes.md"),
    (r"export|tiled|json", "export.md"),
]
FALLBACK_PAGE = "api.md"
# Pages that mention names without explaining them (matrices, changelogs,
# binding notes): a name is linked there only from its own section's page.
CATALOG_PAGES = {"bindings.md", "determinism.md", "embedding.md", "gallery.md",
                 "ports.md", "robustness.md"}

# Functions whose header declaration has no comment above or beside it. The
# reference shows the summary given here (marked as such) until the header
# gets a comment; a function missing from both fails --check. An entry whose
# function has gained a comment is reported so it can be dropped.
NO_COMMENT = {
    "dg_rng_seed": "Seeds rng: the same (seed, stream) gives the same sequence.",
    "dg_path_workspace_create": "Makes a search workspace for grids of at most width x height cells.",
    "dg_explorer_free": "Releases an explorer (NULL is fine).",
    "dg_explorer_set_state": "Sets the game's own value for an entered room.",
}

MACROS_SKIPPED = {"DG_API"}
USERS_SHOWN = 3      # functions named for a struct without a comment
SUMMARY_SOFT = 150   # a longer first sentence is cut at its first ';' or ':'
SUMMARY_HARD = 220   # and anything still longer at a word boundary

BANNER = re.compile(r"^/\*\s*-{3,}\s*(.*?)\s*-{3,}\s*\*/$")
IDENT = re.compile(r"[A-Za-z_]\w*")


class Comment:
    def __init__(self, first, last, text, banner=None):
        self.first, self.last, self.text, self.banner = first, last, text, banner


class Entry:
    """A listed name: kind is function, struct, enum, type or macro."""

    def __init__(self, kind, name, line, section):
        self.kind, self.name, self.line, self.section = kind, name, line, section
        self.summary = ""        # first sentence of its comment ("" if none)
        self.own_comment = False  # a comment directly above or beside it
        self.params = []         # function: parameter names
        self.returns = ""        # function: return type
        self.api = False         # function: declared with DG_API
        self.members = []        # enum: enumerator names
        self.value = ""          # macro: its replacement text
        self.opaque = False      # struct: declared without a body
        self.link = ""           # docs page[#anchor], relative to docs/
        self.terms = []          # what a docs page must mention to explain it


class Section:
    def __init__(self, title, line):
        self.title, self.line = title, line
        self.intro = ""
        self.entries = []
        self.link = ""


def comment_text(raw):
    """The words of a /* ... */ comment, its lines joined with single spaces."""
    body = raw[2:-2] if raw.endswith("*/") else raw[2:]
    lines = []
    for k, ln in enumerate(body.split("\n")):
        ln = ln.strip()
        if k and ln.startswith("*"):  # the margin of a continued line
            ln = ln[1:].strip()
        lines.append(ln)
    return " ".join(x for x in lines if x).strip()


def strip_comments(text):
    """text with every /* */ and // comment replaced by a space."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def open_comment(text):
    """True if text ends inside a /* comment."""
    k = 0
    while True:
        a = text.find("/*", k)
        if a < 0:
            return False
        b = text.find("*/", a + 2)
        if b < 0:
            return True
        k = b + 2


def split_top(text, sep):
    """text split at sep characters outside (), [] and {}."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def param_name(param):
    """The name of one declared parameter ("" for void or an unnamed one)."""
    param = param.strip()
    if param in ("", "void"):
        return ""
    if param == "...":
        return "..."
    m = re.search(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)", param)  # function pointer
    if m:
        return m.group(1)
    param = re.sub(r"\[[^\]]*\]", "", param).strip()
    words = IDENT.findall(param)
    if len(words) < 2:  # a type alone: unnamed
        return ""
    return words[-1]


def first_sentence(text):
    """The first sentence of a comment, cut to a scannable length."""
    depth, quote, end = 0, False, len(text)
    for i, ch in enumerate(text):
        if ch == '"':
            quote = not quote
        elif quote:
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "." and depth == 0 and (i + 1 == len(text) or text[i + 1].isspace()):
            word = re.search(r"(\S*)$", text[:i]).group(1).lower()
            if text[i - 1:i] == "." or word in ("e.g", "i.e", "cf", "vs"):
                continue
            end = i + 1
            break
    s = text[:end].strip()
    cut = False
    if len(s) > SUMMARY_SOFT:
        depth, quote = 0, False
        for i, ch in enumerate(s):
            if ch == '"':
                quote = not quote
            elif quote:
                continue
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth = max(0, depth - 1)
            elif depth == 0 and i >= 30 and ch in ";:" and s[i + 1:i + 2] in (" ", ""):
                s, cut = s[:i], True
                break
    if len(s) > SUMMARY_HARD:
        s, cut = s[:SUMMARY_HARD].rsplit(" ", 1)[0], True
    if cut:
        s = s.rstrip(" ,;:.") + " …"
    return s


class Header:
    def __init__(self, path, text):
        self.path = path
        self.lines = text.split("\n")
        self.comments = []      # every comment, in order
        self.sections = []
        self.entries = []
        self.errors = []        # what --check fails on
        self.warnings = []
        self.parse()

    # -- reading ------------------------------------------------------------
    def parse(self):
        lines, i, n = self.lines, 0, len(self.lines)
        skip = []   # per open #if: 1 if its code is C++-only (extern "C" braces)
        self.current = Section("(before the first banner)", 1)
        while i < n:
            s = lines[i].strip()
            if not s:
                i += 1
                continue
            if s.startswith("/*") or s.startswith("//"):
                i = self.read_comment(i)
                continue
            if s.startswith("#"):
                j = i
                while j + 1 < n and (lines[j].rstrip().endswith("\\")
                                     or open_comment("\n".join(lines[i:j + 1]))):
                    j += 1
                directive = "\n".join(x.rstrip().rstrip("\\") for x in lines[i:j + 1])
                self.read_directive(directive, i, j, skip)
                i = j + 1
                continue
            if any(skip):
                i += 1
                continue
            if s in ("}", "};"):  # the close of extern "C" outside a conditional
                i += 1
                continue
            i = self.read_declaration(i)
        self.flush_section()

    def read_comment(self, i):
        lines = self.lines
        if lines[i].strip().startswith("//"):
            raw, j = lines[i].strip(), i
            text = raw[2:].strip()
        else:
            start = lines[i].index("/*")
            j = i
            while "*/" not in (lines[j][start + 2:] if j == i else lines[j]) and j + 1 < len(lines):
                j += 1
            joined = "\n".join(lines[i:j + 1])
            raw = joined[joined.index("/*"):joined.index("*/", joined.index("/*") + 2) + 2]
            text = comment_text(raw)
        m = BANNER.match(raw.replace("\n", " ")) if i == j else None
        c = Comment(i + 1, j + 1, text, banner=m.group(1) if m else None)
        self.comments.append(c)
        if c.banner is not None:
            self.flush_section()
            self.current = Section(c.banner, i + 1)
            self.current.banner_line = i + 1
        elif (not self.current.intro and hasattr(self.current, "banner_line")
              and self.gap_is_blank(self.current.banner_line, i + 1)):
            self.current.intro = first_sentence(text)
            c.intro = True
        return j + 1

    def gap_is_blank(self, after, before):
        """True if lines after+1 .. before-1 (1-based) are all blank."""
        return all(not self.lines[k - 1].strip() for k in range(after + 1, before))

    def flush_section(self):
        if self.current.entries or self.current.title != "(before the first banner)":
            if self.current not in self.sections:
                self.sections.append(self.current)

    def read_directive(self, d, i, j, skip):
        code = " ".join(strip_comments(d).split())
        m = re.match(r"#\s*(\w+)\s*(.*)", code)
        if not m:
            return
        word, rest = m.group(1), m.group(2).strip()
        if word in ("if", "ifdef", "ifndef"):
            skip.append(1 if "__cplusplus" in rest else 0)
        elif word == "endif":
            if skip:
                skip.pop()
        elif word == "define" and not any(skip):
            dm = re.match(r"([A-Za-z_]\w*)(\([^)]*\))?\s*(.*)", rest)
            if not dm:
                return
            name = dm.group(1)
            if not name.startswith("DG_") or name in MACROS_SKIPPED:
                return
            if any(e.kind == "macro" and e.name == name for e in self.entries):
                return  # defined again under another condition
            e = Entry("macro", name + (dm.group(2) or ""), i + 1, self.current)
            e.terms = [name]
            e.value = dm.group(3).strip()
            trailing = self.trailing_comment(d)
            if trailing:
                e.summary, e.own_comment = first_sentence(trailing), True
            else:
                c = self.comment_above(i + 1)
                # a section's introduction or a long paragraph above a constant
                # speaks of the section, not of the constant
                if c and not getattr(c, "intro", False) and c.last - c.first < 4:
                    e.summary, e.own_comment = first_sentence(c.text), True
            self.add(e)

    @staticmethod
    def trailing_comment(line):
        """The comment that follows code on a line, or ""."""
        code_seen, k = False, 0
        while k < len(line):
            if line.startswith("/*", k) or line.startswith("//", k):
                if not code_seen:
                    end = line.find("*/", k + 2)
                    k = len(line) if end < 0 else end + 2
                    continue
                raw = line[k:]
                if raw.startswith("//"):
                    return raw[2:].strip()
                end = raw.find("*/")
                return comment_text(raw[:end + 2] if end >= 0 else raw)
            if line[k] == '"':
                k = line.find('"', k + 1) + 1 or len(line)
                code_seen = True
                continue
            if not line[k].isspace():
                code_seen = True
            k += 1
        return ""

    def comment_above(self, line):
        """The comment ending on the line just above `line` (1-based), if any."""
        for c in reversed(self.comments):
            if c.last == line - 1 and c.banner is None:
                return c
            if c.last < line - 1:
                break
        return None

    def read_declaration(self, i):
        """Reads one declaration from line i to its ';' at depth 0."""
        lines, n = self.lines, len(self.lines)
        buf, depth, j = [], 0, i
        in_comment = False
        while j < n:
            ln = lines[j]
            k, end = 0, -1
            while k < len(ln):
                if in_comment:
                    e = ln.find("*/", k)
                    if e < 0:
                        k = len(ln)
                        break
                    k, in_comment = e + 2, False
                    continue
                if ln.startswith("/*", k):
                    in_comment = True
                    k += 2
                    continue
                if ln.startswith("//", k):
                    break
                ch = ln[k]
                if ch in "{(":
                    depth += 1
                elif ch in "})":
                    depth -= 1
                elif ch == ";" and depth == 0:
                    end = k
                    break
                k += 1
            if end >= 0:
                buf.append(ln[:end + 1])
                after = ln[end + 1:]
                break
            buf.append(ln)
            j += 1
        else:
            after = ""
            self.errors.append(f"{self.path}:{i + 1}: declaration without a closing ';'")
        text = "\n".join(buf)
        self.classify(text, i, j, after)
        return j + 1

    def classify(self, text, i, j, after):
        first_line = self.lines[i]
        code = " ".join(strip_comments(text).split())
        above = self.comment_above(i + 1)
        beside = self.trailing_comment(first_line) or self.trailing_comment(after)
        if j > i and not beside:
            # a prototype whose comment follows its last line: "...); /* what */"
            beside = self.trailing_comment(self.lines[j]) if self.lines[j].rstrip().endswith("*/") else ""

        def summarise(e, prefer_beside=False):
            order = [beside, above.text if above else ""]
            if not prefer_beside:
                order.reverse()
            for t in order:
                if t:
                    e.summary, e.own_comment = first_sentence(t), True
                    return

        if re.match(r"(extern\s+)?DG_API\b", code) or self.is_prototype(code):
            self.read_function(code, i, summarise)
            return
        m = re.match(r"typedef\s+(struct|union)\s+(\w+)?\s*(\{.*\})?\s*(\w+)\s*;$", code)
        if m:
            e = Entry("struct", m.group(4), i + 1, self.current)
            e.opaque = m.group(3) is None
            e.terms = [e.name]
            summarise(e, prefer_beside=False)
            self.add(e)
            return
        m = re.match(r"(struct|union)\s+(\w+)\s*\{.*\}\s*;$", code)
        if m:
            e = Entry("struct", m.group(2), i + 1, self.current)
            e.terms = [e.name]
            summarise(e)
            self.add(e)
            return
        m = re.match(r"(typedef\s+)?enum\s*(\w+)?\s*\{(.*)\}\s*(\w+)?\s*;$", code)
        if m:
            members = [IDENT.match(x.strip()).group(0)
                       for x in split_top(m.group(3), ",") if x.strip()]
            name = m.group(4) or m.group(2) or enum_title(members)
            e = Entry("enum", name, i + 1, self.current)
            e.members = members
            e.terms = ([m.group(4)] if m.group(4) else []) + \
                      ([m.group(2)] if m.group(2) else []) + members
            # the comment on an enum's opening line names the field it is for
            summarise(e, prefer_beside=True)
            self.add(e)
            return
        m = re.match(r"typedef\s+(.*)$", code)
        if m:
            fp = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", code)
            name = fp.group(1) if fp else IDENT.findall(re.sub(r"\[[^\]]*\]", "", code))[-1]
            e = Entry("type", name, i + 1, self.current)
            e.terms = [name]
            summarise(e)
            self.add(e)
            return
        if code.startswith("extern \"C\""):
            return
        self.warnings.append(f"{self.path}:{i + 1}: not listed: {code[:60]}")

    @staticmethod
    def is_prototype(code):
        return (not code.startswith("typedef") and "{" not in code
                and re.search(r"\bdg_\w+\s*\(", code) is not None)

    def read_function(self, code, i, summarise):
        api = re.match(r"(extern\s+)?DG_API\s+", code)
        body = code[api.end():] if api else code
        lp = body.index("(")
        # a function returning a function pointer has its name inside "(*"
        m = re.search(r"\(\s*\*\s*(\w+)\s*\($", body[:body.index("(", lp + 1) + 1]) \
            if body[lp + 1:].lstrip().startswith("*") else None
        if m:
            name = m.group(1)
            params_text = body[body.index("(", lp + 1) + 1:]
            depth, k = 1, 0
            while k < len(params_text) and depth:
                depth += (params_text[k] == "(") - (params_text[k] == ")")
                k += 1
            tail = params_text[k:].strip()
            tail = tail[1:].strip() if tail.startswith(")") else tail
            returns = body[:lp].strip() + " (*)" + tail.rstrip(";").strip()
        else:
            head = body[:lp].rstrip()
            name = IDENT.findall(head)[-1]
            returns = head[:head.rindex(name)].strip()
            params_text = body[lp + 1:]
        depth, close = 1, len(params_text)
        for k, ch in enumerate(params_text):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                close = k
                break
        e = Entry("function", name, i + 1, self.current)
        e.returns = re.sub(r"(?<=[\w)])\*", " *", re.sub(r"\s*\*\s*", "*", " ".join(returns.split())))
        e.params = [param_name(p) for p in split_top(params_text[:close], ",")]
        e.params = [p for p in e.params if p]
        e.api = api is not None
        e.prototype = code
        e.terms = [name]
        summarise(e)
        if not e.api:
            self.errors.append(f"{self.path}:{i + 1}: {name} is declared without DG_API "
                               "(it would not be exported)")
        if not e.own_comment:
            if name in NO_COMMENT:
                e.summary = NO_COMMENT[name]
            else:
                self.errors.append(f"{self.path}:{i + 1}: {name} has no comment above or beside "
                                   "it (the reference's summary); add one to the header")
        elif name in NO_COMMENT:
            self.warnings.append(f"{self.path}:{i + 1}: {name} now has a comment: drop it from "
                                 "NO_COMMENT in docs/reference.py")
        self.add(e)

    def add(self, e):
        for old in self.entries:
            if old.name == e.name and old.kind == e.kind:
                if e.kind != "function":
                    return
                self.errors.append(f"{self.path}:{e.line}: {e.name} is declared twice "
                                   f"(also line {old.line})")
                return
        self.entries.append(e)
        self.current.entries.append(e)


def enum_title(members):
    """The name of an anonymous enum: the prefix its enumerators share, as
    DG_TILE_*, with the names outside it listed before ("DG_OK, DG_E_*")."""
    if not members:
        return "(empty enum)"

    def prefix(names):
        p = os.path.commonprefix(names)
        return p[:p.rfind("_") + 1] if len(names) > 1 else names[0][:names[0].rfind("_") + 1]

    p = prefix(members)
    if p.count("_") >= 2 or len(members) < 3:
        return p + "*" if len(members) > 1 and p.count("_") >= 2 else ", ".join(members)
    best = None
    for k in range(len(members)):
        rest = members[:k] + members[k + 1:]
        q = prefix(rest)
        if q.count("_") >= 2 and (best is None or len(q) > len(best[1])):
            best = (k, q)
    if best is None:
        return ", ".join(members)
    k, q = best
    out = [members[k], q + "*"]
    return ", ".join(out if k == 0 else reversed(out))


# -- the docs pages ------------------------------------------------------------

def slugify(heading, seen):
    """GitHub's anchor for a heading, made unique as GitHub does (-1, -2...)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
    base, k = slug, 0
    while slug in seen:
        k += 1
        slug = f"{base}-{k}"
    seen.add(slug)
    return slug


class Page:
    """One docs page: its text cut into parts at its headings."""

    def __init__(self, name, text):
        self.name = name
        self.parts = [("", "", [])]  # (heading text, anchor, lines)
        seen, fence = set(), None
        for ln in text.split("\n"):
            m = re.match(r"\s*(```|~~~)", ln)
            if m:
                fence = None if fence == m.group(1) else (fence or m.group(1))
            h = re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", ln) if fence is None else None
            if h:
                self.parts.append((h.group(2), slugify(h.group(2), seen), []))
            else:
                self.parts[-1][2].append(ln)
        self.parts = [(h, a, "\n".join(body)) for h, a, body in self.parts]
        self.text = text
        self.anchors = {p[1] for p in self.parts if p[1]}
        # the page's title: a link to it is a link to the page
        self.top = self.parts[1][1] if len(self.parts) > 1 else ""

    def type_anchor(self, name):
        """The anchor of the first heading after the page's title that names
        a type whose name starts name (dg_move for dg_move_defaults), or None."""
        for heading, anchor, _ in self.parts[2:]:
            if any(name.startswith(w + "_") for w in re.findall(r"dg_\w+", heading)):
                return anchor
        return None

    def mentions(self, terms, words=""):
        """(total mentions, anchor) of any of terms in the page. The anchor is
        that of the first heading that holds a term, else of the first heading
        that holds `words` (the name in words: "distance map"), else of the
        first heading that names its type (dg_move for dg_move_defaults),
        else of the part with the most mentions, a call with arguments
        counting three times (the first part on ties); the page's opening
        (before its second heading) only when no other part mentions them,
        as "" (the page's top)."""
        if not any(t.rstrip("*") in self.text for t in terms):
            return 0, None
        pat = re.compile("|".join(r"(?<![\w])" + re.escape(t.rstrip("*")) +
                                  ("" if t.endswith("*") else r"(?![\w])") for t in terms))
        # a part that shows the call's arguments is where it is explained
        named = [re.escape(t) for t in terms if not t.endswith("*")]
        call = re.compile(r"(?<![\w])(?:" + "|".join(named) + r")\((?!\))") if named else None
        total, best, best_count, titled, worded = 0, None, 0, None, None
        prefixed = self.type_anchor(terms[0]) if terms else None
        for k, (heading, anchor, body) in enumerate(self.parts):
            count = len(pat.findall(body))
            score = count + (2 * len(call.findall(body)) if call and count else 0)
            in_heading = pat.search(heading) is not None
            total += count + in_heading
            if in_heading and titled is None:
                titled = anchor
            if (words and worded is None and k > 1
                    and re.search(r"\b" + re.escape(words), plain(heading))):
                worded = anchor
            if k > 1 and score > best_count:
                best, best_count = anchor, score
        if total == 0:
            return 0, None
        for anchor in (titled, worded, prefixed, best):
            if anchor is not None:
                return total, "" if anchor == self.top else anchor
        return total, ""


def plain(heading):
    """A heading in lower-case words, without markup or punctuation."""
    return " ".join(re.sub(r"[^\w ]", " ", heading.replace("`", "").lower()).split())


def load_pages(docs):
    pages = {}
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md") and name != "reference.md":
            with open(os.path.join(docs, name), encoding="utf-8") as f:
                pages[name] = Page(name, f.read())
    return pages


def section_link(sec, pages, warnings):
    m = re.search(r"generator:.*\((\w+)\)", sec.title)
    if m and m.group(1) + ".md" in pages:
        return m.group(1) + ".md"
    for pat, target in SECTION_PAGES:
        if re.search(pat, sec.title, re.I):
            page, _, anchor = target.partition("#")
            if page not in pages:
                continue
            if anchor and anchor not in pages[page].anchors:
                warnings.append(f"docs/{page} has no heading #{anchor} (SECTION_PAGES in "
                                "docs/reference.py): linking to the page")
                return page
            return target
    for word in re.findall(r"[a-z]+", sec.title.lower()):
        if word + ".md" in pages:
            return word + ".md"
    warnings.append(f"section '{sec.title}': no docs page found, linking to {FALLBACK_PAGE} "
                    "(add it to SECTION_PAGES in docs/reference.py)")
    return FALLBACK_PAGE


def entry_link(e, sec_link, pages, warnings, header_path):
    """Where e is explained: its section's page if that mentions it, else the
    explaining page that mentions it most (catalog pages never), else its
    section's guide, with a warning."""
    terms = e.terms
    if e.kind == "enum" and e.name.endswith("*"):
        terms = terms + [t.strip() for t in e.name.split(",") if t.strip().endswith("*")]
    words = ""
    if e.kind in ("function", "struct", "type"):
        words = " ".join(e.name.split("_")[1:])
    sec_page = sec_link.partition("#")[0]
    if sec_page in pages:
        total, anchor = pages[sec_page].mentions(terms, words)
        if total:
            return sec_page + ("#" + anchor if anchor else "")
    best = None
    for name, page in pages.items():
        if name in CATALOG_PAGES:
            continue
        total, anchor = page.mentions(terms, words)
        if total and (best is None or total > best[0]):
            best = (total, name, anchor)
    if best:
        return best[1] + ("#" + best[2] if best[2] else "")
    anchor = pages[sec_page].type_anchor(e.name) if sec_page in pages else None
    if anchor:
        warnings.append(f"{header_path}:{e.line}: {e.name}: no docs page explains it, "
                        f"linking to {sec_page}#{anchor}, which explains its type")
        return f"{sec_page}#{anchor}"
    warnings.append(f"{header_path}:{e.line}: {e.name}: no docs page explains it, "
                    f"linking to its section's guide {sec_link}")
    return sec_link


# -- writing -----------------------------------------------------------------

def md(text):
    """Summary text as markdown: library names as code, the rest escaped."""
    out = []
    for k, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if k % 2:
            out.append(part)
            continue
        pieces = re.split(r"((?<![\w`])(?:dg|DG)_\w+(?:\(\))?(?:(?:->|\.)\w+)*\*?)", part)
        for j, p in enumerate(pieces):
            if j % 2:
                out.append("`" + p + "`")
            else:
                out.append(re.sub(r"([\\*_<>\[\]|#])", r"\\\1", p))
    return "".join(out)


def render(h, pages, header_rel):
    warnings = h.warnings
    for sec in h.sections:
        sec.link = section_link(sec, pages, warnings)
        for e in sec.entries:
            e.link = entry_link(e, sec.link, pages, warnings, header_rel)

    seen = set()
    for sec in h.sections:
        sec.anchor = slugify(sec.title, seen)
    functions = [e for e in h.entries if e.kind == "function"]
    for e in h.entries:
        if e.kind in ("struct", "type") and not e.summary:
            pat = re.compile(r"\b" + re.escape(e.name) + r"\b")
            users = [f.name for f in functions if pat.search(f.prototype)]
            e.users = users

    def count(kind):
        return sum(1 for e in h.entries if e.kind == kind)

    out = []
    w = out.append
    w("# libdungeon API reference")
    w("")
    w("<!-- Generated from include/dungeon.h by docs/reference.py; do not edit. "
      "Regenerate with: python3 docs/reference.py -->")
    w("")
    w("Every public name of `include/dungeon.h`, one line each, in the header's order and "
      "under its section banners. Each name links to the guide that explains it; the "
      "[index](#index) at the end lists them alphabetically. Functions show their "
      "parameter names in order; they return `dg_status` unless an arrow gives another "
      "type. Summaries are the first sentence of the header's comment; the header has "
      "the full contract. The guide to the shared pieces is [api.md](api.md).")
    w("")
    w(f"{count('function')} functions, {count('struct')} structs, {count('enum')} enums, "
      f"{count('type')} other types, {count('macro')} constants.")
    w("")
    w("## Contents")
    w("")
    for sec in h.sections:
        kinds = {}
        for e in sec.entries:
            kinds[e.kind] = kinds.get(e.kind, 0) + 1
        parts = [f"{kinds[k]} {label if kinds[k] == 1 else label + 's'}"
                 for k, label in (("function", "function"), ("struct", "struct"),
                                  ("enum", "enum"), ("type", "type"), ("macro", "constant"))
                 if k in kinds]
        w(f"- [{md_title(sec.title)}](#{sec.anchor}) ({', '.join(parts) or 'empty'}) "
          f"· guide: [{sec.link.partition('#')[0]}]({sec.link})")
    w("")
    for sec in h.sections:
        w(f"## {md_title(sec.title)}")
        w("")
        intro = f"{md(sec.intro)} " if sec.intro else ""
        w(f"{intro}Guide: [{sec.link.partition('#')[0]}]({sec.link}).")
        w("")
        for e in sec.entries:
            w("- " + entry_line(e))
        w("")
    w("## Index")
    w("")
    groups = {}
    for sec in h.sections:
        for e in sec.entries:
            key = index_key(e.name)
            groups.setdefault(key[0], []).append((key, e, sec))
    for word in sorted(groups):
        if word.endswith("s") and word[:-1] in groups:
            groups[word[:-1]].extend(groups.pop(word))
    for word in sorted(groups):
        items = sorted(groups[word], key=lambda t: (t[0], t[1].name))
        links = ", ".join(f"[`{e.name}`](#{sec.anchor})" for _, e, sec in items)
        w(f"- **{word}**: {links}")
    w("")
    return "\n".join(out)


def md_title(title):
    return re.sub(r"([\\*_<>\[\]|])", r"\\\1", title)


def index_key(name):
    """Sort key: the words after dg_/DG_, lower case ("DG_OK, DG_E_*" -> ok)."""
    words = name.lower().split(",")[0].strip().rstrip("*").split("_")
    if words and words[0] == "dg":
        words = words[1:]
    words = [x for x in words if x] or ["dg"]
    return (words[0], words[1:])


def entry_line(e):
    link = e.link
    summary = md(e.summary) if e.summary else ""
    if e.kind == "function":
        params = ", ".join(e.params)
        ret = f" → `{e.returns}`" if e.returns and e.returns != "dg_status" else ""
        note = " *(summary not from the header: it has no comment)*" \
            if not e.own_comment and e.name in NO_COMMENT else ""
        line = f"[`{e.name}`]({link})`({params})`{ret}"
        return line + (f" — {summary}" if summary else "") + note
    if not summary and getattr(e, "users", None):
        shown = ", ".join(f"`{u}`" for u in e.users[:USERS_SHOWN])
        more = len(e.users) - USERS_SHOWN
        summary = f"*used by* {shown}" + (f" *and {more} more*" if more > 0 else "")
    if e.kind == "struct":
        kind = "opaque struct" if e.opaque else "struct"
        return f"{kind} [`{e.name}`]({link})" + (f" — {summary}" if summary else "")
    if e.kind == "enum":
        names = ", ".join(f"`{m}`" for m in e.members)
        title = e.name if "," not in e.name else e.name.replace(", ", " ")
        head = f"enum [`{title}`]({link})" if "," not in e.name else \
            "enum " + ", ".join(f"[`{t.strip()}`]({link})" for t in e.name.split(","))
        return head + (f" — {summary}" if summary else "") + f" ({names})"
    if e.kind == "type":
        return f"type [`{e.name}`]({link})" + (f" — {summary}" if summary else "")
    value = f" `{e.value}`" if e.value and len(e.value) <= 90 else ""
    return f"[`{e.name}`]({link}){value}" + (f" — {summary}" if summary else "")


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    header = os.path.join(root, "include", "dungeon.h")
    docs = os.path.join(root, "docs")
    out, mode = None, "write"
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("--header", "--docs", "--out") and args:
            v = args.pop(0)
            if a == "--header":
                header = v
            elif a == "--docs":
                docs = v
            else:
                out = v
        elif a == "--check":
            mode = "check"
        elif a == "--stdout":
            mode = "stdout"
        else:
            sys.stderr.write(__doc__)
            return 2
    out = out or os.path.join(docs, "reference.md")
    with open(header, encoding="utf-8") as f:
        shown = os.path.relpath(header)
        h = Header(header if shown.startswith("..") else shown, f.read())
    pages = load_pages(docs)
    text = render(h, pages, h.path)
    for msg in h.warnings:
        sys.stderr.write("reference.py: warning: " + msg + "\n")
    for msg in h.errors:
        sys.stderr.write("reference.py: error: " + msg + "\n")
    if mode == "stdout":
        sys.stdout.write(text)
        return 1 if h.errors else 0
    if mode == "check":
        try:
            with open(out, encoding="utf-8") as f:
                old = f.read()
        except OSError:
            old = None
        if old != text:
            sys.stderr.write(f"reference.py: error: {out} is stale; regenerate it with: "
                             "python3 docs/reference.py\n")
            return 1
        return 1 if h.errors else 0
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return 1 if h.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
