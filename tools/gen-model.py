#!/usr/bin/env python3
"""tools/gen-model.py - write core/model_tables.c and core/model_tables.h,
utf8ext's model of real text: how likely each character is after the one
before it, learnt from the corpus that tools/corpus.py fetches from Debian
packages (docs/corpus.md lists them).

    python3 tools/corpus.py build/corpus
    python3 tools/gen-model.py build/corpus/train core

Python 3 standard library only; the output depends on the corpus and on
the Unicode version of Python's unicodedata (printed into the header), and
is byte-identical when both are the same. docs/guess.md explains the model.

The model, in one paragraph. Each code point maps to a symbol: a letter is
folded to lower case (its case is kept beside it), every frequent non-CJK
character (a letter, punctuation, a symbol) is a symbol of its own, every
ASCII digit is one symbol, and the rest fall into coarse classes (a rare
Cyrillic letter, a C1 control, a box-drawing character, U+FFFD, ...). Han
characters, kana and Hangul syllables that are frequent are symbols of
their own too, but share a class per script. The text's probability is a
product over its characters of P(class | previous class), a bigram over
classes, times P(symbol | class) (0 bits for a class of one symbol), times
P(a letter's case | the cases of the two characters before) (a capital
after a lower-case letter is rare, and rarer still with capitals after
it). Every language counts the same, whatever its corpus size.
"""
import math
import os
import sys
import unicodedata
from collections import defaultdict

OWN_MIN = 4e-5      # a non-CJK character this frequent in some language is a symbol
CJK_MIN = 4e-6      # pooled over languages, for Han, kana and Hangul
SCALE = 1e6         # each language's counts are scaled to this many characters
QUANT = 4           # costs are stored in 1/QUANT bits
MAX_LINES = 200000  # per language, the first lines of its train file

EDGE = "EDGE"       # the value's start and end
NLOCAL = 64         # classes of a language's own bigram table, the last "other"
ALPHA = 50.0        # pseudo-count of the global model in a language's "other"
UNIVERSAL = ["EDGE", "SPACE", "DIGIT", "PUNCT", ",", ".", "?", "!", ":", ";",
             "-", "(", ")", '"', "'", "/"]
MIX = 0.5           # a non-letter after a letter: at least MIX times the pooled odds

# Which languages each charset is used for: a candidate decoding is scored
# by the model of each of its charset's languages, and the best counts.
# Facts of use (the charsets' own scope), not tuned; a language without a
# corpus is left out. Damaged UTF-8 is scored by every language.
WESTERN = "de fr es it pt nl sv da nb fi ca is"
CENTRAL = "pl cs sk hu sl hr ro de"
CYRILLIC = "ru uk bg sr be mk"
BALTIC = "lt lv et"
CHARSET_LANGS = {
    "windows-1252": WESTERN, "iso-8859-15": WESTERN, "macintosh": WESTERN,
    "ibm437": WESTERN, "ibm850": WESTERN, "latin1": WESTERN,
    "iso-8859-14": WESTERN, "iso-8859-10": "is nb da sv fi",
    "windows-1250": CENTRAL, "iso-8859-2": CENTRAL,
    "iso-8859-16": "ro pl hu hr sl de fr it",
    "iso-8859-3": "tr",
    "iso-8859-4": BALTIC, "iso-8859-13": BALTIC, "windows-1257": BALTIC,
    "windows-1251": CYRILLIC, "iso-8859-5": CYRILLIC, "ibm866": "ru uk be bg",
    "koi8-r": "ru bg", "koi8-u": "uk ru be", "x-mac-cyrillic": CYRILLIC,
    "windows-1253": "el", "iso-8859-7": "el",
    "windows-1254": "tr", "iso-8859-9": "tr",
    "windows-1255": "he", "iso-8859-8": "he",
    "windows-1256": "ar", "iso-8859-6": "ar",
    "windows-1258": "vi", "windows-874": "th",
    "shift_jis": "ja", "euc-jp": "ja", "gb18030": "zh_CN", "gbk": "zh_CN",
    "big5": "zh_TW", "euc-kr": "ko",
}


