#!/usr/bin/env python3
"""test/mojibake_eval.py - how often utf8_unmojibake(X) gives back the text
that was misread, next to ftfy's fix_encoding and to the engine of before
issue 37, on real text misread in each way of issue 37.

  /usr/bin/python3 test/mojibake_eval.py [--corpus build/corpus] [--lib ./utf8ext]
      [--per-kind N] [--seed N] [--ftfy-src DIR] [--baseline FILE]
      [--record [--record-old-engine]] [--dump FILE] [--check | --report]

It works through the SQL contract only (utf8_unmojibake, and utf8_mojibake
for --dump), so it measures any engine behind those functions.

THE SETS come from the corpus's test split only (CORPUS/test/LANG.txt,
UTF-8 lines), drawn from a fixed seed (printed; --seed changes it) and
from nothing else: not from the extension, so the sets are the same
whatever engine is measured. For each kind below, N values (--per-kind,
default 1000; the clean kinds 5N), stratified over the languages: value i is drawn from
language i mod L (L = the 38 languages of the split, in name order; for
the CJK kinds every other value from zh_CN, zh_TW, ja, ko in turn), from
that language's own random stream ("SEED:KIND:LANG"). A draw is a random
line, a random window of it cut at character boundaries whose UTF-8
length falls in the buckets 8-15, 16-31, 32-63 and 64-300 bytes in turn
(a quarter of the values each; the bucket is of the ORIGINAL's UTF-8: a
value misread twice is two to four times as long), and it must contain a
non-ASCII character (a misreading of ASCII is ASCII). Lines are those
with a non-ASCII character; for the kinds that need a rarer one, only the
lines that have it (cp1252-as-latin1: a character cp1252 writes in
80-9F; lossy and C1 at depth 1: a character whose UTF-8 holds a byte the
code page leaves undefined). A window the kind cannot use is drawn
again; a (language, length bucket) that gives no value in 200 draws is
passed over for the rest of that kind, its turns going to the next
language (printed: the CJK languages' UTF-8 seldom decodes strictly as a
CJK charset beyond a few characters, Cyrillic's seldom as cp1252 twice).
Per kind, n, how many languages and CJK values it holds, and how many
windows were drawn again, and why (the charset's strict decoder refusing
the bytes above all), are printed.

  KIND                what X is (the expected answer is the original
                      window unless said otherwise)
  CS xD               the original's UTF-8 bytes decoded strictly with CS
                      and the result written as UTF-8, D times (D = 1, 2);
                      CS: cp1252, latin1, cp1250, cp1251, macroman,
                      cp1257, iso-8859-2, cp437 (Python's codecs of those
                      names); kept only when every step decodes strictly
  CS+C1 xD            cp1252 and cp1250 as Windows and WHATWG decoders
                      read them: the bytes the code page leaves undefined
                      (cp1252: 81 8D 8F 90 9D; cp1250: 81 83 88 90 98)
                      become the C1 control of the same value (U+0081...);
                      kept only when some step did meet such a byte (the
                      rest are the plain kind's values)
  cp1252-as-latin1    the original encoded strictly as cp1252 and those
                      bytes decoded as Latin-1 (C1 controls where quotes
                      and dashes were); only windows with a character
                      cp1252 writes in 80-9F, so only the languages
                      cp1252 writes
  lossy-cp1252        the original's UTF-8 decoded as cp1252 with
                      errors='replace': each undefined byte made U+FFFD.
                      Expected: the original with each character whose
                      UTF-8 bytes held an undefined byte replaced by one
                      U+FFFD (two such characters side by side: two
                      U+FFFD); every other character as it was. Kept
                      only when a byte was undefined.
  cesu8-cp1252        an original with a character above U+FFFF (one of
                      EMOJI inserted at a word boundary of the window
                      when it has none) written as CESU-8 (each half of
                      the surrogate pair as 3 bytes, as Java and Oracle
                      write it), those bytes decoded strictly as cp1252;
                      expected: the original, emoji included
  utf8-as-CS          the original's UTF-8 decoded strictly with a CJK
                      codec: gb18030 (GBK's superset), shift_jis (cp932,
                      as WHATWG reads it), big5 (big5hkscs, as WHATWG
                      reads it), euc-kr (cp949, as WHATWG reads it);
                      not those cp932 decodes with U+F8F0-U+F8F3 (the
                      bytes A0 and FD-FF, which WHATWG's Shift_JIS
                      decoder refuses)
  clean               real windows as they are, every language: must come
                      back unchanged ("wrong" = changed)
  clean-cjk           the same from zh_CN, zh_TW, ja and ko only

SCORING. Per value: exact when the tool's answer equals the expected
text, wrong when it changed X to anything else, unchanged otherwise. For
utf8ext the answer is utf8_unmojibake(X) (X bound as TEXT); for ftfy,
ftfy.fix_encoding(X); for the old engine, the figures recorded in the
baseline. A clean row's "wrong" is its changed count.

PEERS. ftfy 6.3.1 is run from its public repository's source: --ftfy-src
DIR (or the environment's FTFY_SRC) is a directory holding the ftfy
package, e.g.
    git -C ftfy archive v6.3.1 ftfy | tar -x -C DIR   (a clone of ftfy's repository)
It needs wcwidth (python3-wcwidth). Where it cannot be fetched (CI), the
figures are read from the committed BASELINE (test/mojibake_baseline.txt),
which --record writes: per row, n and ftfy's exact and wrong counts, and
the old engine's: today's build's counts with --record-old-engine, else
copied from the baseline being replaced (the engine before issue 37 is
gone once the new one lands; record it from a build of that engine only).
The baseline's header names the commit, ftfy's version and the sha256 of
its sources, the seed, the size and the command. The set's sha256 (kind,
language, X and expected, in order) is recorded too; a run of the same
seed and size whose set differs is a drift (corpus or Python's codecs
changed): the peers' figures are then not used, and it is a failure.

OUTPUT: per kind, n and exact % / wrong % of utf8ext, ftfy and the old
engine; the clean rows' changed counts; each tool's speed on the same
strings (values/s and MB/s of X, utf8ext through one SELECT over a temp
table, so SQLite's per-row cost included; ftfy in Python), printed, not
asserted. --dump FILE writes every value utf8ext does not get exactly
(tab-separated: kind, language, verdict, X as hex, expected, got,
utf8_mojibake(X);
control characters as \\xNN).

--check fails (exit 1, one "FAIL:" line per failing row, naming what it
misses) unless, for
every misread row, utf8ext's exact count >= both ftfy's and the old
engine's and its wrong count <= 0.1% of n; for the CJK rows exact >= 95%
as well; clean: changed <= ftfy's changed; clean-cjk: none changed; and
the peers' figures are there for this set. The last line is
"mojibake_eval: N passed, N failed".
--report: no thresholds, exit status 0 always (for benches); the rows
that would fail --check are printed as "would fail:" lines, and the last
line counts only the set's integrity (a set was drawn; it is the
baseline's), so a drift still shows in make test.
"""
import codecs
import collections
import hashlib
import os
import random
import shlex
import subprocess
import sys
import time

