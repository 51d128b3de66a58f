#!/usr/bin/python3
"""test/python_test.py - utf8ext from Python's sqlite3 module.

What a Python user does: enable_load_extension, load_extension, then pass
bytes and str as parameters and read the results back. Checks how values
cross the binding (bytes arrive as BLOBs, str as TEXT, errors become
sqlite3.OperationalError / IntegrityError) and every function once.

Run with Debian's /usr/bin/python3 (its sqlite3 module has
enable_load_extension; some other builds leave it out). UTF8EXT_LIB names
the module (default: ./utf8ext at the top of the source tree).
Prints "python: N passed, N failed".
"""
import os
import sqlite3
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXT = os.environ.get("UTF8EXT_LIB", os.path.join(TOP, "utf8ext"))

passed = failed = 0


# The legacy charsets an unknown ENC or METHOD lists, in their order.
CHARSETS = ("'ibm866', 'iso-8859-2', 'iso-8859-3', 'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7', 'iso-8859-8', 'iso-8859-10', 'iso-8859-13', 'iso-8859-14', 'iso-8859-15', 'iso-8859-16', 'koi8-r', 'koi8-u', 'macintosh', 'windows-874', 'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253', 'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257', 'windows-1258', 'x-mac-cyrillic', 'ibm437', 'ibm850', 'latin1', 'gbk', 'gb18030', 'big5', 'euc-jp', 'shift_jis', 'euc-kr'")

def check(name, got, expected):
    global passed, failed
    if got == expected:
        passed += 1
    else:
        failed += 1
        print(f"{name} FAILED\n  expected: {expected!r}\n  got:      {got!r}")


def one(con, sql, *params):
    return con.execute(sql, params).fetchone()


def error_of(con, sql, *params):
    """The exception type name and message SQL raises, or None."""
    try:
        con.execute(sql, params).fetchall()
    except sqlite3.Error as e:
        return (type(e).__name__, str(e))
    return None


