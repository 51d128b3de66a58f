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
    utf8_undo('w') (set-up: a repaired copy)  vs  the same UPDATE w SET c = utf8_fix(c), ...
                                                  (the undo should be no slower than the repair)
  The audit's count(*), utf8_repair('w'), utf8_undo('w') and the plain
  UPDATE also print their peak memory: the largest peak RSS over the runs
  of that one sqlite3 shell process (its VmHWM, which it prints last; the
  ru_maxrss of os.wait4 would include the size of this Python process, see
  run_measured).

  a large table, 20,000,000 rows of one ill-formed TEXT value each (about
  20 bytes, a Latin-1 byte in it), built once by one INSERT ... SELECT from
  a recursive CTE (journal_mode=OFF and synchronous=OFF for the set-up
  only); each statement runs once, in this order on the same table, with
  its time and peak memory:
    SELECT count(*) FROM utf8_audit('g'), utf8_repair('g'), utf8_undo('g')
    (which puts the table back), then the plain UPDATE g SET v = utf8_fix(v)
    WHERE NOT utf8_valid(v). It is slow (minutes) and needs several GB of
    disk in the temporary directory (the repair's log holds every original).

  200,000 short real strings (the corpus's test split, when it is there):
    count(utf8_mojibake(v))                   vs  count(length(v))
    sum(mojibake) FROM utf8_audit_summary('r')  vs  count(*) WHERE NOT utf8_valid(v)

BENCH_ONLY=table runs only the table figures, BENCH_ONLY=real only the real
strings, BENCH_ONLY=big only the large table. BENCH_BIG_ROWS=N makes the large table N rows (0 leaves it out).
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


def run_measured(db, sql):
    """Run sql in its own sqlite3 shell process with .timer on. Returns
    (real seconds of the last statement, that process's peak RSS in KiB,
    its output without the timer and memory lines). The script is read
    from a file and the output written to one; the child is reaped with
    os.wait4. Its ru_maxrss is not used as it stands: Linux carries the
    peak of the memory the process had before exec (a copy of this Python
    process, some tens of MB) into it, so every small figure would read
    the same. The shell's last command prints its own VmHWM instead (the
    peak RSS of the memory made at exec: the sqlite3 shell's alone);
    ru_maxrss is the fallback where /proc has no VmHWM."""
    with tempfile.TemporaryFile("w+") as fin, tempfile.TemporaryFile("w+") as fout, \
            tempfile.TemporaryFile("w+") as ferr:
        fin.write(".load %s\n.timer on\n%s\n.timer off\n"
                  ".system grep VmHWM /proc/$PPID/status 2>/dev/null\n" % (EXT, sql))
        fin.flush()
        fin.seek(0)
        p = subprocess.Popen([SHELL, "-batch", db], stdin=fin, stdout=fout, stderr=ferr)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        fout.seek(0)
        ferr.seek(0)
        out, err = fout.read(), ferr.read()
    if p.returncode != 0 or err.strip():
        sys.exit("sql_bench: %s failed: %s" % (sql, err.strip()))
    times = re.findall(r"Run Time: real ([0-9.]+)", out)
    hwm = re.findall(r"VmHWM:\s*([0-9]+) kB", out)
    rest = "\n".join(l for l in out.splitlines()
                     if not l.startswith("Run Time:") and not l.startswith("VmHWM:"))
    return float(times[-1]), int(hwm[-1]) if hwm else ru.ru_maxrss, rest.strip()


def run_timed(db, sql):
    """Run sql in the shell with .timer on; return the real seconds."""
    return run_measured(db, sql)[0]


def pair(db, name_a, sql_a, name_b, sql_b, setup_a=None, setup_b=None, rss=False):
    """Interleave a and b; print medians and the ratio b/a (a's speed vs b's);
    with rss, each one's peak memory too (the largest over the runs)."""
    ta, tb, ra, rb = [], [], [], []
    for _ in range(REPS):
        if setup_a: run_timed(db, setup_a)
        t, r, _ = run_measured(db, sql_a)
        ta.append(t)
        ra.append(r)
        if setup_b: run_timed(db, setup_b)
        t, r, _ = run_measured(db, sql_b)
        tb.append(t)
        rb.append(r)
    ma, mb = statistics.median(ta), statistics.median(tb)
    for name, m, r in ((name_a, ma, ra), (name_b, mb, rb)):
        if rss:
            print("  %-48s %9.3f s  %9d KiB peak RSS" % (name, m, max(r)))
        else:
            print("  %-48s %9.3f s" % (name, m))
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
         "count(*) WHERE NOT (utf8_valid(c0) AND ...)", baseline, rss=True)
    pair(db, "SELECT count(*) FROM utf8_audit_summary('w')",
         "SELECT count(*) FROM utf8_audit_summary('w');",
         "count(*) WHERE NOT (utf8_valid(c0) AND ...)", baseline)
    # the same, with the columns' guess asked for: only then is each bad
    # value priced (issue 36 asks for this within 1.2x of the baseline)
    pair(db, "col, guess, explained FROM utf8_audit_summary",
         "SELECT count(guess), sum(explained) FROM utf8_audit_summary('w');",
         "count(*) WHERE NOT (utf8_valid(c0) AND ...)", baseline)
    plain_fix = "UPDATE w SET %s WHERE NOT (%s);" % (
        ", ".join("%s = utf8_fix(%s)" % (c, c) for c in cols), all_valid)
    pair(db, "SELECT utf8_repair('w') (logs each original)", "SELECT utf8_repair('w');",
         "UPDATE w SET c = utf8_fix(c), ... WHERE NOT ...", plain_fix,
         setup_a=fresh, setup_b=fresh, rss=True)
    # the undo of a repaired copy, against the same plain UPDATE
    pair(db, "SELECT utf8_undo('w') (of a repaired copy)", "SELECT utf8_undo('w');",
         "UPDATE w SET c = utf8_fix(c), ... WHERE NOT ...", plain_fix,
         setup_a=fresh + " SELECT utf8_repair('w');", setup_b=fresh, rss=True)
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


def real_figures(db, rng):
    """utf8_mojibake and the summary's mojibake count over short real
    strings (the corpus's test split, 8-300 bytes, up to 3,000 lines of each
    language, repeated to 200,000 rows): issue 37 asks for the first within
    1.3x of length() and the second within 1.2x of the one-pass utf8_valid
    query. Left out, with a line saying so, when the corpus is not there."""
    corpus = os.environ.get("BENCH_CORPUS", "build/corpus/test")
    if not os.path.isdir(corpus):
        print("\nreal strings: no corpus at %s (make corpus), left out" % corpus)
        return
    lines = []
    for name in sorted(os.listdir(corpus)):
        with open(os.path.join(corpus, name), encoding="utf-8") as f:
            ls = [l.rstrip("\n") for l in f if 8 <= len(l.rstrip("\n").encode()) <= 300]
        lines += rng.sample(ls, min(3000, len(ls)))
    con = sqlite3.connect(db)
    con.execute("DROP TABLE IF EXISTS r")
    con.execute("CREATE TABLE r(v TEXT)")
    con.executemany("INSERT INTO r VALUES (?)", ((lines[i % len(lines)],) for i in range(200_000)))
    con.commit()
    con.close()
    print("\n200,000 real strings (%d distinct lines of the corpus's test split, "
          "%d languages)" % (len(lines), len(os.listdir(corpus))))
    pair(db, "count(utf8_mojibake(v))", "SELECT count(utf8_mojibake(v)) FROM r;",
         "count(length(v))", "SELECT count(length(v)) FROM r;")
    pair(db, "sum(mojibake) FROM utf8_audit_summary('r')",
         "SELECT sum(mojibake) FROM utf8_audit_summary('r');",
         "count(*) WHERE NOT utf8_valid(v)", "SELECT count(*) FROM r WHERE NOT utf8_valid(v);")


def big_figures(db, rows):
    """One table of `rows` rows, one ill-formed value each: each statement
    once, its time and peak memory. The statements follow each other on the
    same table (the undo puts back what the repair changed), so it is built
    only once."""
    if os.path.exists(db):
        os.remove(db)
    print("\n%s rows of one ill-formed TEXT value each (~21 bytes, a Latin-1 byte"
          " in it), each statement once" % format(rows, ","))
    # 'row 0000000001' || x'E9' || ' cafe.': 21 bytes, the E9 alone is ill-formed
    t, r, _ = run_measured(db, """PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
CREATE TABLE g(v TEXT);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM s WHERE i < %d)
INSERT INTO g SELECT 'row ' || printf('%%010d', i) || CAST(x'E9' AS TEXT) || ' cafe.' FROM s;""" % rows)
    print("  %-48s %9.3f s  %9d KiB peak RSS" % ("set-up: INSERT ... SELECT (journal off)", t, r))
    for name, sql in (
            ("SELECT count(*) FROM utf8_audit('g')", "SELECT count(*) FROM utf8_audit('g');"),
            ("SELECT utf8_repair('g') (logs each original)", "SELECT utf8_repair('g');"),
            ("SELECT utf8_undo('g')", "SELECT utf8_undo('g');"),
            ("UPDATE g SET v = utf8_fix(v) WHERE NOT ...",
             "UPDATE g SET v = utf8_fix(v) WHERE NOT utf8_valid(v); SELECT changes();")):
        t, r, out = run_measured(db, sql)
        print("  %-48s %9.3f s  %9d KiB peak RSS  (%s rows)" % (name, t, r, out.splitlines()[-1]))
    os.remove(db)


def main():
    rng = random.Random(42)
    tmp = tempfile.mkdtemp(prefix="utf8ext-bench-")
    db = os.path.join(tmp, "bench.db")
    only = os.environ.get("BENCH_ONLY")
    big_rows = int(os.environ.get("BENCH_BIG_ROWS", "20000000"))
    if only in ("table", "big", "real"):
        if only == "table":
            table_figures(db, rng)
            os.remove(db)
        elif only == "real":
            real_figures(db, rng)
            os.remove(db)
        elif big_rows > 0:
            big_figures(os.path.join(tmp, "big.db"), big_rows)
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
    real_figures(db, rng)
    if big_rows > 0:
        big_figures(os.path.join(tmp, "big.db"), big_rows)

    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
