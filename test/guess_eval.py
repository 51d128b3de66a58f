#!/usr/bin/env python3
"""test/guess_eval.py - how often utf8_guess(X) and utf8_guess_group(X) name
the charset a legacy value was stored in, next to uchardet, chardet and
charset-normalizer on the same values.

  /usr/bin/python3 test/guess_eval.py [--corpus build/corpus] [--per-pair N]
      [--groups-per-pair N] [--peers uchardet,chardet,cn] [--cn-per-pair N]
      [--cn-groups-per-pair N] [--by-pair] [--dump FILE [--dump-only]] [--check]

THE TEST SET comes from the corpus's test split only (CORPUS/test/LANG.txt,
UTF-8 lines, NFC), drawn from a fixed seed (printed; --seed changes it).
For each (charset, language) pair of PAIRS below, N values (--per-pair,
default 200): a random line, a random window of it cut at character
boundaries, whose length once encoded falls in the buckets 8-15, 16-31,
32-63 and 64-300 bytes in turn (a quarter of the values each). A value is
kept only if Python's codec for the charset (CODEC) encodes the window
strictly, the bytes are ill-formed as UTF-8, and utf8ext's own decoder,
utf8_recode(X, charset, 'whole'), gives the window back: the set holds only
values the extension can represent. Those dropped by that last check are
counted and printed (WHATWG's tables differ from Python's in a few places,
such as Shift_JIS 81 60, which WHATWG reads as U+FF5E and Python's cp932
writes for U+301C). A window that fails a check is drawn again. A missing
language file is skipped and named.

Vietnamese in windows-1258: Python's cp1258 encoder has no precomposed
letter with a tone mark (ế, ạ, ặ...), so each character cp1258 lacks is
written the way the code page was designed for: a precomposed letter
cp1258 has (ê, ă, ơ, or the plain letter) followed by the combining tone
marks it has (CC, EC, DE, D2, F2); the value's expected text is then that
form (what the bytes hold, NFC-equal to the corpus's window), for every
tool alike. A character that cannot be written so fails the value.

GROUPS: for each pair, --groups-per-pair groups (default 10) of 20 values
from consecutive lines of the language's file (one window per line, the
same checks; a line that gives none is passed over; the file read as a
ring), standing for one column of one source.

SCORING. Per value, utf8ext's answer is utf8_guess(X) on X stored as TEXT:
correct when utf8_recode(X, answer, 'whole') is the expected text, wrong
when a charset is named and the decoding differs (or utf8_recode refuses
the name), an abstention when NULL or 'utf-8'. Per group, utf8_guess_group
over the group's 20 rows, correct when every value of the group decodes
right with that name. The peers are scored the same way on the same
values, each decoding with the charset it names through Python's codecs
(peer_codec below): a name WHATWG's Encoding Standard knows is read as
WHATWG reads it, as a browser would (ISO-8859-1 and ASCII as
windows-1252, TIS-620 as windows-874, GB2312 as gbk, SHIFT_JIS as
windows-31j, EUC-KR as windows-949), decoded with the codec that made the
set for that charset; any other name through codecs.lookup, plus a few
spellings it lacks (MAC-CENTRALEUROPE); a name with no codec is wrong;
no answer or UTF-8 is an abstention. How many answers were right only
through WHATWG's reading (Python's codec of the literal name decodes the
value otherwise) is printed for each peer. A peer's group answer is the
peer run on the group's 20 values joined by '\\n'.

  uchardet            Debian's libuchardet.so.0 (0.0.7) through ctypes
  chardet             python3-chardet, chardet.detect
  cn                  python3-charset-normalizer, from_bytes(b).best();
                      slow (about 190 values/s), so only the first
                      --cn-per-pair values (default 50) and the first
                      --cn-groups-per-pair groups (default 3) of each pair;
                      utf8ext is compared with it on that subset

OUTPUT: per charset, per value exact % and wrong % of each tool, per group
exact %, a totals row (over all values); each tool's exact % by length
bucket; each tool's most frequent wrong answers (charset as name); each
tool's time.
--by-pair adds a row per (charset, language). --dump FILE writes the
per-value set as length-prefixed binary values (a 4-byte little-endian
length, then the bytes) for bench/guess_bench.c; --dump-only stops there.

--check asserts: utf8ext's per-value exact >= 90%, above each peer's on
the values that peer was run on, per-group exact >= 99% (every group
answered), per-value wrong <= 1%; a peer asked for that cannot be loaded
fails too; a failing one is printed, the exit status is 1, and the last line
is "guess_eval: N passed, N failed".
"""
import codecs
import collections
import ctypes
import itertools
import os
import random
import sqlite3
import struct
import sys
import time
import unicodedata

