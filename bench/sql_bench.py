#!/usr/bin/env python3
"""bench/sql_bench.py - SQL-level figures, measured in the real sqlite3 shell.

Each pair of statements runs interleaved (A B A B ...) REPS times; the
shell's own ".timer on" measures each statement alone, and the figure is
the ratio of the medians. Nothing here asserts anything about time.

  1,000,000 values of about 40 bytes, 30% of their characters non-ASCII:
    SELECT count(*) ... WHERE utf8_valid(x)   vs  ... WHERE length(x) >= 0
    INSERT with CHECK (utf8_valid(x))         vs  CHECK (length(x) >= 0)
  a 10 MB value:
    count(*) FROM utf8_codepoints(v)          vs  generate_series, same rows
  a 600 KB value of 200,000 CJK characters:
    count(input) FROM utf8_codepoints(v)      vs  count(*), same rows (the
    hidden input column is the whole value on every row; linear, not a copy)
  a table of 20 TEXT columns and 200,000 rows, 1% of rows with a bad value,
  1% with a mojibake one:
    utf8_audit('w'), utf8_audit_summary('w')  vs  count(*) WHERE NOT (utf8_valid(c0) AND ...)
    sum(bad), sum(mojibake) FROM utf8_audit_summary('w') (the mojibake count
    is made only when the query uses the column; count(*) above does not)
                                              vs  sum(NOT utf8_valid(c0)), sum(utf8_mojibake(c0) IS NOT NULL), ...
    utf8_repair('w')                          vs  UPDATE w SET c = utf8_fix(c), ... WHERE NOT ...
    utf8_repair('w', 'mojibake')              vs  UPDATE w SET c = utf8_unmojibake(c), ...
                                                  WHERE utf8_mojibake(c0) IS NOT NULL OR ...

BENCH_ONLY=table runs only the table figures.
"""
import os, random, re, sqlite3, statistics, subprocess, sys, tempfile

REPS = int(os.environ.get("BENCH_REPS", "5"))
SHELL = os.environ.get("SQLITE3", "sqlite3")
EXT = os.environ.get("UTF8EXT_LIB", "./utf8ext")


def make_values(n, rng):
    """n strings of about 40 bytes; about 30% of the characters non-ASCII."""
    ascii_chars = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789.,"
    other = "éüßçøåñ€—“”ΩЖ中文日本語한국😀🚀"
    out = []
    for _ in range(1000):
        s = ""
        while len(s.encode()) < 38:
            s += rng.choice(other) if rng.random() < 0.3 else rng.choice(ascii_chars)
        out.append(s)
    return [out[i % 1000] + str(i % 97) for i in range(n)]


def misread(s):
    """s's UTF-8 read as Windows-1252 (its 5 holes as Latin-1) and encoded again."""
    return "".join(chr(b) if b in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else bytes([b]).decode("cp1252")
                   for b in s.encode())


