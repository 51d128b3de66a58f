#!/usr/bin/env python3
"""tools/gen-charsets.py - write core/charsets_tables.c, the decoding tables
of utf8ext's legacy charsets (core/charsets.c decodes with them) and their
inverse, the encoding tables (core/charsets_encode.c): for the single-byte
charsets a two-level table code point -> row of 30 bytes and byte-class
masks, for each multi-byte index its pointers sorted by code point (which
pointer where WHATWG's encoder would choose: see encode_tables()).

    npm pack text-encoding@0.7.0
    tar xzf text-encoding-0.7.0.tgz package/lib/encoding-indexes.js
    python3 tools/gen-charsets.py package/lib/encoding-indexes.js > core/charsets_tables.c

Python 3 standard library only. The sources, all public:

  * The WHATWG Encoding Standard's indexes (https://encoding.spec.whatwg.org/,
    public domain), as the npm package text-encoding 0.7.0 ships them in
    lib/encoding-indexes.js (tarball sha1 f895e836e45990624086601798ea98e8f36ee643,
    the file's sha256 is checked below). That copy dates from January 2017;
    the indexes changed once since, and this script applies the change:
      - whatwg/encoding pull request 336 (2024, "Adopt GB18030-2022") put 18
        bidirectional mappings of GB18030-2022 into index gb18030, replacing
        PUA code points (GB18030_2022 below; it changes gbk and gb18030).
    It checks the other facts it relies on: index gb18030 maps 0xA3 0xA0 to
    U+3000 and 0xA8 0xBC to U+1E3F (GB18030-2005), koi8-u maps 0xAE/0xBE to
    U+045E/U+040E (the 2016 change), index big5 leaves pointers 1133, 1135,
    1164 and 1166 empty (the Big5 decoder maps them to two code points each,
    in the algorithm, not the index), and index gb18030 ranges has 207 rows,
    the last 189000 -> U+10000 (pointer 7457, U+E7C7, is special-cased by
    the algorithm in core/charsets.c).
  * IBM437 and IBM850, which WHATWG lacks: the Unicode consortium's mapping
    files VENDORS/MICSFT/PC/CP437.TXT and CP850.TXT, bytes 80-FF (bytes
    00-7F are ASCII), written out below. Python's cp437/cp850 codecs and
    glibc iconv's IBM437/IBM850 agree with them (test/charsets_check.py).
  * latin1: ISO-8859-1 proper, each byte its own code point.

The label table is the Encoding Standard's list of labels per encoding,
plus utf8ext's own: 'latin1' and every other label of ISO-8859-1 name
ISO-8859-1 proper (WHATWG maps them to windows-1252), and ibm437/ibm850,
cp932, cp936, cp949 are accepted.
"""
import hashlib
import json
import sys

INDEXES_SHA256 = "d0fd4fed32adb04570634ef4c50e2fd92b3c7f240b68e4403db1cf5df609663f"

# The order of enum utf8_charset in core/charsets.h: single-byte first.
SINGLE = ["ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5",
          "iso-8859-6", "iso-8859-7", "iso-8859-8", "iso-8859-10",
          "iso-8859-13", "iso-8859-14", "iso-8859-15", "iso-8859-16",
          "koi8-r", "koi8-u", "macintosh", "windows-874", "windows-1250",
          "windows-1251", "windows-1252", "windows-1253", "windows-1254",
          "windows-1255", "windows-1256", "windows-1257", "windows-1258",
          "x-mac-cyrillic", "ibm437", "ibm850", "latin1"]
MULTI = ["gbk", "gb18030", "big5", "euc-jp", "shift_jis", "euc-kr"]