from eval_common import open_db  # test/eval_common.py
import eval_common

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 20240917
GROUP_SIZE = 20
BUCKETS = [(8, 15), (16, 31), (32, 63), (64, 300)]

# (charset, languages): what each legacy charset was used for.
PAIRS = [
    ("windows-1252", "de fr es it pt nl sv da nb fi ca is"),
    ("iso-8859-15", "fr de fi"),
    ("macintosh", "de fr es it pt"),
    ("ibm437", "de fr es"),
    ("ibm850", "de fr es it pt"),
    ("windows-1250", "pl cs sk hu sl hr ro"),
    ("iso-8859-2", "pl cs sk hu sl hr"),
    ("iso-8859-16", "ro"),
    ("windows-1251", "ru uk bg sr be mk"),
    ("koi8-r", "ru"),
    ("koi8-u", "uk"),
    ("ibm866", "ru"),
    ("x-mac-cyrillic", "ru bg"),
    ("iso-8859-5", "ru bg"),
    ("windows-1253", "el"),
    ("iso-8859-7", "el"),
    ("windows-1254", "tr"),
    ("iso-8859-9", "tr"),
    ("windows-1255", "he"),
    ("iso-8859-8", "he"),
    ("windows-1256", "ar"),
    ("iso-8859-6", "ar"),
    ("windows-1257", "lt lv et"),
    ("iso-8859-13", "lt lv et"),
    ("iso-8859-4", "lt lv et"),
    ("windows-1258", "vi"),
    ("windows-874", "th"),
    ("shift_jis", "ja"),
    ("euc-jp", "ja"),
    ("gb18030", "zh_CN"),
    ("big5", "zh_TW"),
    ("euc-kr", "ko"),
]

# The Python codec that writes each charset. For the multi-byte ones, the
# one whose repertoire is widest among those that agree with WHATWG's
# decoder: cp932 (windows-31j, as WHATWG's Shift_JIS decoder reads),
# big5hkscs (WHATWG's Big5 is Big5-HKSCS; Python's big5 and cp950 put
# Cyrillic at C7xx where WHATWG has kana) and cp949 (WHATWG's EUC-KR is
# windows-949; Python's euc_kr writes the hangul KS X 1001 lacks as
# 8-byte sequences).
CODEC = {
    "windows-1252": "cp1252", "iso-8859-15": "iso8859_15", "macintosh": "mac_roman",
    "ibm437": "cp437", "ibm850": "cp850", "windows-1250": "cp1250",
    "iso-8859-2": "iso8859_2", "iso-8859-16": "iso8859_16", "windows-1251": "cp1251",
    "koi8-r": "koi8_r", "koi8-u": "koi8_u", "ibm866": "cp866",
    "x-mac-cyrillic": "mac_cyrillic", "iso-8859-5": "iso8859_5",
    "windows-1253": "cp1253", "iso-8859-7": "iso8859_7", "windows-1254": "cp1254",
    "iso-8859-9": "iso8859_9", "windows-1255": "cp1255", "iso-8859-8": "iso8859_8",
    "windows-1256": "cp1256", "iso-8859-6": "iso8859_6", "windows-1257": "cp1257",
    "iso-8859-13": "iso8859_13", "iso-8859-4": "iso8859_4", "windows-1258": "cp1258",
    "windows-874": "cp874", "shift_jis": "cp932", "euc-jp": "euc_jp",
    "gb18030": "gb18030", "big5": "big5hkscs", "euc-kr": "cp949",
}

# ---- peers' names ----------------------------------------------------------

