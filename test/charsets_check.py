#!/usr/bin/env python3
"""test/charsets_check.py BUILD - the charsets suite: every decoder of
core/charsets.c against an independent one, Python's codecs (and glibc
iconv for IBM437/IBM850 as well).

Inputs: every byte 0x80-0xFF alone, for every charset; for the multi-byte
ones also every lead byte followed by every byte 0x00-0xFF, EUC-JP's 8F
followed by every byte pair, and the GB18030 four-byte sequences (every one
whose first byte is 81-84, the BMP part; for 85-FE the first and last
fourth byte of every first three), the three-byte prefixes and the
sequences cut short by the end of the input.

Python decodes strictly; where it raises, it decodes again with an error
handler that consumes what the WHATWG decoder consumes for that error
(whatwg_error_len below: one U+FFFD for a lead and a non-ASCII trail, the
ASCII trail given back), so the tables and the error handling are both
compared. What is left must be in test/charsets_diffs.txt, the committed
list of known differences between WHATWG and Python, each group explained
there; an entry that no longer differs exactly as listed fails too.
The last line is "charsets: N passed, N failed".
"""
import codecs
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
BIN = os.path.join(BUILD, "test", "charsets_test")

names = subprocess.run([BIN, "names"], capture_output=True, text=True,
                       check=True).stdout.split()
MULTI = ["gbk", "gb18030", "big5", "euc-jp", "shift_jis", "euc-kr"]
PY = {"ibm866": "cp866", "koi8-r": "koi8_r", "koi8-u": "koi8_u",
      "macintosh": "mac_roman", "windows-874": "cp874",
      "x-mac-cyrillic": "mac_cyrillic", "ibm437": "cp437", "ibm850": "cp850",
      "latin1": "latin_1", "gbk": "gb18030", "gb18030": "gb18030",
      "big5": "big5hkscs", "euc-jp": "euc_jp", "shift_jis": "cp932",
      "euc-kr": "cp949"}
for n in names:
    if n.startswith("iso-8859-"):
        PY[n] = "iso8859_" + n[9:]
    elif n.startswith("windows-12"):
        PY[n] = "cp" + n[8:]
assert set(PY) == set(names), set(names) ^ set(PY)


def whatwg_error_len(cs, b, i):
    """How many bytes the WHATWG decoder of cs takes into one U+FFFD for an
    error at b[i] (the structure of its algorithm; no table)."""
    n = len(b) - i
    c = b[i]
    nxt = lambda k: b[i + k] if k < n else None
    if cs in ("gbk", "gb18030"):
        if not 0x81 <= c <= 0xFE:
            return 1
        if n < 2:
            return n
        if 0x30 <= b[i + 1] <= 0x39:
            if n < 3:
                return n
            if not 0x81 <= b[i + 2] <= 0xFE:
                return 1
            if n < 4:
                return n
            return 4 if 0x30 <= b[i + 3] <= 0x39 else 1
        return 1 if b[i + 1] < 0x80 else 2
    if cs == "shift_jis":
        lead = 0x81 <= c <= 0x9F or 0xE0 <= c <= 0xFC
    elif cs == "euc-jp":
        lead = c in (0x8E, 0x8F) or 0xA1 <= c <= 0xFE
        if c == 0x8F and nxt(1) is not None and 0xA1 <= nxt(1) <= 0xFE:
            if n < 3:
                return 2
            return 2 if b[i + 2] < 0x80 else 3
    else:                                   # big5, euc-kr
        lead = 0x81 <= c <= 0xFE
    if not lead or n < 2:
        return 1
    return 1 if b[i + 1] < 0x80 else 2


def expected(cs, b):
    try:
        return b.decode(PY[cs])
    except UnicodeDecodeError:
        pass
    if cs not in MULTI:
        return b.decode(PY[cs], "replace")

    def handler(e):
        return ("\ufffd", e.start + whatwg_error_len(cs, e.object, e.start))
    codecs.register_error("utf8ext-whatwg", handler)
    return b.decode(PY[cs], "utf8ext-whatwg")


