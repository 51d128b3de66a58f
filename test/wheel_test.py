"""test/wheel_test.py - the installed utf8ext wheel, used as a user would.

Run by test/wheel_test.sh with the venv's python, from a directory holding
no utf8ext module, so only the installed package can answer. Argument: the
version expected. Prints "wheel (python): N passed, N failed".
"""
import importlib.metadata as md
import os
import sqlite3
import sys

passed = failed = 0


def check(name, got, expected):
    global passed, failed
    if got == expected:
        passed += 1
    else:
        failed += 1
        print(f"wheel: {name} FAILED\n  expected: {expected!r}\n  got:      {got!r}")


version = sys.argv[1]
import utf8ext  # noqa: E402

check("installed in the venv", utf8ext.__file__.startswith(sys.prefix), True)
check("__version__", utf8ext.__version__, version)
path = utf8ext.loadable_path()
check("loadable_path is absolute", os.path.isabs(path), True)
check("loadable_path exists", os.path.isfile(path), True)

conn = sqlite3.connect(":memory:")
utf8ext.load(conn)
check("functions", conn.execute(
    "SELECT utf8_valid(?), utf8_valid(?), utf8_fix(?, '?'), utf8ext_version()",
    ("café", b"caf\xe9", b"caf\xe9")).fetchone(), (1, 0, "caf?", version))
conn.execute("CREATE TABLE t(name TEXT CHECK (utf8_valid(name)))")
try:
    conn.execute("INSERT INTO t VALUES (CAST(? AS TEXT))", (b"caf\xe9",))
    check("CHECK refuses ill-formed text", "inserted", "IntegrityError")
except sqlite3.IntegrityError:
    check("CHECK refuses ill-formed text", "IntegrityError", "IntegrityError")
# load() switches extension loading off again.
try:
    conn.load_extension(path)
    check("loading off after load()", "loaded", "refused")
except sqlite3.OperationalError:
    check("loading off after load()", "refused", "refused")

# The same module by path, as the sqlite3 shell or another binding would.
c2 = sqlite3.connect(":memory:")
c2.enable_load_extension(True)
c2.load_extension(path)
check("load_extension(loadable_path())", c2.execute("SELECT utf8_valid(x'C0AF')").fetchone(), (0,))


# A Python whose sqlite3 cannot load extensions: a clear error, not an
# AttributeError. A connection class without enable_load_extension stands in.
class NoExtConnection:
    def execute(self, *a):
        raise AssertionError("not reached")


try:
    utf8ext.load(NoExtConnection())
    check("clear error without extension loading", "no error", "RuntimeError")
except RuntimeError as e:
    check("clear error without extension loading",
          "cannot load extensions" in str(e) and "enable-loadable-sqlite-extensions" in str(e), True)

meta = md.metadata("utf8ext")
check("metadata License", meta["License"], "MIT")
check("metadata classifier", "License :: OSI Approved :: MIT License" in meta.get_all("Classifier"), True)
files = [str(f) for f in md.files("utf8ext")]
check("LICENSE in dist-info", any(f.endswith(".dist-info/LICENSE") for f in files), True)
wheel_tags = [l.split(": ", 1)[1] for l in md.distribution("utf8ext").read_text("WHEEL").splitlines()
              if l.startswith("Tag: ")]
check("platform wheel", [t.startswith("py3-none-linux_") for t in wheel_tags], [True])

print(f"wheel (python): {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