# WHATWG labels (the ones the peers use, and their near spellings) and the
# encoding each names.
WHATWG_LABELS = {
    "windows-1252": "ascii us-ascii iso-8859-1 iso8859-1 iso_8859-1 latin1 latin-1 l1 "
                    "cp1252 windows-1252 x-cp1252 cp819 ibm819 iso-ir-100 csisolatin1 iso88591",
    "windows-1254": "iso-8859-9 iso8859-9 iso_8859-9 latin5 l5 cp1254 windows-1254 x-cp1254 "
                    "iso-ir-148 csisolatin5 iso88599",
    "windows-874": "tis-620 iso-8859-11 iso8859-11 dos-874 windows-874 cp874 iso885911",
    "gbk": "gb2312 gb_2312 gb_2312-80 gbk x-gbk chinese csgb2312 cp936 iso-ir-58",
    "gb18030": "gb18030",
    "shift_jis": "shift_jis shift-jis sjis ms932 ms_kanji windows-31j x-sjis csshiftjis cp932",
    "euc-jp": "euc-jp x-euc-jp cseucpkdfmtjapanese",
    "euc-kr": "euc-kr cp949 windows-949 ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 "
              "korean csksc56011987 iso-ir-149",
    "big5": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    "koi8-r": "koi8-r koi8_r koi8 cskoi8r",
    "koi8-u": "koi8-u koi8-ru",
    "x-mac-cyrillic": "x-mac-cyrillic mac-cyrillic maccyrillic x-mac-ukrainian",
    "macintosh": "macintosh mac x-mac-roman macroman mac-roman csmacintosh",
    "ibm866": "ibm866 cp866 866 csibm866",
    "iso-8859-8": "iso-8859-8 iso8859-8 iso-8859-8-i iso_8859-8 visual hebrew csisolatinhebrew",
    "iso-8859-6": "iso-8859-6 iso8859-6 iso_8859-6 arabic csisolatinarabic",
    "iso-8859-7": "iso-8859-7 iso8859-7 iso_8859-7 greek greek8 csisolatingreek",
    "iso-8859-15": "iso-8859-15 iso8859-15 iso_8859-15 latin-9 l9 csisolatin9",
}
# The codec for a WHATWG encoding that made no part of the set.
WHATWG_EXTRA_CODEC = {"gbk": "gb18030"}
LABEL_TO_CODEC = {}
for _enc, _labels in WHATWG_LABELS.items():
    for _l in _labels.split():
        LABEL_TO_CODEC[_l] = CODEC.get(_enc) or WHATWG_EXTRA_CODEC[_enc]
# Spellings codecs.lookup lacks.
EXTRA_NAMES = {"mac-centraleurope": "mac_latin2", "x-mac-ce": "mac_latin2",
               "maccentraleurope": "mac_latin2", "windows-874": "cp874",
               "x-mac-cyrillic": "mac_cyrillic"}
UTF8_NAMES = {"utf-8", "utf8", "utf_8", "utf-8-sig", "utf_8_sig"}
ABSTAIN = "abstain"


def literal_codec(name):
    """Python's codec for the name as written, or None."""
    n = name.strip().lower()
    if n in EXTRA_NAMES:
        return EXTRA_NAMES[n]
    try:
        return codecs.lookup(n).name
    except LookupError:
        return None


def peer_codec(name):
    """ABSTAIN, or (codec or None, literal codec or None) for a peer's name."""
    if not name:
        return ABSTAIN
    n = name.strip().lower()
    if n in UTF8_NAMES:
        return ABSTAIN
    lit = literal_codec(n)
    w = LABEL_TO_CODEC.get(n) or LABEL_TO_CODEC.get(n.replace("_", "-"))
    return (w or lit, lit)


def python_decode(b, codec):
    try:
        return b.decode(codec, "replace")
    except (LookupError, UnicodeError, TypeError, ValueError):
        return None


# ---- encoding --------------------------------------------------------------

def cp1258_char(ch):
    """ch written in windows-1258 as Windows writes it, or None."""
    try:
        return ch.encode("cp1258")
    except UnicodeError:
        pass
    d = unicodedata.normalize("NFD", ch)
    base, marks = d[0], d[1:]
    # The most marks composed into a letter cp1258 has; the rest combining.
    for k in range(len(marks), -1, -1):
        for keep in itertools.combinations(range(len(marks)), k):
            head = unicodedata.normalize("NFC", base + "".join(marks[i] for i in keep))
            if len(head) != 1:
                continue
            rest = "".join(marks[i] for i in range(len(marks)) if i not in keep)
            try:
                b = head.encode("cp1258") + rest.encode("cp1258")
            except UnicodeError:
                continue
            if unicodedata.normalize("NFC", b.decode("cp1258")) == ch:
                return b
    return None


