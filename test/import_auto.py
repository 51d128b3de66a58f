#!/usr/bin/python3
"""test/import_auto.py - an imported table of mixed charsets, repaired by
utf8_repair(t, 'auto') in one call, then undone.

    /usr/bin/python3 test/import_auto.py [--corpus build/corpus] [--rows N]
                                         [--seed S] [--lib ./utf8ext]

Builds a table of N rows (default 5,000) from the corpus's test split (the
lines tools/gen-model.py never read): whole lines of 8 to 300 bytes, each
stored as one of the things a real import holds, in one column:

  well-formed UTF-8 (40%), mojibake (UTF-8 read as cp1252 and stored as
  UTF-8: well-formed, 5%), UTF-8 cut mid-character (5%, 8 bytes or more
  kept), and legacy bytes:
  cp1252 and Latin-1 (Western languages), cp1251 and KOI8-R (Cyrillic),
  cp1250 (Central European), Shift_JIS, GB18030, Big5, EUC-KR (the rest).

Then checks, row by row: legacy rows come back exactly (at least 99%)
and cut rows are mended as utf8_fix mends them (at least 98%: a lone lead
byte after a space, "Utilizando \xC2", reads as well as a letter; each
miss is printed), no well-formed value changes, and utf8_undo gives every
byte back. The last line is "import_auto: N passed, N failed".
"""
import argparse
import os
import random
import sqlite3
import sys
import time

WESTERN = "de fr es it pt nl sv da nb fi ca".split()
KINDS = [  # (kind, share, languages, Python codec, WHATWG name)
    ("utf8", 40, None, None, None),
    ("mojibake", 5, WESTERN, None, None),
    ("cut", 5, None, None, None),
    ("cp1252", 12, WESTERN, "cp1252", "windows-1252"),
    ("latin1", 6, WESTERN, "latin-1", "windows-1252"),
    ("cp1251", 10, "ru uk bg".split(), "cp1251", "windows-1251"),
    ("koi8-r", 4, ["ru"], "koi8_r", "koi8-r"),
    ("cp1250", 6, "pl cs hu sl hr".split(), "cp1250", "windows-1250"),
    ("shift_jis", 3, ["ja"], "cp932", "shift_jis"),
    ("gb18030", 3, ["zh_CN"], "gb18030", "gb18030"),
    ("big5", 3, ["zh_TW"], "big5hkscs", "big5"),
    ("euc-kr", 3, ["ko"], "cp949", "euc-kr"),
]
ALL = WESTERN + "ru uk bg pl cs hu sl hr el tr ja zh_CN zh_TW ko".split()


def load_lines(corpus, lang, cache):
    if lang not in cache:
        p = os.path.join(corpus, "test", lang + ".txt")
        cache[lang] = []
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                cache[lang] = [l.rstrip("\n") for l in f
                               if 8 <= len(l.rstrip("\n").encode()) <= 300]
    return cache[lang]


