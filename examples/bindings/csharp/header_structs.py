"""The structs of include/dungeon.h, for the C# layout check.

    python3 header_structs.py include/dungeon.h probe   > probe.c
    python3 header_structs.py include/dungeon.h names   (struct and field names)

`probe` writes a C program printing "dg_NAME size N" and "dg_NAME.FIELD N"
(offsetof) for every field of every struct; an array of structs is listed
element by element (FIELD0, FIELD1, ...), as the C# mirrors spell it.
Test.cs prints the same lines for its mirrors through reflection."""
import re
import sys

STRUCT = re.compile(r"typedef struct (dg_\w+) \{(.*?)\} \1;", re.S)


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def fields(body, defines):
    """[(name, type, array length or 0)] of a struct body."""
    out = []
    for decl in body.split(";"):
        decl = " ".join(decl.split())
        if not decl:
            continue
        fn = re.match(r"(.+?)\(\s*\*\s*(\w+)\s*\)\s*\(.*\)$", decl)
        if fn:  # a function pointer field
            out.append((fn.group(2), "fnptr", 0))
            continue
        m = re.match(r"((?:const )?[\w]+(?: \*| \*const)?\s*\**)\s*(.*)$", decl)
        ctype, names = m.group(1).strip(), m.group(2)
        for name in names.split(","):
            name = name.strip()
            stars = len(name) - len(name.lstrip("*"))
            name = name.lstrip("* ")
            # "spare[DG_SPARE_SLOTS - 1]" too; a 2-D array ("rooms[8][32]") is flattened
            arr = re.match(r"(\w+)((?:\[\w+(?: - \d+)?\])+)$", name)
            length = 0
            if arr:
                name, length = arr.group(1), 1
                for size, minus in re.findall(r"\[(\w+)(?: - (\d+))?\]", arr.group(2)):
                    length *= int(defines.get(size, size)) - int(minus or 0)
            out.append((name, ctype + "*" * stars, length))
    return out


def structs(header):
    defines = dict(re.findall(r"#define (DG_\w+) (\d+)\b", header))
    text = strip_comments(header)
    return [(name, fields(body, defines)) for name, body in STRUCT.findall(text)]


def probe(header):
    lines = ["#include <dungeon.h>", "#include <stddef.h>", "#include <stdio.h>",
             "int main(void)", "{"]
    for name, fs in structs(header):
        lines.append('    printf("%s size %%zu\\n", sizeof(%s));' % (name, name))
        for fname, ctype, length in fs:
            if length and ctype.startswith("dg_"):
                for i in range(length):
                    lines.append('    printf("%s.%s%d %%zu\\n", offsetof(%s, %s[%d]));'
                                 % (name, fname, i, name, fname, i))
            else:
                lines.append('    printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (name, fname, name, fname))
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    text = open(sys.argv[1], encoding="utf-8").read()
    if sys.argv[2] == "probe":
        sys.stdout.write(probe(text))
    else:
        for name, fs in structs(text):
            print(name, fs)