from eval_common import open_db  # test/eval_common.py
import eval_common

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 20240917
PER_KIND = 1000
BUCKETS = [(8, 15), (16, 31), (32, 63), (64, 300)]
TRIES_PER_LANG = 200
CLEAN_FACTOR = 5
CJK_LANGS = ["zh_CN", "zh_TW", "ja", "ko"]
BASELINE = os.path.join(ROOT, "test", "mojibake_baseline.txt")

SINGLE = ["cp1252", "latin1", "cp1250", "cp1251", "macroman", "cp1257", "iso-8859-2", "cp437"]
PY_CODEC = {"cp1252": "cp1252", "latin1": "latin-1", "cp1250": "cp1250", "cp1251": "cp1251",
            "macroman": "mac_roman", "cp1257": "cp1257", "iso-8859-2": "iso8859_2",
            "cp437": "cp437"}
UNDEFINED = {"cp1252": b"\x81\x8d\x8f\x90\x9d", "cp1250": b"\x81\x83\x88\x90\x98"}
CJK = [("gb18030", "gb18030"), ("shift_jis", "cp932"), ("big5", "big5hkscs"),
       ("euc-kr", "cp949")]
EMOJI = ["\U0001F600", "\U0001F44D", "\U0001F680", "\U0001F389", "\U0001F60A",
         "\U0001F525", "\U0001F4A1", "\U0001F4E6"]