def make_rows(corpus, n, rnd, db):
    cache = {}
    kinds = []
    for k, share, *_ in KINDS:
        kinds += [k] * share
    rows = []
    while len(rows) < n:
        kind = rnd.choice(kinds)
        spec = next(x for x in KINDS if x[0] == kind)
        langs = spec[2] or ALL
        lines = load_lines(corpus, rnd.choice(langs), cache)
        if not lines:
            continue
        text = rnd.choice(lines)
        b = text.encode("utf-8")
        if kind == "utf8":
            rows.append((kind, b, text))
        elif kind == "mojibake":
            try:
                m = b.decode("cp1252")
            except UnicodeDecodeError:
                continue
            if m == text:
                continue
            rows.append((kind, m.encode("utf-8"), m))
        elif kind == "cut":
            # cut inside a character, keeping 8 bytes or more (a row of an
            # import, not a byte or two: those say nothing of their charset)
            cuts = [i for i in range(8, len(b)) if (b[i] & 0xC0) == 0x80]
            if not cuts:
                continue
            c = rnd.choice(cuts)
            rows.append((kind, b[:c], None))
        else:
            try:
                e = text.encode(spec[3])
            except UnicodeEncodeError:
                continue
            try:
                e.decode("utf-8")
                continue                      # well-formed: not an import error
            except UnicodeDecodeError:
                pass
            back, = db.execute("SELECT utf8_recode(?, ?, 'whole')",
                               (e, spec[4])).fetchone()
            if back != text:
                continue                      # WHATWG and Python disagree here
            rows.append((kind, e, text))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="build/corpus")
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=20261128)
    ap.add_argument("--lib", default="./utf8ext")
    args = ap.parse_args()
    print("import_auto: seed %d, %d rows, corpus %s" % (args.seed, args.rows, args.corpus))
    rnd = random.Random(args.seed)
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(args.lib)
    rows = make_rows(args.corpus, args.rows, rnd, db)
    db.execute("CREATE TABLE import(id INTEGER PRIMARY KEY, kind TEXT, msg TEXT)")
    db.executemany("INSERT INTO import(id, kind, msg) VALUES (?, ?, CAST(? AS TEXT))",
                   [(i + 1, k, b) for i, (k, b, _) in enumerate(rows)])
    before = db.execute("SELECT id, CAST(msg AS BLOB) FROM import ORDER BY id").fetchall()
    summary = db.execute("SELECT bad, guess, explained FROM utf8_audit_summary('import')"
                         " WHERE col='msg'").fetchone()
    t0 = time.time()
    changed, = db.execute("SELECT utf8_repair('import', 'auto', NULL, 'msg')").fetchone()
    t1 = time.time()
    after = dict(db.execute("SELECT id, CAST(msg AS BLOB) FROM import").fetchall())
    passed = failed = 0
    per_kind = {}
    misses = []
    for i, (kind, b, text) in enumerate(rows):
        got = after[i + 1]
        if kind in ("utf8", "mojibake"):
            ok = got == b
        elif kind == "cut":
            want, = db.execute("SELECT CAST(utf8_fix(?) AS BLOB)", (b,)).fetchone()
            ok = got == want
            if not ok and len(misses) < 20:
                method, = db.execute("SELECT method FROM utf8_repair_log WHERE rid=?", (i + 1,)).fetchone()
                misses.append("  cut row %d, repaired as %s: %r -> %r" % (i + 1, method, b[-40:], got.decode("utf-8", "replace")[-40:]))
        else:
            ok = got == text.encode("utf-8")
            if not ok and len(misses) < 20:
                method, = db.execute("SELECT method FROM utf8_repair_log WHERE rid=?",
                                     (i + 1,)).fetchone() or (None,)
                misses.append("  %s row %d, repaired as %s: %r -> %r" % (
                    kind, i + 1, method, text[:60], got.decode("utf-8", "replace")[:60]))
        tot, good = per_kind.get(kind, (0, 0))
        per_kind[kind] = (tot + 1, good + ok)
    print("audit_summary: %d bad, column's guess %s, explains %d" % summary)
    print("utf8_repair('import', 'auto'): %d values changed in %.2f s" % (changed, t1 - t0))
    print("%-10s %6s %8s" % ("kind", "rows", "exact"))
    legacy_n = legacy_ok = 0
    for kind, *_ in KINDS:
        tot, good = per_kind.get(kind, (0, 0))
        print("%-10s %6d %7.2f%%" % (kind, tot, 100.0 * good / tot if tot else 0))
        if kind not in ("utf8", "mojibake", "cut"):
            legacy_n += tot
            legacy_ok += good
    for m in misses:
        print(m)

    def check(ok, what):
        nonlocal passed, failed
        print(("ok: " if ok else "FAIL: ") + what)
        if ok:
            passed += 1
        else:
            failed += 1
    for kind in ("utf8", "mojibake"):
        tot, good = per_kind.get(kind, (0, 0))
        check(tot == good, "%s rows unchanged: %d of %d" % (kind, good, tot))
    tot, good = per_kind.get("cut", (0, 0))
    check(good >= 0.98 * tot, "cut rows mended as utf8_fix mends them: %d of %d (at least 98%%)" % (good, tot))
    share = 100.0 * legacy_ok / legacy_n if legacy_n else 0
    check(share >= 99.0, "legacy rows back exactly: %d of %d (%.2f%%, at least 99%%)"
          % (legacy_ok, legacy_n, share))
    t0 = time.time()
    undone, = db.execute("SELECT utf8_undo('import')").fetchone()
    t1 = time.time()
    back = db.execute("SELECT id, CAST(msg AS BLOB) FROM import ORDER BY id").fetchall()
    check(undone == changed and back == before,
          "utf8_undo restored %d values, every byte (%.2f s)" % (undone, t1 - t0))
    print("import_auto: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