def run_timed(db, sql):
    """Run sql in the shell with .timer on; return the real seconds."""
    p = subprocess.run([SHELL, "-batch", db],
                       input=".load %s\n.timer on\n%s\n" % (EXT, sql),
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("sql_bench: %s failed: %s" % (sql, p.stderr.strip()))
    times = re.findall(r"Run Time: real ([0-9.]+)", p.stdout)
    return float(times[-1])


def pair(db, name_a, sql_a, name_b, sql_b, setup_a=None, setup_b=None):
    """Interleave a and b; print medians and the ratio b/a (a's speed vs b's)."""
    ta, tb = [], []
    for _ in range(REPS):
        if setup_a: run_timed(db, setup_a)
        ta.append(run_timed(db, sql_a))
        if setup_b: run_timed(db, setup_b)
        tb.append(run_timed(db, sql_b))
    ma, mb = statistics.median(ta), statistics.median(tb)
    print("  %-48s %9.3f s" % (name_a, ma))
    print("  %-48s %9.3f s" % (name_b, mb))
    print("  %-48s %9.2fx" % ("speed ratio (first / second)", mb / ma if ma else float("inf")))
    return ma, mb


def table_figures(db, rng):
    """The audit, summary and repair of a 20-column table, one read each."""
    cols = ["c%d" % i for i in range(20)]
    con = sqlite3.connect(db)
    con.execute("DROP TABLE IF EXISTS w0")
    con.execute("CREATE TABLE w0(%s)" % ", ".join(c + " TEXT" for c in cols))
    vals = make_values(20_000, rng)
    con.executemany("INSERT INTO w0 VALUES (%s)" % ",".join("?" * 20),
                    ([vals[(r * 20 + i) % 20_000] for i in range(20)] for r in range(200_000)))
    # 1% of rows get one ill-formed value, in a column that varies
    con.execute("UPDATE w0 SET c%d = CAST(CAST(c%d AS BLOB) || x'FF' AS TEXT) WHERE rowid %% 100 = 0" % (7, 7))
    con.execute("UPDATE w0 SET c13 = CAST(CAST(c13 AS BLOB) || x'C0' AS TEXT) WHERE rowid % 100 = 50")
    # another 1% get one well-formed mojibake value (a value misread as cp1252)
    con.executemany("UPDATE w0 SET c3 = ? WHERE rowid = ?",
                    ((misread(vals[r % 20_000]), r) for r in range(25, 200_001, 100)))
    con.commit()
    con.close()
    all_valid = " AND ".join("utf8_valid(%s)" % c for c in cols)
    fresh = "DROP TABLE IF EXISTS w; DROP TABLE IF EXISTS utf8_repair_log; CREATE TABLE w AS SELECT * FROM w0;"
    print("\n20 TEXT columns x 200,000 rows, 1% of rows with an ill-formed value, 1% with mojibake")
    run_timed(db, fresh)
    baseline = "SELECT count(*) FROM w WHERE NOT (%s);" % all_valid
    pair(db, "SELECT count(*) FROM utf8_audit('w')", "SELECT count(*) FROM utf8_audit('w');",
         "count(*) WHERE NOT (utf8_valid(c0) AND ...)", baseline)
    pair(db, "SELECT count(*) FROM utf8_audit_summary('w')",
         "SELECT count(*) FROM utf8_audit_summary('w');",
         "count(*) WHERE NOT (utf8_valid(c0) AND ...)", baseline)
    pair(db, "SELECT utf8_repair('w') (logs each original)", "SELECT utf8_repair('w');",
         "UPDATE w SET c = utf8_fix(c), ... WHERE NOT ...",
         "UPDATE w SET %s WHERE NOT (%s);" % (", ".join("%s = utf8_fix(%s)" % (c, c) for c in cols), all_valid),
         setup_a=fresh, setup_b=fresh)
    run_timed(db, fresh)
    pair(db, "sum(bad), sum(mojibake) FROM utf8_audit_summary",
         "SELECT sum(bad), sum(mojibake) FROM utf8_audit_summary('w');",
         "sum(NOT utf8_valid(c)), sum(utf8_mojibake(c) IS NOT NULL)",
         "SELECT %s FROM w;" % ", ".join("sum(NOT utf8_valid(%s)), sum(utf8_mojibake(%s) IS NOT NULL)"
                                          % (c, c) for c in cols))
    any_moji = " OR ".join("utf8_mojibake(%s) IS NOT NULL" % c for c in cols)
    pair(db, "SELECT utf8_repair('w', 'mojibake') (logs each)", "SELECT utf8_repair('w', 'mojibake');",
         "UPDATE w SET c = utf8_unmojibake(c), ... WHERE ...",
         "UPDATE w SET %s WHERE %s;" % (", ".join("%s = utf8_unmojibake(%s)" % (c, c) for c in cols), any_moji),
         setup_a=fresh, setup_b=fresh)


def main():
    rng = random.Random(42)
    tmp = tempfile.mkdtemp(prefix="utf8ext-bench-")
    db = os.path.join(tmp, "bench.db")
    if os.environ.get("BENCH_ONLY") == "table":
        table_figures(db, rng)
        os.remove(db)
        os.rmdir(tmp)
        return
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE src(x TEXT)")
    con.executemany("INSERT INTO src VALUES (?)", ((v,) for v in make_values(1_000_000, rng)))
    big = "".join(make_values(260_000, rng))[: 10_000_000]
    con.execute("CREATE TABLE big(v TEXT)")
    con.execute("INSERT INTO big VALUES (?)", (big,))
    con.execute("CREATE TABLE cjk(v TEXT)")
    con.execute("INSERT INTO cjk VALUES (?)", ("".join(chr(0x4E00 + i % 20000) for i in range(200_000)),))
    con.commit()
    con.close()
    n_units = len(big.encode().decode())  # characters of a well-formed value

    print("SQL level, real sqlite3 shell, median of %d interleaved runs" % REPS)
    print("\n1,000,000 values of ~40 bytes: scan")
    pair(db, "WHERE utf8_valid(x)", "SELECT count(*) FROM src WHERE utf8_valid(x);",
         "WHERE length(x) >= 0", "SELECT count(*) FROM src WHERE length(x) >= 0;")

    print("\n1,000,000 values of ~40 bytes: INSERT under a CHECK constraint")
    pair(db, "CHECK (utf8_valid(x))", "INSERT INTO cv SELECT x FROM src;",
         "CHECK (length(x) >= 0)", "INSERT INTO cl SELECT x FROM src;",
         setup_a="DROP TABLE IF EXISTS cv; CREATE TABLE cv(x TEXT CHECK (utf8_valid(x)));",
         setup_b="DROP TABLE IF EXISTS cl; CREATE TABLE cl(x TEXT CHECK (length(x) >= 0));")

    print("\none 10 MB value: %d rows" % n_units)
    pair(db, "count(*) FROM utf8_codepoints(v)",
         "SELECT count(*) FROM big, utf8_codepoints(big.v);",
         "count(*) FROM generate_series (same rows)",
         "SELECT count(*) FROM generate_series(1, %d);" % n_units)

    print("\none 600 KB value of 200,000 CJK characters: the hidden input column")
    pair(db, "count(input) FROM utf8_codepoints(v)",
         "SELECT count(input) FROM cjk, utf8_codepoints(cjk.v);",
         "count(*) FROM utf8_codepoints(v)",
         "SELECT count(*) FROM cjk, utf8_codepoints(cjk.v);")

    table_figures(db, rng)

    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