def kinds():
    """[(kind, section)] in table order."""
    # cp1252 x1, cp1252 x2, latin1 x1, ...: a charset's depths side by side
    order = []
    for cs in SINGLE + ["cp1252+C1", "cp1250+C1"]:
        for d in (1, 2):
            order.append(("%s x%d" % (cs, d), "single"))
    order += [("cp1252-as-latin1", "other"), ("lossy-cp1252", "other"),
              ("cesu8-cp1252", "other")]
    order += [("utf8-as-%s" % name, "cjk") for name, _ in CJK]
    order += [("clean", "clean"), ("clean-cjk", "clean")]
    return order


# ---- the misreadings -------------------------------------------------------

def c1_handler(err):
    """Decode an undefined byte as the C1 control of the same value."""
    b = err.object[err.start:err.end]
    return "".join(chr(x) for x in b), err.end


codecs.register_error("mojibake_eval_c1", c1_handler)


def misread(text, codec, depth, c1=False):
    """(X, used a C1 control) or None when a step does not decode strictly."""
    used = False
    for _ in range(depth):
        b = text.encode("utf-8")
        try:
            text = b.decode(codec)
        except UnicodeDecodeError:
            if not c1:
                return None
            text = b.decode(codec, "mojibake_eval_c1")
            used = True
    return text, used


def lossy_expected(text, undefined):
    return "".join("\ufffd" if any(x in undefined for x in ch.encode("utf-8")) else ch
                   for ch in text)


def cesu8(text):
    out = []
    for ch in text:
        if ord(ch) > 0xFFFF:
            u = ch.encode("utf-16-be")
            for k in (0, 2):
                s = chr(int.from_bytes(u[k:k + 2], "big"))
                out.append(s.encode("utf-8", "surrogatepass"))
        else:
            out.append(ch.encode("utf-8"))
    return b"".join(out)


def with_emoji(rng, text):
    if any(ord(ch) > 0xFFFF for ch in text):
        return text
    e = EMOJI[rng.randrange(len(EMOJI))]
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if not spaces:
        return text + " " + e
    i = spaces[rng.randrange(len(spaces))]
    return text[:i] + " " + e + text[i:]


def make_value(kind, rng, w, why):
    """(X, expected) for window w, or None (why counts)."""
    if kind in ("clean", "clean-cjk"):
        return w, w
    if kind == "cp1252-as-latin1":
        try:
            b = w.encode("cp1252")
        except UnicodeEncodeError:
            why["not cp1252"] += 1
            return None
        if not any(0x80 <= x <= 0x9F for x in b):
            why["no 80-9F"] += 1
            return None
        return b.decode("latin-1"), w
    if kind == "lossy-cp1252":
        b = w.encode("utf-8")
        if not any(x in UNDEFINED["cp1252"] for x in b):
            why["no undefined byte"] += 1
            return None
        return b.decode("cp1252", "replace"), lossy_expected(w, UNDEFINED["cp1252"])
    if kind == "cesu8-cp1252":
        orig = with_emoji(rng, w)
        try:
            return cesu8(orig).decode("cp1252"), orig
        except UnicodeDecodeError:
            why["strict decode"] += 1
            return None
    if kind.startswith("utf8-as-"):
        codec = dict(CJK)[kind[len("utf8-as-"):]]
        try:
            x = w.encode("utf-8").decode(codec)
        except UnicodeDecodeError:
            why["strict decode"] += 1
            return None
        if codec == "cp932" and any("\uf8f0" <= ch <= "\uf8f3" for ch in x):
            why["cp932 A0/FD-FF"] += 1
            return None
        return x, w
    cs, d = kind.split()
    depth = int(d[1:])
    if cs.endswith("+C1"):
        r = misread(w, PY_CODEC[cs[:-3]], depth, c1=True)
        if not r[1]:
            why["no undefined byte"] += 1
            return None
        return r[0], w
    r = misread(w, PY_CODEC[cs], depth)
    if r is None:
        why["strict decode"] += 1
        return None
    return r[0], w


# ---- the sets --------------------------------------------------------------

def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f if l.strip() and any(ord(c) > 0x7F for c in l)]


def draw_window(rng, line, bucket):
    """A window of line whose UTF-8 length should fall in bucket; None when
    the line is too short."""
    return eval_common.draw_window(rng, line, [len(ch.encode("utf-8")) for ch in line], bucket)