def main():
    if not hasattr(sqlite3.Connection, "enable_load_extension"):
        print("this Python's sqlite3 cannot load extensions")
        print("python: 0 passed, 1 failed")
        return 1
    con = sqlite3.connect(":memory:")
    con.enable_load_extension(True)
    con.load_extension(EXT)
    # Loading is for setup only: switch it off again, as an application should.
    con.enable_load_extension(False)

    bad = b"caf\xe9"            # Latin-1 bytes, as a careless export writes them
    check("valid", one(con, "SELECT utf8_valid(?), utf8_valid(?), utf8_valid(?)",
                       "café", bad, None), (1, 0, None))
    check("fix", one(con, "SELECT utf8_fix(?), utf8_fix(?, '?'), utf8_fix(?, '', 'byte')",
                     bad, bad, b"a\xe1\x80b"), ("caf\ufffd", "caf?", "ab"))
    check("fix-run", one(con, "SELECT utf8_fix(?, '?', 'run')", b"a\x80\x80b"), ("a?b",))
    check("fix-bad-r", error_of(con, "SELECT utf8_fix('x', ?)", b"\xff"),
          ("OperationalError", "utf8_fix: the replacement R is not well-formed UTF-8"))
    # What Python's own decoder does with the same bytes: the same segmentation.
    raw = bytes.fromhex("61F18080E180C262806380BF64")
    check("fix-matches-python", one(con, "SELECT utf8_fix(?)", raw),
          (raw.decode("utf-8", "replace"),))
    check("length", one(con, "SELECT utf8_length(?)", raw),
          (len(raw.decode("utf-8", "replace")),))
    check("error_offset", one(con, "SELECT utf8_error_offset(?), utf8_error_offset(?)",
                              b"abc\xc0", "abc"), (3, None))
    check("error", one(con, "SELECT utf8_error(?)", b"A\xe4\xbd"),
          ("truncated at byte 1: E4BD",))
    check("check-ok", one(con, "SELECT utf8_check(?), utf8_check(?)", "fine", b"A"),
          ("fine", b"A"))
    check("check-bad", error_of(con, "SELECT utf8_check(?)", b"A\xe4\xbd"),
          ("OperationalError", "utf8_check: truncated at byte 1: E4BD"))
    check("encode", one(con, "SELECT utf8_encode(72, 105, 128512)"), ("Hi\U0001F600",))
    check("encode-surrogate", error_of(con, "SELECT utf8_encode(?)", 0xD800),
          ("OperationalError", "utf8_encode: argument 1 is a surrogate: 0xD800"))
    check("recode", one(con, "SELECT utf8_recode(?, 'cp1252'), utf8_recode(?, 'latin1')",
                        b"\x93smart\x94", b"M\xfcnchen"), ("\u201csmart\u201d", "München"))
    check("recode-cesu8", one(con, "SELECT utf8_recode(?, 'cesu8')",
                              bytes.fromhex("EDA18CEDBEB4")), ("\U000233B4",))
    check("version", one(con, "SELECT utf8ext_version()")[0].count("."), 2)
    check("impl", one(con, "SELECT utf8ext_impl()")[0] in
          ("scalar", "sse4", "avx2", "avx512", "neon"), True)

    rows = con.execute("SELECT offset, length, bytes, codepoint, char, valid, error"
                       " FROM utf8_codepoints(?)", (b"A\xe4\xbd\xf0\x9f\x98\x80\xc0",)).fetchall()
    check("codepoints", rows, [
        (0, 1, b"A", 65, "A", 1, None),
        (1, 2, b"\xe4\xbd", None, None, 0, "missing continuation"),
        (3, 4, "\U0001F600".encode(), 128512, "\U0001F600", 1, None),
        (7, 1, b"\xc0", None, None, 0, "overlong")])

    # A table imported from bytes, audited, and kept clean by a CHECK.
    con.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
    con.executemany("INSERT INTO t VALUES (?, CAST(? AS TEXT))",
                    [(1, "Zoë".encode()), (2, b"Zo\xeb"), (3, b"Java\xc0\x80")])
    check("audit", con.execute("SELECT pk, error, bytes, errors FROM utf8_audit('t')").fetchall(),
          [("2", "truncated", b"\xeb", 1), ("3", "overlong", b"\xc0", 2)])
    # The workflow as functions: summary, repair (logged), undo, byte for byte.
    check("summary", con.execute("SELECT col, checked, bad, reasons, first_pk"
                                 " FROM utf8_audit_summary('t')").fetchall(),
          [("id", 0, 0, "", None), ("name", 3, 2, "overlong,truncated", "2")])
    before = con.execute("SELECT hex(name) FROM t ORDER BY id").fetchall()
    with con:
        check("repair", con.execute("SELECT utf8_repair('t', 'cp1252')").fetchone()[0], 2)
    check("repair-log", con.execute("SELECT rid, original, method FROM utf8_repair_log"
                                    " ORDER BY id").fetchall(),
          [(2, b"Zo\xeb", "cp1252"), (3, b"Java\xc0\x80", "cp1252")])
    with con:
        check("undo", con.execute("SELECT utf8_undo()").fetchone()[0], 2)
    check("undo-exact", con.execute("SELECT hex(name) FROM t ORDER BY id").fetchall(), before)
    check("repair-error", error_of(con, "SELECT utf8_repair('t', 'utf-7')"),
          ("OperationalError", "utf8_repair: unknown METHOD 'utf-7': use 'fix', 'auto', 'mojibake', 'cp1252-whole', "
           "'latin1-whole', 'cp1252' "
           "(or 'windows-1252'), 'latin1' (or 'latin-1', 'iso-8859-1'), 'cesu8', 'mutf8', 'utf-8',"
           " or a legacy charset (its ill-formed runs decoded; with '-whole' after its name,"
           " every byte): %s; nothing was changed" % CHARSETS))
    # Reading such TEXT back into str fails in Python: the reason to repair it.
    check("python-cannot-read", error_of(con, "SELECT name FROM t WHERE id = 2"),
          ("OperationalError", "Could not decode to UTF-8 column 'name' with text 'Zo\ufffd'"))
    con.execute("UPDATE t SET name = utf8_recode(name, 'cp1252') WHERE NOT utf8_valid(name)")
    check("repaired", [r[0] for r in con.execute("SELECT name FROM t ORDER BY id")],
          ["Zoë", "Zoë", "JavaÀ\u20ac"])
    con.execute("CREATE TABLE clean(name TEXT CHECK (utf8_valid(name)))")
    check("constraint", error_of(con, "INSERT INTO clean VALUES (CAST(? AS TEXT))", b"\xff"),
          ("IntegrityError", "CHECK constraint failed: utf8_valid(name)"))

    # load_extension is off again: SQL cannot load anything now.
    check("load-disabled", error_of(con, "SELECT load_extension(?)", EXT),
          ("OperationalError", "not authorized"))
    con.close()

    print(f"python: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