def inputs():
    for c, cs in enumerate(names):
        for x in range(0x80, 0x100):
            yield c, bytes([x])
        if cs not in MULTI:
            continue
        leads = {"shift_jis": [x for x in range(0x81, 0xFD) if not 0xA0 <= x <= 0xDF],
                 "euc-jp": [0x8E] + list(range(0xA1, 0xFF))}.get(cs, range(0x81, 0xFF))
        for lead in leads:
            for t in range(0x100):
                yield c, bytes([lead, t])
        if cs == "euc-jp":
            for a in range(0xA1, 0xFF):
                yield c, bytes([0x8F, a])
                for t in range(0x100):
                    yield c, bytes([0x8F, a, t])
        if cs in ("gbk", "gb18030"):
            for a in range(0x81, 0xFF):
                for b1 in range(0x30, 0x3A):
                    yield c, bytes([a, b1])
                    for b2 in range(0x81, 0xFF):
                        yield c, bytes([a, b1, b2])
                        for b3 in (range(0x30, 0x3A) if a <= 0x84 else (0x30, 0x39)):
                            yield c, bytes([a, b1, b2, b3])
            for t in range(0x100):
                yield c, bytes([0x81, 0x30, t])
                yield c, bytes([0x81, 0x30, 0x81, t])


def run(recs):
    data = b"".join(struct.pack("<BBH", 0, c, len(b)) + b for c, b in recs)
    out = subprocess.run([BIN], input=data, capture_output=True, check=True).stdout
    res, i = [], 0
    while i < len(out):
        (l,) = struct.unpack_from("<I", out, i)
        res.append(out[i + 4:i + 4 + l].decode("utf-8"))
        i += 4 + l
    assert len(res) == len(recs)
    return res


def load_diffs():
    """charset hex-input ours python (code points as U+XXXX, joined by commas)."""
    d = {}
    with open(os.path.join(HERE, "charsets_diffs.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            cs, hexin, ours, py = line
            cp = lambda s: "".join(chr(int(x[2:], 16)) for x in s.split(","))
            d[(cs, bytes.fromhex(hexin))] = (cp(ours), cp(py))
    return d


def fmt(s):
    return ",".join("U+%04X" % ord(ch) for ch in s)


def main():
    recs = list(inputs())
    res = run(recs)
    diffs = load_diffs()
    seen = set()
    passed = failed = 0
    shown = 0
    for (c, b), ours in zip(recs, res):
        cs = names[c]
        want = expected(cs, b)
        if ours == want and (cs, b) not in diffs:
            passed += 1
            continue
        if diffs.get((cs, b)) == (ours, want):
            seen.add((cs, b))
            passed += 1
            continue
        failed += 1
        if shown < 20 or "-v" in sys.argv:
            shown += 1
            print("%s %s: utf8ext %s, Python %s%s" % (
                cs, b.hex(), fmt(ours), fmt(want),
                " (listed as %s / %s)" % tuple(map(fmt, diffs[(cs, b)]))
                if (cs, b) in diffs else ""))
    for k in sorted(set(diffs) - seen):
        if k not in {(names[c], b) for c, b in recs}:
            failed += 1
            print("charsets_diffs.txt: %s %s is never tested" % (k[0], k[1].hex()))
    # IBM437 and IBM850 against glibc iconv too.
    for cs, ic in (("ibm437", "IBM437"), ("ibm850", "IBM850")):
        raw = bytes(range(0x100))
        got = run([(names.index(cs), raw)])[0]
        try:
            ref = subprocess.run(["iconv", "-f", ic, "-t", "UTF-8"], input=raw,
                                 capture_output=True, check=True).stdout.decode()
        except (OSError, subprocess.CalledProcessError):
            print("skipped: iconv %s (not available)" % ic)
            continue
        if got == ref:
            passed += 1
        else:
            failed += 1
            print("%s: differs from iconv %s" % (cs, ic))
    print("charsets: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