class Value:
    __slots__ = ("kind", "lang", "x", "expected", "ans")

    def __init__(self, kind, lang, x, expected):
        self.kind, self.lang, self.x, self.expected = kind, lang, x, expected
        self.ans = {}


CP1252_HIGH = frozenset(bytes([b]).decode("cp1252") for b in range(0x80, 0xA0)
                       if b not in UNDEFINED["cp1252"])


def line_filter(kind):
    """(name, predicate) of the lines a kind's windows are drawn from: those
    that can give one (the window is checked again)."""
    if kind == "cp1252-as-latin1":
        return kind, lambda l: any(c in CP1252_HIGH for c in l)
    for cs in ("cp1252", "cp1250"):
        if kind in ("%s+C1 x1" % cs, "lossy-%s" % cs):
            und = UNDEFINED[cs]
            return "undef-" + cs, lambda l: any(x in und for x in l.encode("utf-8"))
    return None, None


def kind_size(kind, per_kind):
    return CLEAN_FACTOR * per_kind if kind.startswith("clean") else per_kind


def build_set(corpus, seed, per_kind):
    tdir = os.path.join(corpus, "test")
    langs = sorted(f[:-4] for f in os.listdir(tdir) if f.endswith(".txt"))
    all_lines = {l: read_lines(os.path.join(tdir, l + ".txt")) for l in langs}
    langs = [l for l in langs if all_lines[l]]
    cjk = [l for l in CJK_LANGS if l in all_lines and all_lines[l]]
    filtered = {}
    values, info = [], {}
    for kind, section in kinds():
        fname, pred = line_filter(kind)
        if fname is None:
            lines = all_lines
        else:
            if fname not in filtered:
                filtered[fname] = {l: [x for x in all_lines[l] if pred(x)] for l in langs}
            lines = filtered[fname]
        size = kind_size(kind, per_kind)
        if kind == "clean-cjk":
            sched = lambda i: cjk[i % len(cjk)] if cjk else None
        elif section == "cjk":
            sched = lambda i: (cjk[(i // 2) % len(cjk)] if i % 2 == 0 and cjk
                               else langs[(i // 2) % len(langs)])
        else:
            sched = lambda i: langs[i % len(langs)]
        rngs = {}
        why = collections.Counter()
        dead = set()
        got = []
        i = 0
        while len(got) < size and i < size * 8:
            lang = sched(i)
            i += 1
            bucket = BUCKETS[len(got) % len(BUCKETS)]
            if lang is None or (lang, bucket) in dead:
                continue
            ls = lines[lang]
            if not ls:
                dead.add((lang, bucket))
                continue
            rng = rngs.get(lang)
            if rng is None:
                rng = rngs[lang] = random.Random("%d:%s:%s" % (seed, kind, lang))
            for _ in range(TRIES_PER_LANG):
                w = draw_window(rng, ls[rng.randrange(len(ls))], bucket)
                if not w:
                    why["short line"] += 1
                    continue
                n = len(w.encode("utf-8"))
                if not bucket[0] <= n <= bucket[1]:
                    why["length"] += 1
                    continue
                if w.isascii():
                    why["ascii"] += 1
                    continue
                v = make_value(kind, rng, w, why)
                if v is not None:
                    got.append(Value(kind, lang, v[0], v[1]))
                    break
            else:
                dead.add((lang, bucket))
        values.extend(got)
        info[kind] = (why, sorted(dead))
    return values, info, langs


def set_hash(values):
    h = hashlib.sha256()
    for v in values:
        h.update(("%s\0%s\0%s\0%s\n" % (v.kind, v.lang, v.x, v.expected)).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


# ---- the tools -------------------------------------------------------------

def verdict(v, got):
    if got == v.expected:
        return "exact"
    return "wrong" if got != v.x else "unchanged"


def run_utf8ext(conn, values):
    """Score utf8_unmojibake on every value; the time of the SELECT over the
    misread values and over the clean ones."""
    conn.execute("CREATE TEMP TABLE vals(id INTEGER PRIMARY KEY, clean INTEGER, v TEXT)")
    conn.executemany("INSERT INTO vals VALUES (?, ?, ?)",
                     ((i, v.kind.startswith("clean"), v.x) for i, v in enumerate(values)))
    times = {}
    for clean in (0, 1):
        t0 = time.perf_counter()
        rows = conn.execute("SELECT id, utf8_unmojibake(v) FROM vals WHERE clean = ? ORDER BY id",
                            (clean,)).fetchall()
        times[clean] = time.perf_counter() - t0
        for i, r in rows:
            v = values[i]
            got = r.decode("utf-8", "surrogateescape") if isinstance(r, bytes) else r
            v.ans["utf8ext"] = (verdict(v, got), got)
    return times


def load_ftfy(src):
    sys.path.insert(0, os.path.abspath(src))
    import ftfy
    if not os.path.abspath(ftfy.__file__).startswith(os.path.abspath(src)):
        raise ImportError("ftfy was imported from %s, not from %s" % (ftfy.__file__, src))
    h = hashlib.sha256()
    pkg = os.path.dirname(os.path.abspath(ftfy.__file__))
    for dp, dn, fn in sorted(os.walk(pkg)):
        dn.sort()
        for f in sorted(fn):
            if f.endswith(".py"):
                p = os.path.join(dp, f)
                h.update(os.path.relpath(p, pkg).encode() + b"\0")
                with open(p, "rb") as fh:
                    h.update(fh.read())
    return ftfy, h.hexdigest()


def run_ftfy(ftfy, values):
    times = {0: 0.0, 1: 0.0}
    fix = ftfy.fix_encoding
    for v in values:
        t0 = time.perf_counter()
        got = fix(v.x)
        times[v.kind.startswith("clean")] += time.perf_counter() - t0
        v.ans["ftfy"] = (verdict(v, got), got)
    return times


# ---- baseline --------------------------------------------------------------

def read_baseline(path):
    """{'meta': {key: value}, 'rows': {kind: (n, fe, fw, oe, ow)}, 'times': {...}}"""
    b = {"meta": {}, "rows": {}, "times": {}}
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            p = line.split("\t")
            if p[0] == "row" and len(p) == 7:
                b["rows"][p[1]] = tuple(int(x) for x in p[2:])
            elif p[0] == "time" and len(p) == 4:
                b["times"][p[1], p[2]] = float(p[3])
            elif len(p) == 2:
                b["meta"][p[0]] = p[1]
    return b


def git_head():
    try:
        return subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty", "--abbrev=40"],
                              capture_output=True, text=True, timeout=10).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


# ---- report ----------------------------------------------------------------

def pct(a, n):
    return 100.0 * a / n if n else float("nan")


def counts(vs, tool):
    c = collections.Counter(v.ans[tool][0] for v in vs if tool in v.ans)
    return sum(c.values()), c["exact"], c["wrong"]


def esc(s):
    return "".join(("\\x%02x" % ord(c)) if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 else c
                   for c in s)


def main():
    ap = eval_common.arg_parser(__doc__, SEED)
    ap.add_argument("--per-kind", type=int, default=PER_KIND)
    ap.add_argument("--ftfy-src", default=os.environ.get("FTFY_SRC") or None, metavar="DIR")
    ap.add_argument("--baseline", default=BASELINE, metavar="FILE")
    ap.add_argument("--record", action="store_true",
                    help="write the peers' figures on this set to --baseline (needs --ftfy-src)")
    ap.add_argument("--record-old-engine", action="store_true",
                    help="with --record: this build is the old engine; record its figures")
    ap.add_argument("--dump", metavar="FILE")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--report", action="store_true")
    args = ap.parse_args()
    if args.record and not args.ftfy_src:
        ap.error("--record needs --ftfy-src DIR (or FTFY_SRC)")
    if args.record_old_engine and not args.record:
        ap.error("--record-old-engine goes with --record")

    t_start = time.perf_counter()
    shown = os.path.relpath(args.corpus)
    if shown.startswith(".."):
        shown = args.corpus
    print("mojibake_eval: seed %d, corpus %s, %d values per kind"
          % (args.seed, shown, args.per_kind))
    if not os.path.isdir(os.path.join(args.corpus, "test")):
        print("mojibake_eval: no %s/test/ (tools/corpus.py makes it)" % shown)
        print("mojibake_eval: 0 passed, 1 failed")
        return 0 if args.report else 1
    conn = open_db(args.lib)
    t0 = time.perf_counter()
    values, info, langs = build_set(args.corpus, args.seed, args.per_kind)
    digest = set_hash(values)
    print("mojibake_eval: %d values of %d kinds from %d languages in %.1f s; set sha256 %s"
          % (len(values), len(kinds()), len(langs), time.perf_counter() - t0, digest[:16]))
    print("  %-18s %5s %5s %5s  %s" % ("kind", "n", "langs", "CJK", "windows drawn again, and why; "
                                      "(language, bucket) passed over"))
    for kind, _ in kinds():
        why, dead = info[kind]
        vs = [v for v in values if v.kind == kind]
        note = ", ".join("%s %d" % kv for kv in sorted(why.items()) if kv[0] not in ("length", "short line"))
        line = "  %-18s %5d %5d %5d  %s" % (kind, len(vs), len(set(v.lang for v in vs)),
                                          sum(1 for v in vs if v.lang in CJK_LANGS), note or "none")
        if dead:
            by = collections.defaultdict(list)
            for lang, b in dead:
                by[lang].append(str(BUCKETS.index(b) + 1))
            line += "; passed over: " + " ".join("%s/%s" % (l, "".join(by[l])) for l in sorted(by))
        print(line)
    print("  (buckets 1-4: %s bytes of the original's UTF-8)" % ", ".join("%d-%d" % b for b in BUCKETS))

    # ---- peers' figures
    base = read_baseline(args.baseline)
    same_size = (base is not None and base["meta"].get("seed") == str(args.seed)
                 and base["meta"].get("per-kind") == str(args.per_kind))
    drift = same_size and base["meta"].get("set-sha256") != digest
    integrity = [("a set was drawn (%d values)" % len(values), bool(values))]
    if base is None:
        print("mojibake_eval: no baseline at %s" % args.baseline)
    elif not same_size:
        print("mojibake_eval: the baseline is of seed %s, %s per kind: not this set; "
              "its figures are not used" % (base["meta"].get("seed"), base["meta"].get("per-kind")))
    else:
        integrity.append(("the set's sha256 %s is the baseline's %s" % (
            digest[:16], base["meta"].get("set-sha256", "?")[:16]), not drift))
        if drift:
            print("mojibake_eval: DRIFT: this set's sha256 %s is not the baseline's %s "
                  "(same seed and size): the corpus or Python's codecs changed; the baseline's "
                  "figures are not used" % (digest[:16], base["meta"].get("set-sha256", "?")[:16]))
    base_ok = base is not None and same_size and not drift

    times = {"utf8ext": run_utf8ext(conn, values)}
    tools = ["utf8ext"]
    ftfy_hash = None
    if args.ftfy_src:
        try:
            ftfy, ftfy_hash = load_ftfy(args.ftfy_src)
        except ImportError as e:
            print("mojibake_eval: ftfy from %s: %s" % (args.ftfy_src, e))
            print("mojibake_eval: 0 passed, 1 failed")
            return 0 if args.report else 1
        print("mojibake_eval: ftfy %s from %s (sources sha256 %s)"
              % (ftfy.__version__, args.ftfy_src, ftfy_hash[:16]))
        times["ftfy"] = run_ftfy(ftfy, values)
        tools.append("ftfy")
    elif base_ok:
        print("mojibake_eval: ftfy not run (no --ftfy-src or FTFY_SRC): its figures and the "
              "old engine's are read from %s (%s; recorded at %s)"
              % (os.path.relpath(args.baseline), base["meta"].get("ftfy", "?"),
                 base["meta"].get("commit", "?")))
    else:
        print("mojibake_eval: ftfy not run and no usable baseline: no peers' figures")

    # ---- rows: kind -> {tool: (n, exact, wrong)}
    rows = collections.OrderedDict()
    for kind, section in kinds():
        vs = [v for v in values if v.kind == kind]
        r = {"utf8ext": counts(vs, "utf8ext")}
        n = r["utf8ext"][0]
        if "ftfy" in tools:
            r["ftfy"] = counts(vs, "ftfy")
        elif base_ok and kind in base["rows"]:
            bn, fe, fw, _, _ = base["rows"][kind]
            if bn == n:
                r["ftfy"] = (n, fe, fw)
        if args.record and args.record_old_engine:
            r["old"] = r["utf8ext"]
        elif base_ok and kind in base["rows"] and base["rows"][kind][0] == n:
            bn, _, _, oe, ow = base["rows"][kind]
            r["old"] = (n, oe, ow)
        rows[kind] = (section, r)

    def cell(r, t):
        if t not in r or not r[t][0]:
            return "%13s" % "-"
        n, e, w = r[t]
        return "%6.1f %6.2f" % (pct(e, n), pct(w, n))

    print()
    print("exact % and wrong % (changed, but not to the original; the rest unchanged)")
    print("%-18s %5s %13s %13s %13s" % ("", "", "utf8ext", "ftfy", "old engine"))
    print("%-18s %5s %13s %13s %13s" % ("misread as", "n", "exact  wrong", "exact  wrong",
                                         "exact  wrong"))
    last = None
    for kind, (section, r) in rows.items():
        if section == "clean":
            continue
        if last is not None and section != last:
            print()
        last = section
        print("%-18s %5d %s %s %s" % (kind, r["utf8ext"][0], cell(r, "utf8ext"), cell(r, "ftfy"),
                                       cell(r, "old")))
    print()
    print("clean strings changed (of n)")
    for kind, (section, r) in rows.items():
        if section != "clean":
            continue
        def ch(t):
            return "%13s" % "-" if t not in r else "%6d %6.2f" % (r[t][2], pct(r[t][2], r[t][0]))
        print("%-18s %5d %s %s %s" % (kind, r["utf8ext"][0], ch("utf8ext"), ch("ftfy"), ch("old")))

    # ---- speed
    print()
    mis = [v for v in values if not v.kind.startswith("clean")]
    cln = [v for v in values if v.kind.startswith("clean")]
    size = {0: sum(len(v.x.encode("utf-8", "surrogatepass")) for v in mis),
            1: sum(len(v.x.encode("utf-8", "surrogatepass")) for v in cln)}
    nval = {0: len(mis), 1: len(cln)}
    for t in ("utf8ext", "ftfy"):
        for clean in (0, 1):
            what = "clean" if clean else "misread"
            if t in times:
                s = times[t][clean]
                how = "utf8_unmojibake through SQL" if t == "utf8ext" else "fix_encoding"
                print("speed %-8s %-8s %6d values, %7.3f s: %9.0f values/s %7.2f MB/s (%s)"
                      % (t, what, nval[clean], s, nval[clean] / s if s else 0,
                         size[clean] / s / 1e6 if s else 0, how))
                if args.record:
                    times.setdefault("rec", {})[t, what] = s
            elif base_ok and (t, what) in base["times"]:
                s = base["times"][t, what]
                print("speed %-8s %-8s %6d values, %7.3f s: %9.0f values/s %7.2f MB/s "
                      "(recorded in the baseline, another run)" % (
                          t, what, nval[clean], s, nval[clean] / s if s else 0,
                          size[clean] / s / 1e6 if s else 0))

    # ---- dump
    if args.dump:
        bad = [v for v in values if v.ans["utf8ext"][0] != "exact"]
        names = {}
        for v in bad:
            r = conn.execute("SELECT utf8_mojibake(?)", (v.x,)).fetchone()[0]
            names[id(v)] = r.decode() if isinstance(r, bytes) else ("" if r is None else str(r))
        with open(args.dump, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write("# kind\tlang\tverdict\tX (hex)\texpected\tgot\tutf8_mojibake(X)\n")
            for v in bad:
                f.write("%s\t%s\t%s\t%s\t%s\t%s\t%s\n" % (
                    v.kind, v.lang, v.ans["utf8ext"][0], v.x.encode("utf-8", "surrogatepass").hex(), esc(v.expected),
                    esc(v.ans["utf8ext"][1]), names[id(v)]))
        print("mojibake_eval: wrote %d values utf8ext did not get exactly to %s" % (len(bad), args.dump))

    # ---- record
    if args.record:
        old_from = "this build" if args.record_old_engine else "the baseline replaced"
        if not args.record_old_engine and not all("old" in r for _, r in rows.values()):
            print("mojibake_eval: --record: the old engine's figures are not in %s for this set; "
                  "record them from a build of that engine with --record-old-engine"
                  % args.baseline)
            return 1
        # the command as anyone would type it: no directory of this machine
        argv = ["DIR" if i > 0 and sys.argv[i] == args.ftfy_src else a
                for i, a in enumerate(sys.argv)][1:]
        argv = ["--ftfy-src=DIR" if a.startswith("--ftfy-src=") else a for a in argv]
        cmd = "/usr/bin/python3 test/mojibake_eval.py " + " ".join(shlex.quote(a) for a in argv)
        old_commit = (git_head() if args.record_old_engine
                      else base["meta"].get("old-engine-commit", "?"))
        with open(args.baseline, "w", encoding="utf-8") as f:
            f.write("# test/mojibake_eval.py's peers on its fixed-seed set, for runs that cannot\n"
                    "# fetch ftfy (CI): ftfy.fix_encoding and the mojibake engine before issue 37.\n"
                    "# Written by: %s\n"
                    "# (ftfy's source: git -C ftfy archive v6.3.1 ftfy | tar -x -C DIR in a\n"
                    "#  clone of ftfy's repository; the old engine's figures from %s)\n"
                    "# row: kind, n, ftfy exact, ftfy wrong, old engine exact, old engine wrong\n"
                    "# (clean rows: wrong = changed); time: tool, set, seconds on this set\n"
                    % (cmd, old_from))
            f.write("commit\t%s\n" % git_head())
            f.write("old-engine-commit\t%s\n" % old_commit)
            f.write("ftfy\t%s (sources sha256 %s)\n" % (ftfy.__version__, ftfy_hash))
            f.write("python\t%s\n" % sys.version.split()[0])
            f.write("seed\t%d\n" % args.seed)
            f.write("per-kind\t%d\n" % args.per_kind)
            f.write("values\t%d\n" % len(values))
            f.write("set-sha256\t%s\n" % digest)
            for kind, (_, r) in rows.items():
                f.write("row\t%s\t%d\t%d\t%d\t%d\t%d\n" % ((kind, r["ftfy"][0]) + r["ftfy"][1:]
                                                           + r["old"][1:]))
            for (t, what), s in sorted(times.get("rec", {}).items()):
                if t == "ftfy":
                    f.write("time\t%s\t%s\t%.3f\n" % (t, what, s))
        print("mojibake_eval: wrote %s" % args.baseline)

    # ---- checks: one per row, naming each condition it misses
    checks = []
    for kind, (section, r) in rows.items():
        n, e, w = r["utf8ext"]
        miss = []
        if section == "clean":
            if "ftfy" not in r:
                miss.append("no ftfy figures to compare with")
            elif w > r["ftfy"][2]:
                miss.append("changed %d > ftfy's %d" % (w, r["ftfy"][2]))
            if kind == "clean-cjk" and w:
                miss.append("changed %d, must be 0" % w)
            checks.append(("%s: utf8ext changed %d of %d" % (kind, w, n), miss))
            continue
        for t, title in (("ftfy", "ftfy"), ("old", "the old engine")):
            if t not in r:
                miss.append("no %s figures to compare with" % title)
            elif e < r[t][1]:
                miss.append("exact %.1f%% < %s's %.1f%%" % (pct(e, n), title, pct(r[t][1], n)))
        if w > n * 0.001:
            miss.append("wrong %d (%.2f%%) > 0.1%%" % (w, pct(w, n)))
        if section == "cjk" and pct(e, n) < 95:
            miss.append("exact %.1f%% < 95%%" % pct(e, n))
        checks.append(("%s: utf8ext exact %.1f%%, wrong %.2f%% of %d" % (kind, pct(e, n), pct(w, n), n),
                       miss))
    if args.record:
        integrity = integrity[:1]       # the baseline was just replaced
    print()
    print("time total %.1f s" % (time.perf_counter() - t_start))
    failed_checks = ["%s: %s" % (what.split(":")[0], "; ".join(miss))
                     for what, miss in checks if miss]
    if args.check:
        for what, good in integrity:
            if not good:
                failed_checks.append(what)
        for what in failed_checks:
            print("FAIL: " + what)
        passed = len(checks) + len(integrity) - len(failed_checks)
        print("mojibake_eval: %d passed, %d failed" % (passed, len(failed_checks)))
        return 1 if failed_checks else 0
    if args.report:
        for what in failed_checks:
            print("would fail: " + what)
        print("mojibake_eval (report): %d of %d rows would fail --check"
              % (len(failed_checks), len(checks)))
    ip = sum(1 for _, g in integrity if g)
    for what, good in integrity:
        if not good:
            print("FAIL: " + what)
    print("mojibake_eval: %d passed, %d failed" % (ip, len(integrity) - ip))
    return 0 if args.report else (1 if ip < len(integrity) else 0)


if __name__ == "__main__":
    sys.exit(main())