LABELS = {
    "ibm866": "866 cp866 csibm866 ibm866",
    "iso-8859-2": "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2",
    "iso-8859-3": "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3",
    "iso-8859-4": "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4",
    "iso-8859-5": "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 iso_8859-5:1988",
    "iso-8859-6": "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987",
    "iso-8859-7": "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 iso_8859-7 iso_8859-7:1987 sun_eu_greek",
    # ISO-8859-8-I (csiso88598i iso-8859-8-i logical) decodes as ISO-8859-8.
    "iso-8859-8": "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 visual csiso88598i iso-8859-8-i logical",
    "iso-8859-10": "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6",
    "iso-8859-13": "iso-8859-13 iso8859-13 iso885913",
    "iso-8859-14": "iso-8859-14 iso8859-14 iso885914",
    "iso-8859-15": "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9",
    "iso-8859-16": "iso-8859-16",
    "koi8-r": "cskoi8r koi koi8 koi8-r koi8_r",
    "koi8-u": "koi8-ru koi8-u",
    "macintosh": "csmacintosh mac macintosh x-mac-roman",
    "windows-874": "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874",
    "windows-1250": "cp1250 windows-1250 x-cp1250",
    "windows-1251": "cp1251 windows-1251 x-cp1251",
    # WHATWG's ISO-8859-1 labels are under latin1 below (utf8ext's choice).
    "windows-1252": "ansi_x3.4-1968 ascii cp1252 us-ascii windows-1252 x-cp1252",
    "windows-1253": "cp1253 windows-1253 x-cp1253",
    "windows-1254": "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 windows-1254 x-cp1254",
    "windows-1255": "cp1255 windows-1255 x-cp1255",
    "windows-1256": "cp1256 windows-1256 x-cp1256",
    "windows-1257": "cp1257 windows-1257 x-cp1257",
    "windows-1258": "cp1258 windows-1258 x-cp1258",
    "x-mac-cyrillic": "x-mac-cyrillic x-mac-ukrainian",
    "ibm437": "437 cp437 csibm437 ibm437",
    "ibm850": "850 cp850 csibm850 ibm850",
    "latin1": "cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 latin-1",
    "gbk": "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk cp936",
    "gb18030": "gb18030",
    "big5": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    "euc-jp": "cseucpkdfmtjapanese euc-jp x-euc-jp",
    "shift_jis": "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis cp932",
    "euc-kr": "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 windows-949 cp949",
}

# CP437.TXT and CP850.TXT (unicode.org), bytes 0x80-0xFF.
IBM437 = """
00C7 00FC 00E9 00E2 00E4 00E0 00E5 00E7 00EA 00EB 00E8 00EF 00EE 00EC 00C4 00C5
00C9 00E6 00C6 00F4 00F6 00F2 00FB 00F9 00FF 00D6 00DC 00A2 00A3 00A5 20A7 0192
00E1 00ED 00F3 00FA 00F1 00D1 00AA 00BA 00BF 2310 00AC 00BD 00BC 00A1 00AB 00BB
2591 2592 2593 2502 2524 2561 2562 2556 2555 2563 2551 2557 255D 255C 255B 2510
2514 2534 252C 251C 2500 253C 255E 255F 255A 2554 2569 2566 2560 2550 256C 2567
2568 2564 2565 2559 2558 2552 2553 256B 256A 2518 250C 2588 2584 258C 2590 2580
03B1 00DF 0393 03C0 03A3 03C3 00B5 03C4 03A6 0398 03A9 03B4 221E 03C6 03B5 2229
2261 00B1 2265 2264 2320 2321 00F7 2248 00B0 2219 00B7 221A 207F 00B2 25A0 00A0
"""
IBM850 = """
00C7 00FC 00E9 00E2 00E4 00E0 00E5 00E7 00EA 00EB 00E8 00EF 00EE 00EC 00C4 00C5
00C9 00E6 00C6 00F4 00F6 00F2 00FB 00F9 00FF 00D6 00DC 00F8 00A3 00D8 00D7 0192
00E1 00ED 00F3 00FA 00F1 00D1 00AA 00BA 00BF 00AE 00AC 00BD 00BC 00A1 00AB 00BB
2591 2592 2593 2502 2524 00C1 00C2 00C0 00A9 2563 2551 2557 255D 00A2 00A5 2510
2514 2534 252C 251C 2500 253C 00E3 00C3 255A 2554 2569 2566 2560 2550 256C 00A4
00F0 00D0 00CA 00CB 00C8 0131 00CD 00CE 00CF 2518 250C 2588 2584 00A6 00CC 2580
00D3 00DF 00D4 00D2 00F5 00D5 00B5 00FE 00DE 00DA 00DB 00D9 00FD 00DD 00AF 00B4
00AD 00B1 2017 00BE 00B6 00A7 00F7 00B8 00B0 00A8 00B7 00B9 00B3 00B2 25A0 00A0
"""