def charset_order():
    """The order of enum utf8_charset: tools/gen-charsets.py's lists."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("gencs", os.path.join(here, "gen-charsets.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.SINGLE + mod.MULTI

COARSE = ["EDGE", "SPACE", "DIGIT", "CTRL", "C1", "FFFD", "PUA", "UNASSIGNED",
          "MARK", "SPACE-OTHER", "DIGIT-OTHER", "PUNCT", "SYM-MATH",
          "SYM-CURRENCY", "SYM-BOX", "SYM-OTHER",
          "L-LATIN", "L-CYRILLIC", "L-GREEK", "L-HEBREW", "L-ARABIC",
          "L-THAI", "L-OTHER", "HAN", "HANGUL", "HIRAGANA", "KATAKANA",
          "OTHER"]
# Classes whose frequent members are symbols of their own sharing the class.
CJK_GROUPS = ("HAN", "HANGUL", "HIRAGANA", "KATAKANA")
# The scripts of letters, for the cost of a letter's script after the script
# of the letter before it (across spaces and punctuation): 0 is "no letter".
SCRIPTS = ["NONE", "LATIN", "CYRILLIC", "GREEK", "HEBREW", "ARABIC", "THAI",
           "HAN", "HIRAGANA", "KATAKANA", "HANGUL", "OTHER"]


# Letters that Unicode's Scripts.txt puts in the Latin script though their
# names do not say so: the ordinals of "1º", "nº", "2ª" (Spanish,
# Portuguese, Italian, Catalan, Galician).
LATIN_UNNAMED = "\u00aa\u00ba"


def letter_script(ch):
    """The index in SCRIPTS of a letter's script; 0 for a non-letter."""
    if ch.isdigit() or not ch.isalpha():
        return 0
    return SCRIPTS.index(script_of(ch))


def script_of(ch):
    cp = ord(ch)
    if 0xAC00 <= cp <= 0xD7A3:
        return "HANGUL"
    if 0x3040 <= cp <= 0x309F:
        return "HIRAGANA"
    if 0x30A0 <= cp <= 0x30FF or 0x31F0 <= cp <= 0x31FF or 0xFF66 <= cp <= 0xFF9F:
        return "KATAKANA"
    name = unicodedata.name(ch, "")
    if name.startswith("CJK UNIFIED IDEOGRAPH") or name.startswith("CJK COMPATIBILITY IDEOGRAPH"):
        return "HAN"
    for s in ("LATIN", "CYRILLIC", "GREEK", "HEBREW", "ARABIC", "THAI"):
        if name.startswith(s):
            return s
    if ch in LATIN_UNNAMED:
        return "LATIN"
    return "OTHER"


def coarse(ch):
    """The coarse class of a character that is not a symbol of its own."""
    cp = ord(ch)
    if cp < 0x80:
        if ch in " \t\n\r":
            return "SPACE"
        if ch.isdigit():
            return "DIGIT"
        return "CTRL"              # printable ASCII are all symbols
    if 0x80 <= cp <= 0x9F:
        return "C1"
    if cp == 0xFFFD:
        return "FFFD"
    cat = unicodedata.category(ch)
    if 0x2500 <= cp <= 0x259F:
        return "SYM-BOX"
    s = script_of(ch)
    if s in CJK_GROUPS:
        return s
    if cat == "Co":
        return "PUA"
    if cat in ("Cn", "Cs"):
        return "UNASSIGNED"
    if cat[0] == "C":
        return "CTRL"
    if cat[0] == "M":
        return "MARK"
    if cat[0] == "Z":
        return "SPACE-OTHER"
    if cat[0] == "N":
        return "DIGIT-OTHER"
    if cat[0] == "P":
        return "PUNCT"
    if cat == "Sm":
        return "SYM-MATH"
    if cat == "Sc":
        return "SYM-CURRENCY"
    if cat[0] == "S":
        return "SYM-OTHER"
    if cat[0] == "L":
        return "L-" + s if s != "OTHER" else "L-OTHER"
    return "OTHER"


def fold(ch):
    """(folded character, case): case 0 none, 1 lower, 2 upper."""
    if ch.isupper() or ch.istitle():
        lo = ch.lower()
        return (lo if len(lo) == 1 else ch), 2
    if ch.islower():
        return ch, 1
    return ch, 0