class Encoder:
    """A charset's writer: encode(text) gives (bytes, expected text) or None."""

    def __init__(self, cs):
        self.cs = cs
        self.codec = CODEC[cs]
        self.cache = {}

    def char_len(self, ch):
        b = self.cache.get(ch)
        if b is None:
            if self.cs == "windows-1258":
                b = cp1258_char(ch)
            else:
                try:
                    b = ch.encode(self.codec)
                except UnicodeError:
                    b = None
            b = self.cache[ch] = b if b is not None else b""
        return len(b) or 1

    def encode(self, text):
        if self.cs == "windows-1258":
            parts = [cp1258_char(ch) for ch in text]
            if any(p is None for p in parts):
                return None
            b = b"".join(parts)
            return b, b.decode("cp1258")
        try:
            return text.encode(self.codec), text
        except UnicodeError:
            return None


def ill_formed(b):
    try:
        b.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


# ---- the extension ---------------------------------------------------------

def recode_whole(conn, b, name):
    """utf8_recode(X, name, 'whole') as str, or None when it refuses the name."""
    try:
        r = conn.execute("SELECT utf8_recode(CAST(? AS TEXT), ?, 'whole')", (b, name)).fetchone()[0]
    except sqlite3.Error:
        return None
    if r is None:
        return None
    return r.decode("utf-8", "replace") if isinstance(r, bytes) else r


# ---- the set ---------------------------------------------------------------

class Stats:
    def __init__(self):
        self.c = collections.Counter()


def draw_window(rng, line, enc, bucket):
    """A window of line whose encoded length should fall in bucket; None when
    the line is too short."""
    return eval_common.draw_window(rng, line, [enc.char_len(ch) for ch in line], bucket)


def accept(conn, cs, enc, text, bucket, why):
    """(bytes, expected) if text makes a value of the set, else None (why counts)."""
    if not text:
        why["short line"] += 1
        return None
    e = enc.encode(text)
    if e is None:
        why["unencodable"] += 1
        return None
    b, expected = e
    if not bucket[0] <= len(b) <= bucket[1]:
        why["length"] += 1
        return None
    if not ill_formed(b):
        why["well-formed"] += 1
        return None
    if recode_whole(conn, b, cs) != expected:
        why["recode-drop"] += 1
        return None
    return b, expected


class Value:
    __slots__ = ("cs", "lang", "bucket", "b", "text", "ans")

    def __init__(self, cs, lang, bucket, b, text):
        self.cs, self.lang, self.bucket, self.b, self.text = cs, lang, bucket, b, text
        self.ans = {}


class Group:
    __slots__ = ("cs", "lang", "values", "ans")

    def __init__(self, cs, lang, values):
        self.cs, self.lang, self.values = cs, lang, values
        self.ans = {}


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def build_set(conn, corpus, seed, per_pair, groups_per_pair):
    values, groups, pairs = [], [], []
    why_v, why_g = collections.Counter(), collections.Counter()
    missing, short, few = [], [], []
    cache = {}
    for cs, langs in PAIRS:
        enc = Encoder(cs)
        for lang in langs.split():
            path = os.path.join(corpus, "test", lang + ".txt")
            if lang not in cache:
                cache[lang] = read_lines(path) if os.path.exists(path) else None
            lines = cache[lang]
            if not lines:
                if lang not in missing:
                    missing.append(lang)
                continue
            pairs.append((cs, lang))
            if len(lines) < 10 * GROUP_SIZE and "%s %d" % (lang, len(lines)) not in few:
                few.append("%s %d" % (lang, len(lines)))
            rng = random.Random("%d:%s:%s" % (seed, cs, lang))
            got = []
            tries = 0
            while len(got) < per_pair and tries < per_pair * 200:
                tries += 1
                bucket = BUCKETS[len(got) % len(BUCKETS)]
                w = draw_window(rng, lines[rng.randrange(len(lines))], enc, bucket)
                a = accept(conn, cs, enc, w, bucket, why_v)
                if a:
                    got.append(Value(cs, lang, len(got) % len(BUCKETS), a[0], a[1]))
            if len(got) < per_pair:
                short.append("%s/%s: %d of %d values" % (cs, lang, len(got), per_pair))
            values.extend(got)
            for g in range(groups_per_pair):
                start = rng.randrange(len(lines))
                members = []
                for k in range(40 * GROUP_SIZE):
                    if len(members) == GROUP_SIZE:
                        break
                    bucket = BUCKETS[len(members) % len(BUCKETS)]
                    line = lines[(start + k) % len(lines)]
                    w = draw_window(rng, line, enc, bucket)
                    a = accept(conn, cs, enc, w, bucket, why_g)
                    if a:
                        members.append(Value(cs, lang, len(members) % len(BUCKETS), a[0], a[1]))
                if len(members) == GROUP_SIZE:
                    groups.append(Group(cs, lang, members))
                else:
                    short.append("%s/%s: group %d had %d values" % (cs, lang, g, len(members)))
    if few:
        short.insert(0, "few test lines (values and groups repeat lines): " + ", ".join(few))
    return values, groups, pairs, why_v, why_g, missing, short