# GB18030-2022's 18 bidirectional changes (UTC L2/23-003r, whatwg/encoding
# PR 336): bytes -> new code point (the old one was the PUA code point).
GB18030_2022 = {
    (0xA6, 0xD9): (0xE78D, 0xFE10), (0xA6, 0xDA): (0xE78E, 0xFE12),
    (0xA6, 0xDB): (0xE78F, 0xFE11), (0xA6, 0xDC): (0xE790, 0xFE13),
    (0xA6, 0xDD): (0xE791, 0xFE14), (0xA6, 0xDE): (0xE792, 0xFE15),
    (0xA6, 0xDF): (0xE793, 0xFE16), (0xA6, 0xEC): (0xE794, 0xFE17),
    (0xA6, 0xED): (0xE795, 0xFE18), (0xA6, 0xF3): (0xE796, 0xFE19),
    (0xFE, 0x59): (0xE81E, 0x9FB4), (0xFE, 0x61): (0xE826, 0x9FB5),
    (0xFE, 0x66): (0xE82B, 0x9FB6), (0xFE, 0x67): (0xE82C, 0x9FB7),
    (0xFE, 0x6D): (0xE832, 0x9FB8), (0xFE, 0x7E): (0xE843, 0x9FB9),
    (0xFE, 0x90): (0xE854, 0x9FBA), (0xFE, 0xA0): (0xE864, 0x9FBB),
}


def load_indexes(path):
    raw = open(path, "rb").read()
    got = hashlib.sha256(raw).hexdigest()
    if got != INDEXES_SHA256:
        sys.exit("gen-charsets: %s is not text-encoding 0.7.0's "
                 "encoding-indexes.js (sha256 %s)" % (path, got))
    s = raw.decode("utf-8")
    i = s.index("{", s.index('global["encoding-indexes"]'))
    depth = 0
    for k in range(i, len(s)):
        if s[k] == "{":
            depth += 1
        elif s[k] == "}":
            depth -= 1
            if depth == 0:
                break
    return json.loads(s[i:k + 1])


def gb_pointer(lead, trail):
    return (lead - 0x81) * 190 + trail - (0x40 if trail < 0x7F else 0x41)


def check_and_patch(d):
    gb = d["gb18030"]
    assert gb[gb_pointer(0xA3, 0xA0)] == 0x3000
    assert gb[gb_pointer(0xA8, 0xBC)] == 0x1E3F
    for (lead, trail), (old, new) in GB18030_2022.items():
        p = gb_pointer(lead, trail)
        assert gb[p] == old, (hex(lead), hex(trail), gb[p])
        gb[p] = new
    assert d["koi8-u"][0x2E] == 0x045E and d["koi8-u"][0x3E] == 0x040E
    for p in (1133, 1135, 1164, 1166):
        assert d["big5"][p] is None
    r = d["gb18030-ranges"]
    assert len(r) == 207 and r[0] == [0, 0x80] and r[-1] == [189000, 0x10000]
    assert all(r[k][0] < r[k + 1][0] for k in range(len(r) - 1))
    d["ibm437"] = [int(x, 16) for x in IBM437.split()]
    d["ibm850"] = [int(x, 16) for x in IBM850.split()]
    d["latin1"] = list(range(0x80, 0x100))
    assert len(d["ibm437"]) == 128 and len(d["ibm850"]) == 128


def c_array(ctype, name, values, per_line=12, fmt="0x%04X"):
    out = ["const %s %s[%d] = {" % (ctype, name, len(values))]
    for k in range(0, len(values), per_line):
        out.append("  " + ", ".join(fmt % v for v in values[k:k + per_line]) + ",")
    out.append("};")
    return "\n".join(out)


def bmp_table(name, index, comment):
    """A uint16 table without the index's empty head and tail; 0 = none."""
    ptrs = [p for p, v in enumerate(index) if v is not None]
    first, last = ptrs[0], ptrs[-1]
    vals = [(v or 0) for v in index[first:last + 1]]
    assert all(v <= 0xFFFF for v in vals), name
    assert 0 not in [v for v in index if v is not None], name
    return ("/* %s: pointers %d..%d (%d entries). */\n" % (comment, first, last, len(vals))
            + "const uint32_t utf8_cs_%s_first = %d;\n" % (name, first)
            + "const uint32_t utf8_cs_%s_count = %d;\n" % (name, len(vals))
            + c_array("uint16_t", "utf8_cs_%s" % name, vals)), len(vals) * 2