def key_of(ch):
    """The corpus-independent key a character is counted under."""
    cp = ord(ch)
    if cp < 0x80:
        if ch in " \t\n\r":
            return "SPACE"
        if "0" <= ch <= "9":
            return "DIGIT"
        if cp < 0x20 or cp == 0x7F:
            return "CTRL"
        return ch.lower()
    return fold(ch)[0]


def cp1258_form(line):
    """Vietnamese as windows-1258 stores it: a precomposed letter where the
    charset has one, else a base letter and combining marks (the form its
    decoder gives back, which the model must know too)."""
    out = []
    for ch in line:
        try:
            ch.encode("cp1258")
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        d = unicodedata.normalize("NFD", ch)
        base, marks = d[0], list(d[1:])
        for i, m in enumerate(marks):       # compose one mark if that helps
            c = unicodedata.normalize("NFC", base + m)
            if len(c) == 1:
                try:
                    c.encode("cp1258")
                    base = c
                    del marks[i]
                    break
                except UnicodeEncodeError:
                    pass
        out.append(base + "".join(marks))
    return "".join(out)


def read_lines(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i >= MAX_LINES:
                break
            line = line.rstrip("\n")
            if line:
                lines.append(line)
    return lines


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-model.py CORPUS_TRAIN_DIR OUT_DIR")
    train, outdir = sys.argv[1], sys.argv[2]
    langs = sorted(f[:-4] for f in os.listdir(train) if f.endswith(".txt"))
    texts = {}
    for lang in langs:
        lines = read_lines(os.path.join(train, lang + ".txt"))
        if lang == "vi":
            lines = lines + [cp1258_form(l) for l in lines]
        texts[lang] = lines

    # Pass 1: per-language frequencies of keys, to pick the symbols.
    freq = {}
    for lang, lines in texts.items():
        c = defaultdict(int)
        n = 0
        for line in lines:
            for ch in line:
                c[key_of(ch)] += 1
                n += 1
        freq[lang] = {k: v / n for k, v in c.items()}

    own = set()          # non-CJK keys that are symbols of their own
    cjk = defaultdict(float)
    for lang in langs:
        for k, f in freq[lang].items():
            if len(k) != 1 or ord(k) < 0x80:
                continue
            s = script_of(k)
            if s in CJK_GROUPS:
                cjk[k] += f
            elif f >= OWN_MIN and coarse(k) not in ("C1", "FFFD", "PUA", "UNASSIGNED", "CTRL"):
                own.add(k)
    cjk_own = sorted(k for k, f in cjk.items() if f >= CJK_MIN)

    # Classes: coarse classes, printable ASCII, then the own symbols.
    classes = list(COARSE)
    classes += [chr(c) for c in range(0x21, 0x7F) if not chr(c).isupper() and not chr(c).isdigit()]
    classes += sorted(own)
    cls_id = {c: i for i, c in enumerate(classes)}
    # Symbols: one per class, then the CJK symbols of their own.
    symbols = list(classes) + cjk_own
    sym_id = {s: i for i, s in enumerate(symbols)}
    sym_cls = [cls_id[s] if s in cls_id else cls_id[script_of(s)] for s in symbols]
    assert len(symbols) < 1 << 14

    def sym_of_key(k):
        if k in sym_id:
            return sym_id[k]
        return sym_id[coarse(k)]

    # Pass 2: weighted counts of class bigrams, CJK symbols, case pairs.
    big = defaultdict(float)
    seen = defaultdict(set)
    sym_count = defaultdict(float)
    case_pair = defaultdict(float)
    script_pair = defaultdict(float)
    lang_big = {lang: defaultdict(int) for lang in langs}
    for lang in langs:
        lb = lang_big[lang]
        lines = texts[lang]
        total = sum(len(l) + 1 for l in lines)
        w = SCALE / total
        for line in lines:
            prev = cls_id[EDGE]
            prev_case = prev_case2 = 0
            prev_script = 0
            for ch in line:
                sc = letter_script(ch)
                if sc:
                    script_pair[(prev_script, sc)] += w
                    prev_script = sc
                k = key_of(ch)
                s = sym_of_key(k)
                c = sym_cls[s]
                big[(prev, c)] += w
                lb[(prev, c)] += 1
                seen[prev].add(c)
                sym_count[s] += w
                case = fold(ch)[1]
                if case:
                    case_pair[(prev_case2, prev_case, case)] += w
                prev_case2 = prev_case if case else 0
                prev, prev_case = c, case
            big[(prev, cls_id[EDGE])] += w
            lb[(prev, cls_id[EDGE])] += 1
            seen[prev].add(cls_id[EDGE])

    K = len(classes)
    uni = [0.0] * K
    for (a, b), v in big.items():
        uni[b] += v
    tot = sum(uni)
    p_uni = [(u + 0.5) / (tot + 0.5 * K) for u in uni]
    row = [0.0] * K
    for (a, b), v in big.items():
        row[a] += v

    def q(bits):
        return max(0, min(255, int(round(bits * QUANT))))

    bigram = []
    p_big = []          # the same as probabilities, row by row
    for a in range(K):
        t = max(1, len(seen[a]))
        ca = row[a]
        r = []
        for b in range(K):
            p = (big.get((a, b), 0.0) + t * p_uni[b]) / (ca + t)
            r.append(p)
            bigram.append(q(-math.log2(p)))
        p_big.append(r)

    def cls_script_of(c):
        name = classes[c]
        if len(name) == 1:
            return letter_script(name)
        return 1 if name.startswith("L-") or name in CJK_GROUPS else 0

    # What follows a letter, any letter of any language.
    after_letter = [0.0] * K
    for (a, b), v in big.items():
        if cls_script_of(a):
            after_letter[b] += v
    tl = sum(after_letter)
    after_letter = [v / tl for v in after_letter]

    # Each language's own bigram over its NLOCAL-1 most frequent classes and
    # "other"; a class in "other" costs what the language (or, never seen
    # there, the global model) gives it among the others.
    lang_local, lang_extra, lang_bigram = [], [], []
    for lang in langs:
        lb = lang_big[lang]
        cnt = defaultdict(int)
        for (a, b), v in lb.items():
            cnt[b] += v
        # Every language's table has the classes all text shares (word
        # lists lack the punctuation), then its most frequent ones.
        top = [cls_id[c] for c in UNIVERSAL]
        top += [c for c in sorted(cnt, key=lambda c: (-cnt[c], c)) if c not in top]
        top = top[:NLOCAL - 1]
        local = [NLOCAL - 1] * K
        for i, c in enumerate(top):
            local[c] = i
        other_n = sum(v for c, v in cnt.items() if local[c] == NLOCAL - 1)
        other_p = sum(p_uni[c] for c in range(K) if local[c] == NLOCAL - 1)
        extra = []
        for c in range(K):
            if local[c] != NLOCAL - 1:
                extra.append(0)
            else:
                pc = (cnt.get(c, 0) + ALPHA * p_uni[c] / other_p) / (other_n + ALPHA)
                extra.append(q(-math.log2(pc)))
        ll = defaultdict(int)
        lseen = defaultdict(set)
        lrow = defaultdict(int)
        lcnt = [0] * NLOCAL
        for (a, b), v in lb.items():
            la, lbb = local[a], local[b]
            ll[(la, lbb)] += v
            lseen[la].add(lbb)
            lrow[la] += v
            lcnt[lbb] += v
        ltot = sum(lcnt)
        lp = [(x + 0.5) / (ltot + 0.5 * NLOCAL) for x in lcnt]
        # A language known only from a word list has never seen a comma
        # or a question mark after a letter, which every language's text
        # has: after a letter, a non-letter costs at most what it costs
        # after any letter of any language (times MIX).
        table = []
        for a in range(NLOCAL):
            t = max(1, len(lseen[a]))
            a_letter = any(cls_script_of(c) for c in range(K) if local[c] == a)
            for b in range(NLOCAL):
                p = (ll.get((a, b), 0) + t * lp[b]) / (lrow[a] + t)
                if a_letter and b < len(top) and not cls_script_of(top[b]):
                    p = max(p, MIX * after_letter[top[b]])
                table.append(q(-math.log2(p)))
        lang_local.append(local)
        lang_extra.append(extra)
        lang_bigram.append(table)
    assert len(langs) <= 64
    cs_langs = []
    for name in charset_order() + ["utf-8"]:
        want = CHARSET_LANGS.get(name, " ".join(langs)).split() if name != "utf-8" else langs
        mask = 0
        for l in want:
            if l in langs:
                mask |= 1 << langs.index(l)
        cs_langs.append(mask)

    # Members of each class in the BMP, for the cost of a member.
    members = defaultdict(int)
    entries = {}
    for cp in range(0x10000):
        if 0xD800 <= cp <= 0xDFFF:
            s = sym_id["UNASSIGNED"]
            case = 0
        else:
            ch = chr(cp)
            k = key_of(ch)
            s = sym_of_key(k)
            case = fold(ch)[1]
        entries[cp] = s | (case << 14)
        members[s] += 1
    sym_cost = []
    group_total = defaultdict(float)
    for s, name in enumerate(symbols):
        if s >= K:
            group_total[sym_cls[s]] += sym_count.get(s, 0.0)
    for s, name in enumerate(symbols):
        if s < K:
            if name in CJK_GROUPS or name.startswith("L-") or name in (
                    "C1", "FFFD", "PUA", "UNASSIGNED", "MARK", "SPACE-OTHER",
                    "DIGIT-OTHER", "PUNCT", "SYM-MATH", "SYM-CURRENCY",
                    "SYM-BOX", "SYM-OTHER", "OTHER", "CTRL", "DIGIT"):
                # A rare member: the class's rare share, spread evenly.
                n = max(1, members[s])
                if name in CJK_GROUPS:
                    g = group_total[s] + sym_count.get(s, 0.0)
                    share = (sym_count.get(s, 0.0) + 1.0) / (g + 1.0)
                    sym_cost.append(q(-math.log2(share / n)))
                else:
                    sym_cost.append(q(math.log2(n)))
            else:
                sym_cost.append(0)
        else:
            c = sym_cls[s]
            g = group_total[c] + sym_count.get(c, 0.0)
            sym_cost.append(q(-math.log2((sym_count.get(s, 0.0) + 0.5) / (g + 1.0))))

    # Case: -log2 P(a letter's case | the cases of the two characters
    # before), where "none" is anything but a cased letter, and the case two
    # back counts only after a cased letter (a word's first letter is
    # priced alike whatever came before its space). Two back, because one
    # lower-case letter then capitals ("дАЛМП", KOI8-R's "Дюкло" read as
    # windows-1251) is rare in real text, though both of its steps (a
    # capital after a lower-case letter, as in "iPhone"; a capital after a
    # capital, as in "NASA") are common. The classes are folded, so this
    # is the only place case is priced.
    case_cost = [[[0] * 3 for _ in range(3)] for _ in range(3)]
    after = defaultdict(float)
    for (a2, a, b), v in case_pair.items():
        after[(a2, a)] += v
    for a2 in (0, 1, 2):
        for a in (0, 1, 2):
            if a == 0 and a2 != 0:
                continue
            for b in (1, 2):
                p = (case_pair.get((a2, a, b), 0.0) + 1) / (after[(a2, a)] + 2)
                case_cost[a2][a][b] = min(127, int(round(-math.log2(p) * QUANT)))

    # Script: -log2 P(a letter's script | the script of the letter before).
    script_cost = [[0] * len(SCRIPTS) for _ in SCRIPTS]
    after = defaultdict(float)
    for (a, b), v in script_pair.items():
        after[a] += v
    for a in range(len(SCRIPTS)):
        for b in range(1, len(SCRIPTS)):
            p = (script_pair.get((a, b), 0.0) + 1) / (after[a] + len(SCRIPTS))
            script_cost[a][b] = min(255, int(round(-math.log2(p) * QUANT)))
    cls_script = [letter_script(c) if len(c) == 1 else
                  (SCRIPTS.index(c) if c in CJK_GROUPS else
                   SCRIPTS.index(c[2:]) if c.startswith("L-") else 0)
                  for c in classes]

    # The BMP as pages of 256 entries, identical pages shared.
    pages = []
    page_index = {}
    block = []
    for hi in range(256):
        pg = tuple(entries[(hi << 8) | lo] for lo in range(256))
        if pg not in page_index:
            page_index[pg] = len(pages)
            pages.append(pg)
        block.append(page_index[pg])

    write(outdir, langs, classes, symbols, sym_cls, sym_cost, bigram, case_cost,
          block, pages, sym_id, script_cost, cls_script,
          (lang_local, lang_extra, lang_bigram, cs_langs))


def cname(s):
    if len(s) == 1:
        return "U+%04X" % ord(s)
    return s


def write(outdir, langs, classes, symbols, sym_cls, sym_cost, bigram, case_cost,
          block, pages, sym_id, script_cost, cls_script, per_lang):
    lang_local, lang_extra, lang_bigram, cs_langs = per_lang
    K = len(classes)
    h = []
    h.append("/* core/model_tables.h - generated by tools/gen-model.py; do not edit.\n"
             "** Unicode %s; languages: %s. */\n" % (unicodedata.unidata_version, " ".join(langs)))
    h.append("#ifndef UTF8EXT_MODEL_TABLES_H\n#define UTF8EXT_MODEL_TABLES_H\n#include <stdint.h>\n\n")
    h.append("#define UTF8_MODEL_NCLASS %d\n#define UTF8_MODEL_NSYM %d\n#define UTF8_MODEL_NPAGE %d\n"
             % (K, len(symbols), len(pages)))
    h.append("#define UTF8_MODEL_QUANT %d   /* costs are in 1/QUANT bits */\n" % QUANT)
    h.append("#define UTF8_MODEL_NSCRIPT %d\n#define UTF8_MODEL_SCRIPT_LATIN %d\n"
             % (len(SCRIPTS), SCRIPTS.index("LATIN")))
    h.append("#define UTF8_MODEL_NLANG %d\n#define UTF8_MODEL_NLOCAL %d\n" % (len(langs), NLOCAL))
    for name in ("EDGE", "FFFD", "HAN", "OTHER", "C1", "UNASSIGNED", "PUA"):
        h.append("#define UTF8_MODEL_SYM_%s %d\n" % (name, sym_id[name]))
    h.append("\nextern const uint8_t utf8_model_block[256];\n"
             "extern const uint16_t utf8_model_page[UTF8_MODEL_NPAGE][256];\n"
             "extern const uint16_t utf8_model_sym_class[UTF8_MODEL_NSYM];\n"
             "extern const uint8_t utf8_model_sym_cost[UTF8_MODEL_NSYM];\n"
             "extern const uint8_t utf8_model_bigram[UTF8_MODEL_NCLASS * UTF8_MODEL_NCLASS];\n"
             "extern const uint8_t utf8_model_case[3][3][3];\n"
             "extern const uint8_t utf8_model_class_script[UTF8_MODEL_NCLASS];\n"
             "extern const uint8_t utf8_model_script[UTF8_MODEL_NSCRIPT][UTF8_MODEL_NSCRIPT];\n"
             "extern const char *const utf8_model_lang_name[UTF8_MODEL_NLANG];\n"
             "extern const uint8_t utf8_model_lang_local[UTF8_MODEL_NLANG][UTF8_MODEL_NCLASS];\n"
             "extern const uint8_t utf8_model_lang_extra[UTF8_MODEL_NLANG][UTF8_MODEL_NCLASS];\n"
             "extern const uint8_t utf8_model_lang_bigram[UTF8_MODEL_NLANG][UTF8_MODEL_NLOCAL*UTF8_MODEL_NLOCAL];\n"
             "extern const uint64_t utf8_model_charset_langs[%d];\n" % len(cs_langs) +
             "\n#endif\n")
    with open(os.path.join(outdir, "model_tables.h"), "w") as f:
        f.write("".join(h))

    c = []
    c.append("/* core/model_tables.c - generated by tools/gen-model.py from the corpus of\n"
             "** tools/corpus.py (docs/corpus.md); do not edit. Unicode %s.\n" % unicodedata.unidata_version)
    c.append("** %d classes, %d symbols, %d pages of the BMP. */\n" % (K, len(symbols), len(pages)))
    c.append('#include "model_tables.h"\n\n')
    c.append("/* A symbol's entry: symbol | case << 14 (0 none, 1 lower, 2 upper). */\n")
    c.append("const uint8_t utf8_model_block[256] = {\n")
    c.append(fmt(block, 16))
    c.append("};\n\nconst uint16_t utf8_model_page[UTF8_MODEL_NPAGE][256] = {\n")
    for p in pages:
        c.append("{\n" + fmt(p, 12) + "},\n")
    c.append("};\n\n/* Each symbol's class (classes 0..%d are symbols too). */\n" % (K - 1))
    c.append("const uint16_t utf8_model_sym_class[UTF8_MODEL_NSYM] = {\n")
    c.append(fmt(sym_cls, 12))
    c.append("};\n\n/* -log2 P(symbol | its class), in 1/%d bits. */\n" % QUANT)
    c.append("const uint8_t utf8_model_sym_cost[UTF8_MODEL_NSYM] = {\n")
    c.append(fmt(sym_cost, 16))
    c.append("};\n\n/* -log2 P(class | previous class), in 1/%d bits; row = previous.\n" % QUANT)
    c.append("** Classes: %s */\n" % " ".join(cname(x) for x in classes))
    c.append("const uint8_t utf8_model_bigram[UTF8_MODEL_NCLASS * UTF8_MODEL_NCLASS] = {\n")
    c.append(fmt(bigram, 16))
    c.append("};\n\n/* -log2 P(a letter's case | the cases two back and one back), 1/QUANT\n")
    c.append("** bits: 0 none, 1 lower, 2 upper; two back is 0 unless one back is a letter. */\n")
    c.append("const uint8_t utf8_model_case[3][3][3] = {\n")
    c.append("".join("  {\n" + rows(m).replace("  {", "    {") + "  },\n" for m in case_cost))
    c.append("};\n\n/* Each class's script (0: not a letter): %s. */\n" % " ".join(SCRIPTS))
    c.append("const uint8_t utf8_model_class_script[UTF8_MODEL_NCLASS] = {\n")
    c.append(fmt(cls_script, 16))
    c.append("};\n\n/* -log2 P(a letter's script | script of the letter before), 1/QUANT bits. */\n")
    c.append("const uint8_t utf8_model_script[UTF8_MODEL_NSCRIPT][UTF8_MODEL_NSCRIPT] = {\n")
    c.append(rows(script_cost))
    c.append("};\n")
    c.append("\nconst char *const utf8_model_lang_name[UTF8_MODEL_NLANG] = {\n  %s\n};\n"
             % ", ".join('"%s"' % l for l in langs))
    c.append("\n/* Per language: each class's index in its own table (%d: other). */\n" % (NLOCAL - 1))
    c.append("const uint8_t utf8_model_lang_local[UTF8_MODEL_NLANG][UTF8_MODEL_NCLASS] = {\n")
    for l, row in zip(langs, lang_local):
        c.append("/* %s */ {\n%s},\n" % (l, fmt(row, 24)))
    c.append("};\n\n/* Per language: -log2 P(class | other), 1/QUANT bits, for a class in other. */\n")
    c.append("const uint8_t utf8_model_lang_extra[UTF8_MODEL_NLANG][UTF8_MODEL_NCLASS] = {\n")
    for l, row in zip(langs, lang_extra):
        c.append("/* %s */ {\n%s},\n" % (l, fmt(row, 24)))
    c.append("};\n\n/* Per language: -log2 P(class | previous class) over its own classes. */\n")
    c.append("const uint8_t utf8_model_lang_bigram[UTF8_MODEL_NLANG][UTF8_MODEL_NLOCAL*UTF8_MODEL_NLOCAL] = {\n")
    for l, row in zip(langs, lang_bigram):
        c.append("/* %s */ {\n%s},\n" % (l, fmt(row, 32)))
    c.append("};\n\n/* Per charset (enum utf8_charset order, then UTF-8): its languages, bit i = language i. */\n")
    c.append("const uint64_t utf8_model_charset_langs[%d] = {\n%s};\n" % (len(cs_langs), fmt(["0x%xull" % m for m in cs_langs], 4)))
    with open(os.path.join(outdir, "model_tables.c"), "w") as f:
        f.write("".join(c))


def rows(table):
    """A small 2-D table as C initializer rows."""
    return "".join("  {%s},\n" % ", ".join(str(v) for v in r) for r in table)


def fmt(vals, per):
    out = []
    vals = list(vals)
    for i in range(0, len(vals), per):
        out.append("  " + ",".join(str(v) for v in vals[i:i + per]) + ",\n")
    return "".join(out)


if __name__ == "__main__":
    main()