# ---- tools -----------------------------------------------------------------

class Uchardet:
    name = "uchardet"

    def __init__(self):
        lib = ctypes.CDLL("libuchardet.so.0")
        lib.uchardet_new.restype = ctypes.c_void_p
        lib.uchardet_new.argtypes = []
        lib.uchardet_handle_data.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.uchardet_handle_data.restype = ctypes.c_int
        lib.uchardet_data_end.argtypes = [ctypes.c_void_p]
        lib.uchardet_reset.argtypes = [ctypes.c_void_p]
        lib.uchardet_get_charset.argtypes = [ctypes.c_void_p]
        lib.uchardet_get_charset.restype = ctypes.c_char_p
        lib.uchardet_delete.argtypes = [ctypes.c_void_p]
        self.lib = lib
        self.h = lib.uchardet_new()
        if not self.h:
            raise OSError("uchardet_new failed")

    def detect(self, b):
        lib, h = self.lib, self.h
        lib.uchardet_reset(h)
        if lib.uchardet_handle_data(h, b, len(b)) != 0:
            return None
        lib.uchardet_data_end(h)
        r = lib.uchardet_get_charset(h)
        return r.decode("ascii", "replace") if r else None

    def close(self):
        self.lib.uchardet_delete(self.h)


class Chardet:
    name = "chardet"

    def __init__(self):
        import chardet
        self.mod = chardet

    def detect(self, b):
        return self.mod.detect(b)["encoding"]

    def close(self):
        pass


class CharsetNormalizer:
    name = "cn"

    def __init__(self):
        import logging
        from charset_normalizer import from_bytes
        logging.getLogger("charset_normalizer").setLevel(logging.ERROR)
        self.from_bytes = from_bytes

    def detect(self, b):
        r = self.from_bytes(b).best()
        return r.encoding if r is not None else None

    def close(self):
        pass


PEERS = {"uchardet": Uchardet, "chardet": Chardet, "cn": CharsetNormalizer}
PEER_TITLE = {"utf8ext": "utf8ext", "uchardet": "uchardet", "chardet": "chardet",
              "cn": "charset-normalizer"}
SHORT = {"utf8ext": "utf8ext", "uchardet": "uchardet", "chardet": "chardet", "cn": "ch-norm"}


def score_peer_value(name, b, expected):
    """'ok', 'wrong', 'abstain', and whether it was right only through WHATWG."""
    pc = peer_codec(name)
    if pc == ABSTAIN:
        return ABSTAIN, False
    codec, lit = pc
    if codec is None:
        return "wrong", False
    if python_decode(b, codec) != expected:
        return "wrong", False
    whatwg_only = lit != codec and (lit is None or python_decode(b, lit) != expected)
    return "ok", whatwg_only


def run_peer(peer, values, groups, nv, ng):
    """Answers of one peer: on values[i] for i in nv, groups[j] for j in ng."""
    t0 = time.perf_counter()
    for i in nv:
        v = values[i]
        name = peer.detect(v.b)
        v.ans[peer.name] = (name,) + score_peer_value(name, v.b, v.text)
    tv = time.perf_counter() - t0
    t0 = time.perf_counter()
    for j in ng:
        g = groups[j]
        name = peer.detect(b"\n".join(m.b for m in g.values))
        pc = peer_codec(name)
        if pc == ABSTAIN:
            verdict = ABSTAIN
        elif pc[0] is None:
            verdict = "wrong"
        else:
            ok = all(python_decode(m.b, pc[0]) == m.text for m in g.values)
            verdict = "ok" if ok else "wrong"
        g.ans[peer.name] = (name, verdict, False)
    tg = time.perf_counter() - t0
    return tv, tg