# ---- the encoding tables (core/charsets_encode.c) ----
#
# Every table below inverts the decoder: a code point gets the bytes that
# core/charsets.c decodes as it, WHATWG's encoder's choice where there are
# several and WHATWG's encoder writes one of them, else the lowest (see
# core/charsets.h, utf8_charset_encode).

# The byte classes of utf8_charset_byteclass: 0 ASCII, 1 80-BF, 2 C2-DF,
# 3 E0-EF, 4 F0-F4; C0, C1 and F5-FF are in none.
def byte_class(b):
    if b < 0x80:
        return 0
    if b < 0xC0:
        return 1
    if 0xC2 <= b <= 0xDF:
        return 2
    if 0xE0 <= b <= 0xEF:
        return 3
    if 0xF0 <= b <= 0xF4:
        return 4
    return None


def single_encode_tables(d):
    """The single-byte charsets' reverse tables: code point -> row (a
    two-level table over U+0080..U+FFFF, 128 code points a page), row ->
    one byte per charset (0: none) and row -> byte-class masks."""
    rev = []                        # per charset: code point -> byte
    for name in SINGLE:
        m = {}
        for k, v in enumerate(d[name]):
            if v is None:
                continue
            assert 0x80 <= v <= 0xFFFF and v != 0xFFFD, (name, k)
            assert v not in m, (name, "a code point twice")
            m[v] = 0x80 + k
        rev.append(m)
    assert len(SINGLE) <= 32
    cps = sorted(set().union(*rev))
    row_of = {cp: k + 1 for k, cp in enumerate(cps)}     # row 0: no charset
    rows = [[0] * len(SINGLE)] + [[m.get(cp, 0) for m in rev] for cp in cps]
    pages = [[0] * 128]                                  # page 0: empty
    stage1 = [0] * 512
    for hi in range(512):
        page = [row_of.get(hi * 128 + lo, 0) for lo in range(128)]
        if any(page):
            stage1[hi] = len(pages)
            pages.append(page)
    assert len(pages) <= 256
    masks, mask_of, row_mask = [[0] * 5], {(0,) * 5: 0}, []
    for row in rows:
        m = [0] * 5
        for cs, b in enumerate(row):
            if b and byte_class(b) is not None:
                m[byte_class(b)] |= 1 << cs
        m = tuple(m)
        if m not in mask_of:
            mask_of[m] = len(masks)
            masks.append(list(m))
        row_mask.append(mask_of[m])
    assert len(masks) <= 256
    text = ["/* Encoding, single-byte charsets: for U+0080..U+FFFF, page\n"
            "** utf8_cs_sb_stage1[cp>>7], entry cp&127 of utf8_cs_sb_pages is a row\n"
            "** (0: in no charset); utf8_cs_sb_rows[row][cs] is the byte cs decodes\n"
            "** as cp (0: none), utf8_cs_sb_classes[utf8_cs_sb_row_class[row]] its\n"
            "** byte-class masks (bit cs of mask k: cs writes cp as a byte of class\n"
            "** k, see utf8_charset_byteclass). %d code points, %d pages. */"
            % (len(cps), len(pages) - 1),
            c_array("uint8_t", "utf8_cs_sb_stage1", stage1, 16, "%d")]
    lines = ["const uint16_t utf8_cs_sb_pages[%d][128] = {" % len(pages)]
    for page in pages:
        lines.append("  {")
        for k in range(0, 128, 16):
            lines.append("    " + ", ".join("%d" % v for v in page[k:k + 16]) + ",")
        lines.append("  },")
    lines.append("};")
    text.append("\n".join(lines))
    lines = ["const uint8_t utf8_cs_sb_rows[%d][%d] = {" % (len(rows), len(SINGLE))]
    for k, row in enumerate(rows):
        lines.append("  { " + ", ".join("0x%02X" % b for b in row) + " },"
                     + (" /* U+%04X */" % cps[k - 1] if k else ""))
    lines.append("};")
    text.append("\n".join(lines))
    text.append(c_array("uint8_t", "utf8_cs_sb_row_class", row_mask, 16, "%d"))
    lines = ["const uint32_t utf8_cs_sb_classes[%d][5] = {" % len(masks)]
    for m in masks:
        lines.append("  { " + ", ".join("0x%08X" % x for x in m) + " },")
    lines.append("};")
    text.append("\n".join(lines))
    size = (len(stage1) + len(pages) * 256 + len(rows) * len(SINGLE)
            + len(row_mask) + len(masks) * 20)
    return "\n".join(text), size


