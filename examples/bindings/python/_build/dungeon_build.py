"""A PEP 517 build backend for the dungeon package that needs no package.

build_wheel compiles the repository's lib/*.c into libdungeon.so with the
system C compiler ($CC, else cc; $CFLAGS, else -O2) and writes a wheel holding
it beside the package's Python sources. $DUNGEON_PREBUILT names an already
built libdungeon.so to pack instead. The sources are found at ../../.. from
the package directory (pip >= 21.3 builds in place), or at $DUNGEON_SOURCE."""
import base64
import glob
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # examples/bindings/python
NAME = "libdungeon"
PACKAGE = "dungeon"


def _source_root():
    root = os.environ.get("DUNGEON_SOURCE") or os.path.join(HERE, "..", "..", "..")
    root = os.path.abspath(root)
    if not os.path.isfile(os.path.join(root, "include", "dungeon.h")):
        raise RuntimeError("libdungeon sources not found at %s: install from the repository "
                           "checkout (pip >= 21.3 builds in place) or set DUNGEON_SOURCE" % root)
    return root


def _version(root):
    header = open(os.path.join(root, "include", "dungeon.h"), encoding="utf-8").read()
    part = {k: re.search(r"#define DG_VERSION_%s (\d+)" % k, header).group(1)
            for k in ("MAJOR", "MINOR", "PATCH")}
    return "%s.%s.%s" % (part["MAJOR"], part["MINOR"], part["PATCH"])


def _compile(root, out_dir):
    """libdungeon.so from lib/*.c, built as the Makefile builds it (hidden
    visibility, DG_API exports only)."""
    prebuilt = os.environ.get("DUNGEON_PREBUILT")
    target = os.path.join(out_dir, "libdungeon.so")
    if prebuilt:
        shutil.copyfile(prebuilt, target)
        return target
    sources = sorted(glob.glob(os.path.join(root, "lib", "*", "*.c")))
    cc = shlex.split(os.environ.get("CC", "cc"))
    flags = shlex.split(os.environ.get("CFLAGS", "-O2"))
    cmd = cc + ["-std=c11", "-fPIC", "-fvisibility=hidden", "-DDG_SHARED_BUILD", "-shared"] + flags + [
        "-I" + os.path.join(root, "include"), "-I" + os.path.join(root, "lib")] + sources + [
        "-o", target, "-lm"]
    print("dungeon_build: " + " ".join(cmd[:8]) + " ... (%d sources)" % len(sources))
    subprocess.run(cmd, check=True)
    return target


def _tag():
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-" + platform


def _wheel_text():
    return "Wheel-Version: 1.0\nGenerator: dungeon_build\nRoot-Is-Purelib: false\nTag: %s\n" % _tag()


def _metadata(version):
    readme = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: Seeded dungeon generators, "
            "map analysis and Tiled exports (libdungeon through ctypes)\nLicense: MIT\n"
            "Requires-Python: >=3.8\nProvides-Extra: numpy\nRequires-Dist: numpy; extra == \"numpy\"\n"
            "Description-Content-Type: text/markdown\n\n%s" % (NAME, version, readme))


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (path, digest, len(data))


def _wheel_files(root, version, tmp):
    """[(path in the wheel, bytes)]: the package, the library, the dist-info."""
    files = []
    pkg = os.path.join(HERE, PACKAGE)
    for name in sorted(os.listdir(pkg)):
        if name.endswith(".py") or name == "py.typed":
            with open(os.path.join(pkg, name), "rb") as f:
                files.append((PACKAGE + "/" + name, f.read()))
    with open(_compile(root, tmp), "rb") as f:
        files.append((PACKAGE + "/libdungeon.so", f.read()))
    info = "%s-%s.dist-info" % (NAME, version)
    files.append((info + "/METADATA", _metadata(version).encode()))
    files.append((info + "/WHEEL", _wheel_text().encode()))
    return files, info


def _entry(path):
    """A zip entry with a fixed date (the same wheel bytes every build) and Unix modes."""
    entry = zipfile.ZipInfo(path, (1980, 1, 1, 0, 0, 0))
    entry.compress_type = zipfile.ZIP_DEFLATED
    entry.external_attr = (0o755 if path.endswith(".so") else 0o644) << 16
    return entry


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    root = _source_root()
    version = _version(root)
    name = "%s-%s-%s.whl" % (NAME, version, _tag())
    with tempfile.TemporaryDirectory() as tmp:
        files, info = _wheel_files(root, version, tmp)
        record = [_record_line(p, d) for p, d in files] + [info + "/RECORD,,"]
        with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
            for path, data in files + [(info + "/RECORD", ("\n".join(record) + "\n").encode())]:
                z.writestr(_entry(path), data)
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The dist-info alone, so pip learns the version without compiling."""
    version = _version(_source_root())
    info = "%s-%s.dist-info" % (NAME, version)
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    with open(os.path.join(metadata_directory, info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata(version))
    with open(os.path.join(metadata_directory, info, "WHEEL"), "w", encoding="utf-8") as f:
        f.write(_wheel_text())
    return info