def utf8ext_answers(conn, values, groups):
    """utf8_guess of each value, utf8_guess_group of each group, and the time
    of each of the two SELECTs."""
    conn.execute("CREATE TEMP TABLE vals(id INTEGER PRIMARY KEY, v TEXT)")
    conn.executemany("INSERT INTO vals VALUES (?, CAST(? AS TEXT))",
                     ((i, v.b) for i, v in enumerate(values)))
    conn.execute("CREATE TEMP TABLE gvals(gid INTEGER, k INTEGER, v TEXT, PRIMARY KEY (gid, k))")
    conn.executemany("INSERT INTO gvals VALUES (?, ?, CAST(? AS TEXT))",
                     ((j, k, m.b) for j, g in enumerate(groups) for k, m in enumerate(g.values)))
    t0 = time.perf_counter()
    rows = conn.execute("SELECT id, utf8_guess(v) FROM vals ORDER BY id").fetchall()
    tv = time.perf_counter() - t0
    t0 = time.perf_counter()
    try:
        grows = conn.execute("SELECT gid, utf8_guess_group(v) FROM gvals GROUP BY gid "
                             "ORDER BY gid").fetchall()
    except sqlite3.OperationalError as e:
        print("guess_eval: utf8_guess_group: %s: no group answers" % e)
        grows = None
    tg = time.perf_counter() - t0
    dec = lambda x: x.decode("utf-8", "replace") if isinstance(x, bytes) else x
    names = [None] * len(values)
    for i, name in rows:
        names[i] = dec(name)
    gnames = None
    if grows is not None:
        gnames = [None] * len(groups)
        for j, name in grows:
            gnames[j] = dec(name)
    return names, gnames, tv, tg


def run_utf8ext(conn, values, groups):
    """Score utf8ext's answers; the times of its two SELECTs."""
    names, gnames, tv, tg = utf8ext_answers(conn, values, groups)

    def verdict(name, members):
        if name is None or name.lower() == "utf-8":
            return ABSTAIN
        for m in members:
            if recode_whole(conn, m.b, name) != m.text:
                return "wrong"
        return "ok"

    for v, name in zip(values, names):
        v.ans["utf8ext"] = (name, verdict(name, [v]), False)
    for g, name in zip(groups, gnames or []):
        g.ans["utf8ext"] = (name, verdict(name, g.values), False)
    return tv, tg


# ---- report ----------------------------------------------------------------

def pct(a, n):
    return 100.0 * a / n if n else float("nan")


def tally(items, tool):
    n = ok = wrong = 0
    for it in items:
        a = it.ans.get(tool)
        if a is None:
            continue
        n += 1
        ok += a[1] == "ok"
        wrong += a[1] == "wrong"
    return n, ok, wrong


def fmt_vw(items, tool):
    n, ok, wrong = tally(items, tool)
    if not n:
        return "%12s" % "-"
    return "%6.1f %5.1f" % (pct(ok, n), pct(wrong, n))


def fmt_g(items, tool):
    n, ok, _ = tally(items, tool)
    return "%8s" % "-" if not n else "%8.1f" % pct(ok, n)


def print_table(title, keyed, tools, cn_note):
    """keyed: [(label, values, groups)]."""
    head1 = "%-18s %5s" % ("", "values")
    head2 = "%-18s %5s" % (title, "n")
    for t in tools:
        head1 += " %12s" % SHORT[t]
        head2 += " %12s" % "exact wrong"
    head1 += " | %6s" % "groups" + "".join(" %8s" % SHORT[t] for t in tools)
    head2 += " | %6s" % "n" + "".join(" %8s" % "exact" for t in tools)
    print(head1)
    print(head2)
    for label, vs, gs in keyed:
        row = "%-18s %5d" % (label, len(vs))
        for t in tools:
            row += " " + fmt_vw(vs, t)
        row += " | %6d" % len(gs) + "".join(" " + fmt_g(gs, t) for t in tools)
        print(row)
    if cn_note:
        print(cn_note)