def reverse_table(name, index, choose):
    """Index's pointers sorted by code point, one per code point (choose:
    code point, its pointers in increasing order -> the one to write), and
    where each 256 code points (cp>>8) begin in that list."""
    ptrs = {}
    for p, v in enumerate(index):
        if v is not None:
            ptrs.setdefault(v, []).append(p)
    cps = sorted(ptrs)
    rev = [choose(cp, ptrs[cp]) for cp in cps]
    assert max(rev) <= 0xFFFF and len(rev) <= 0xFFFF
    nblk = (cps[-1] >> 8) + 1
    start, k = [], 0
    for blk in range(nblk + 1):
        while k < len(cps) and (cps[k] >> 8) < blk:
            k += 1
        start.append(k)
    text = ("/* Encoding, %s: its pointers sorted by code point (one per code\n"
            "** point), and where the code points of each cp>>8 begin (%d blocks). */\n"
            % (name, nblk)
            + "const uint32_t utf8_cs_%s_rev_count = %d;\n" % (name, len(rev))
            + "const uint32_t utf8_cs_%s_rev_blocks = %d;\n" % (name, nblk)
            + c_array("uint16_t", "utf8_cs_%s_rev" % name, rev, 12, "%d") + "\n"
            + c_array("uint16_t", "utf8_cs_%s_rev_start" % name, start, 12, "%d"))
    return text, len(rev) * 2 + len(start) * 2, ptrs


def lowest(cp, ps):
    return ps[0]


def big5_choice(cp, ps):
    """WHATWG's Big5 encoder: not below pointer (0xA1-0x81)*157 (HKSCS's
    own rows), the last pointer for six code points, else the first. A
    code point only below that: the lowest (WHATWG writes none)."""
    hi = [p for p in ps if p >= (0xA1 - 0x81) * 157]
    if not hi:
        return ps[0]
    if cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
        return hi[-1]
    return hi[0]


def encode_tables(d):
    parts = []
    text, size = single_encode_tables(d)
    parts.append(text)
    # jis0208: EUC-JP writes the first pointer (it reaches 0..8835 only);
    # Shift_JIS skips pointers 8272..8835 (NEC's copy of the IBM rows) when
    # the code point has another: utf8_cs_jis0208_sjis[p-8272].
    assert all(v is None for v in d["jis0208"][8836:10716])   # EUDC: the algorithm's
    text, sz, ptrs = reverse_table("jis0208", d["jis0208"], lowest)
    parts.append(text)
    size += sz
    assert all(ps[0] <= 8835 for ps in ptrs.values())
    assert not any(0xE000 <= cp <= 0xE757 for cp in ptrs)
    alt = [0] * (8835 - 8272 + 1)
    for cp, ps in ptrs.items():
        if 8272 <= ps[0] <= 8835:
            other = [p for p in ps if not 8272 <= p <= 8835]
            if other:
                alt[ps[0] - 8272] = other[0]
    parts.append("/* Shift_JIS: the pointer WHATWG writes for the code point at\n"
                 "** jis0208 pointer 8272+k (0: that one). */\n"
                 + c_array("uint16_t", "utf8_cs_jis0208_sjis", alt, 12, "%d"))
    size += len(alt) * 2
    for name, index, choose in (("jis0212", d["jis0212"], lowest),
                                ("gb18030", d["gb18030"], lowest),
                                ("euckr", d["euc-kr"], lowest),
                                ("big5", d["big5"], big5_choice)):
        text, sz, ptrs = reverse_table(name, index, choose)
        parts.append(text)
        size += sz
    return parts, size


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = load_indexes(sys.argv[1])
    check_and_patch(d)
    parts = []
    size = 0
    # Single-byte: bytes 0x80-0xFF; 0xFFFD where the index has no entry
    # (the decoder's error: the byte becomes U+FFFD).
    sb = []
    for name in SINGLE:
        idx = d[name]
        assert len(idx) == 128, name
        sb.append([0xFFFD if v is None else v for v in idx])
        assert all(v <= 0xFFFF for v in sb[-1])
    lines = ["const uint16_t utf8_cs_single[%d][128] = {" % len(SINGLE)]
    for name, row in zip(SINGLE, sb):
        lines.append("  { /* %s */" % name)
        for k in range(0, 128, 8):
            lines.append("    " + ", ".join("0x%04X" % v for v in row[k:k + 8]) + ",")
        lines.append("  },")
    lines.append("};")
    parts.append("/* Single-byte charsets, bytes 0x80-0xFF (0xFFFD: no character). */\n"
                 + "\n".join(lines))
    size += len(SINGLE) * 256
    for name, comment in (("jis0208", "index jis0208 (Shift_JIS, EUC-JP)"),
                          ("jis0212", "index jis0212 (EUC-JP's 0x8F lead)"),
                          ("gb18030", "index gb18030 (gbk, gb18030), with GB18030-2022's 18 changes"),
                          ("euckr", "index euc-kr")):
        text, sz = bmp_table(name, d["euc-kr" if name == "euckr" else name], comment)
        parts.append(text)
        size += sz
    # Big5: every code point above U+FFFF is in plane 2; keep the low 16
    # bits and one bit per entry that says "plane 2".
    big5 = d["big5"]
    ptrs = [p for p, v in enumerate(big5) if v is not None]
    first, last = ptrs[0], ptrs[-1]
    vals, bits = [], [0] * ((last - first + 1 + 7) // 8)
    for k, v in enumerate(big5[first:last + 1]):
        v = v or 0
        if v > 0xFFFF:
            assert 0x20000 <= v <= 0x2FFFF
            bits[k // 8] |= 1 << (k % 8)
        vals.append(v & 0xFFFF)
    parts.append("/* index big5: pointers %d..%d; bit k of utf8_cs_big5_plane2 set:\n"
                 "** entry k is U+2xxxx (0x20000 plus the low 16 bits). */\n" % (first, last)
                 + "const uint32_t utf8_cs_big5_first = %d;\n" % first
                 + "const uint32_t utf8_cs_big5_count = %d;\n" % len(vals)
                 + c_array("uint16_t", "utf8_cs_big5", vals) + "\n"
                 + c_array("uint8_t", "utf8_cs_big5_plane2", bits, 16, "0x%02X"))
    size += len(vals) * 2 + len(bits)
    r = d["gb18030-ranges"]
    parts.append("/* index gb18030 ranges: pointer, first code point. */\n"
                 + "const uint32_t utf8_cs_gb_ranges_count = %d;\n" % len(r)
                 + c_array("uint32_t", "utf8_cs_gb_ranges_ptr", [x[0] for x in r], 10, "%d") + "\n"
                 + c_array("uint32_t", "utf8_cs_gb_ranges_cp", [x[1] for x in r], 10, "0x%04X"))
    size += len(r) * 8
    enc_parts, enc_size = encode_tables(d)
    parts.extend(enc_parts)
    # Names and labels.
    names = SINGLE + MULTI
    parts.append("const char *const utf8_cs_names[%d] = {\n" % len(names)
                 + "".join('  "%s",\n' % n for n in names) + "};")
    labels = []
    for cs, ls in LABELS.items():
        for l in ls.split():
            labels.append((l, names.index(cs)))
    assert len({l for l, _ in labels}) == len(labels), "a label twice"
    assert set(LABELS) == set(names)
    labels.sort()
    parts.append("/* Every accepted label (lower case, sorted: bsearch), its charset. */\n"
                 + "const utf8_cs_label utf8_cs_labels[%d] = {\n" % len(labels)
                 + "".join('  { "%s", %d },\n' % (l, c) for l, c in labels) + "};\n"
                 + "const unsigned utf8_cs_label_count = %d;" % len(labels))
    print("/*\n** core/charsets_tables.c - GENERATED by tools/gen-charsets.py; do not edit.\n"
          "**\n** Regenerate:\n"
          "**   npm pack text-encoding@0.7.0\n"
          "**   tar xzf text-encoding-0.7.0.tgz package/lib/encoding-indexes.js\n"
          "**   python3 tools/gen-charsets.py package/lib/encoding-indexes.js > core/charsets_tables.c\n"
          "**\n** From the WHATWG Encoding Standard's indexes (text-encoding 0.7.0's copy,\n"
          "** with GB18030-2022's 18 changes applied) and the Unicode consortium's\n"
          "** CP437.TXT and CP850.TXT; see the script for the details.\n"
          "** Tables: %d bytes to decode, %d bytes to encode.\n*/\n" % (size, enc_size))
    print('#include "charsets.h"\n')
    print("\n\n".join(parts))


if __name__ == "__main__":
    main()