def main():
    ap = eval_common.arg_parser(__doc__, SEED)
    ap.add_argument("--per-pair", type=int, default=200)
    ap.add_argument("--groups-per-pair", type=int, default=10)
    ap.add_argument("--peers", default="uchardet,chardet,cn")
    ap.add_argument("--cn-per-pair", type=int, default=50)
    ap.add_argument("--cn-groups-per-pair", type=int, default=3)
    ap.add_argument("--by-pair", action="store_true")
    ap.add_argument("--dump", metavar="FILE")
    ap.add_argument("--dump-only", action="store_true", help="stop after --dump")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()

    peers = [p for p in args.peers.split(",") if p]
    for p in peers:
        if p not in PEERS:
            ap.error("unknown peer '%s' (uchardet, chardet, cn)" % p)

    t_start = time.perf_counter()
    conn = open_db(args.lib)
    shown = os.path.relpath(args.corpus)
    if shown.startswith(".."):
        shown = args.corpus
    print("guess_eval: seed %d, corpus %s, %d values and %d groups of %d per pair"
          % (args.seed, shown, args.per_pair, args.groups_per_pair, GROUP_SIZE))
    t0 = time.perf_counter()
    values, groups, pairs, why_v, why_g, missing, short = build_set(
        conn, args.corpus, args.seed, args.per_pair, args.groups_per_pair)
    t_build = time.perf_counter() - t0
    if missing:
        print("guess_eval: no test file for %s: its pairs are skipped" % " ".join(missing))
    if not values:
        print("guess_eval: no values: is %s/test/ there? (tools/corpus.py makes it)" % shown)
        if args.check:
            print("FAIL: the test set is empty")
            print("guess_eval: 0 passed, 1 failed")
        return 1
    print("guess_eval: %d pairs, %d values, %d groups (%d values) in %.1f s"
          % (len(pairs), len(values), len(groups), len(groups) * GROUP_SIZE, t_build))
    for name, why in (("values", why_v), ("groups", why_g)):
        print("  windows drawn again (%s): %s" % (name, ", ".join(
            "%s %d" % kv for kv in sorted(why.items())) or "none"))
    print("  dropped by the utf8_recode check: %d of the values' windows, %d of the groups'"
          % (why_v["recode-drop"], why_g["recode-drop"]))
    for s in short:
        print("  short: " + s)
    if args.dump:
        with open(args.dump, "wb") as f:
            for v in values:
                f.write(struct.pack("<I", len(v.b)) + v.b)
        print("guess_eval: wrote %d values to %s" % (len(values), args.dump))
        if args.dump_only:
            return 0

    times = {}
    failures = []
    try:
        times["utf8ext"] = run_utf8ext(conn, values, groups)
    except sqlite3.OperationalError as e:
        print("guess_eval: utf8ext: %s (is utf8_guess in this build?)" % e)
        if args.check:
            print("FAIL: utf8ext answered nothing")
            print("guess_eval: 0 passed, 1 failed")
        return 1

    # The first cn_per_pair values and cn_groups_per_pair groups of each pair.
    seen_v, seen_g = collections.Counter(), collections.Counter()
    sub_v, sub_g = [], []
    for i, v in enumerate(values):
        seen_v[v.cs, v.lang] += 1
        if seen_v[v.cs, v.lang] <= args.cn_per_pair:
            sub_v.append(i)
    for j, g in enumerate(groups):
        seen_g[g.cs, g.lang] += 1
        if seen_g[g.cs, g.lang] <= args.cn_groups_per_pair:
            sub_g.append(j)
    ran = ["utf8ext"]
    for p in peers:
        try:
            peer = PEERS[p]()
        except (OSError, ImportError) as e:
            print("guess_eval: peer %s is not available: %s (tools/install-deps.sh installs it)"
                  % (p, e))
            failures.append("peer %s is not available" % p)
            continue
        if p == "cn":
            times[p] = run_peer(peer, values, groups, sub_v, sub_g)
        else:
            times[p] = run_peer(peer, values, groups, range(len(values)), range(len(groups)))
        peer.close()
        ran.append(p)

    cn_note = None
    if "cn" in ran:
        cn_note = ("  charset-normalizer ran on the first %d values and %d groups of each pair "
                   "(%d values, %d groups)" % (args.cn_per_pair, args.cn_groups_per_pair,
                                               len(sub_v), len(sub_g)))

    # ---- by charset, and the totals
    print()
    print("per value: exact % and wrong % (the rest abstained); per group: exact %")
    keyed = []
    for cs, _ in PAIRS:
        vs = [v for v in values if v.cs == cs]
        gs = [g for g in groups if g.cs == cs]
        if vs or gs:
            keyed.append((cs, vs, gs))
    keyed.append(("total", values, groups))
    print_table("charset", keyed, ran, cn_note)
    if "cn" in ran:
        sv = [values[i] for i in sub_v]
        sg = [groups[j] for j in sub_g]
        print_table("cn's subset", [("total", sv, sg)], ran, None)

    if args.by_pair:
        print()
        keyed = []
        for cs, lang in pairs:
            vs = [v for v in values if v.cs == cs and v.lang == lang]
            gs = [g for g in groups if g.cs == cs and g.lang == lang]
            keyed.append(("%s/%s" % (cs, lang), vs, gs))
        print_table("charset/language", keyed, ran, None)

    # ---- by length bucket
    print()
    print("%-18s %5s" % ("bytes", "n") + "".join(" %9s" % SHORT[t] for t in ran))
    for k, (lo, hi) in enumerate(BUCKETS):
        vs = [v for v in values if v.bucket == k]
        row = "%-18s %5d" % ("%d-%d" % (lo, hi), len(vs))
        for t in ran:
            n, ok, _ = tally(vs, t)
            row += " %9s" % ("%.1f" % pct(ok, n) if n else "-")
        print(row)
    print("  (per value exact %%%s)" % ("; ch-norm on its subset" if "cn" in ran else ""))

    # ---- what went wrong
    print()
    for t in ran:
        wrong = collections.Counter()
        abst = collections.Counter()
        for v in values:
            a = v.ans.get(t)
            if a is None:
                continue
            if a[1] == "wrong":
                wrong[v.cs, a[0]] += 1
            elif a[1] == ABSTAIN:
                abst[v.cs] += 1
        top = ", ".join("%s as %s %d" % (cs, name, c) for (cs, name), c in wrong.most_common(12))
        print("%s wrong: %s" % (PEER_TITLE[t], top or "none"))
        if t == "utf8ext":
            print("%s abstained: %s" % (PEER_TITLE[t], ", ".join(
                "%s %d" % kv for kv in abst.most_common(12)) or "none"))
    for t in ran[1:]:
        w = sum(1 for v in values if t in v.ans and v.ans[t][2])
        print("%s: %d answers right only through WHATWG's reading of the name" % (PEER_TITLE[t], w))

    # ---- times
    print()
    for t in ran:
        tv, tg = times[t]
        nv = sum(1 for v in values if t in v.ans)
        ng = sum(1 for g in groups if t in g.ans)
        print("time %-18s %7.2f s for %6d values (%9.0f values/s), %6.2f s for %4d groups"
              % (PEER_TITLE[t], tv, nv, nv / tv if tv else 0, tg, ng))
    print("time total %.1f s" % (time.perf_counter() - t_start))

    if not args.check:
        return 0
    # ---- the assertions
    checks = []
    n, ok, wrong = tally(values, "utf8ext")
    checks.append(("utf8ext per-value exact %.2f%% >= 90%%" % pct(ok, n), pct(ok, n) >= 90))
    checks.append(("utf8ext per-value wrong %.2f%% <= 1%%" % pct(wrong, n), pct(wrong, n) <= 1))
    gn, gok, _ = tally(groups, "utf8ext")
    checks.append(("utf8ext per-group exact %.2f%% >= 99%% (%d of %d groups answered)"
                   % (pct(gok, gn), gn, len(groups)), gn == len(groups) > 0 and pct(gok, gn) >= 99))
    for t in ran[1:]:
        vs = [v for v in values if t in v.ans]
        pn, pok, _ = tally(vs, t)
        un, uok, _ = tally(vs, "utf8ext")
        checks.append(("utf8ext per-value exact %.2f%% > %s's %.2f%% (%d values)"
                       % (pct(uok, un), PEER_TITLE[t], pct(pok, pn), pn), pct(uok, un) > pct(pok, pn)))
    passed = 0
    print()
    for what, good in checks:
        if good:
            passed += 1
            print("ok: " + what)
        else:
            print("FAIL: " + what)
    for what in failures:
        print("FAIL: " + what)
    failed = len(checks) - passed + len(failures)
    print("guess_eval: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
