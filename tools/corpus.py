#!/usr/bin/env python3
"""Build the text corpus for utf8_guess() from Debian packages.

Usage: python3 tools/corpus.py [OUTDIR]      (default OUTDIR: build/corpus)

Reads tools/corpus-sources.txt (language, package, path glob, kind), fetches
each package with `apt-get download` into OUTDIR/debs (a .deb already there is
reused), unpacks it with `dpkg-deb -x` into OUTDIR/pkgs/<pkg>, turns the
matching files into lines of UTF-8 text and writes

  OUTDIR/train/<lang>.txt   lines whose sha1 mod 5 != 0 (about 4 MB at most)
  OUTDIR/test/<lang>.txt    lines whose sha1 mod 5 == 0 (about 1 MB at most)
  OUTDIR/manifest.txt       what came from where, and what is missing

Standard library only.  The same .deb files give byte-identical output.

Held out, never read: /usr/share/locale, /usr/share/i18n, message catalogues
(*.po, *.mo), glibc locale sources, and the test data of chardet or ftfy.
Only files unpacked from the packages in the list are read, and inside them
no path under a locale/ or i18n/ folder and no .po/.mo/.pot file.
"""

import fnmatch
import glob
import gzip
import hashlib
import html
import os
import random
import re
import shutil
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = os.path.join(HERE, "corpus-sources.txt")

# The languages the guesser wants.  One with no source is listed as missing
# in the manifest.
LANGS = ("de fr es it pt nl sv da nb fi ca is pl cs sk hu sl hr ro ru uk bg "
         "sr be mk el tr he ar lt lv et vi th ja zh_CN zh_TW ko").split()

TRAIN_CAP = 4_000_000
TEST_CAP = 1_000_000
MIN_BYTES, MAX_BYTES = 8, 600
KINDS = ("man", "html", "dic", "text")

# Languages not written in Latin script: a line must have at least this share
# of its letters in the script (unicodedata name prefixes), so that untranslated
# English paragraphs do not count as Russian or Greek.
SCRIPTS = {
    "ru": ("CYRILLIC",), "uk": ("CYRILLIC",), "bg": ("CYRILLIC",),
    "sr": ("CYRILLIC",), "be": ("CYRILLIC",), "mk": ("CYRILLIC",),
    "el": ("GREEK",), "he": ("HEBREW",), "ar": ("ARABIC",), "th": ("THAI",),
    "ja": ("CJK", "HIRAGANA", "KATAKANA"), "zh_CN": ("CJK",),
    "zh_TW": ("CJK",), "ko": ("HANGUL",),
}
SCRIPT_SHARE = 0.3


def is_held_out(relpath):
    """Paths that are never read, even inside a listed package."""
    p = "/" + relpath.lstrip("./")
    if "/locale/" in p or "/i18n/" in p:
        return True
    return p.endswith((".po", ".mo", ".pot", ".gmo"))


# ---------------------------------------------------------------- sources

def read_sources(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 4 or parts[3] not in KINDS:
                sys.exit(f"{path}:{n}: want: LANG PACKAGE GLOB KIND({'|'.join(KINDS)})")
            rows.append(tuple(parts))
    return rows


# ---------------------------------------------------------------- packages

_updated = False


def run(cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def find_deb(debdir, pkg):
    debs = sorted(glob.glob(os.path.join(debdir, glob.escape(pkg) + "_*.deb")))
    if len(debs) > 1:
        print(f"warning: several .deb for {pkg}, using {os.path.basename(debs[-1])}",
              file=sys.stderr)
    return debs[-1] if debs else None


def download(debdir, pkg):
    global _updated
    deb = find_deb(debdir, pkg)
    if deb:
        return deb
    os.makedirs(debdir, exist_ok=True)
    r = run(["apt-get", "download", pkg], cwd=debdir)
    if r.returncode != 0 and not _updated:
        _updated = True
        print("apt-get download failed; running apt-get update once", file=sys.stderr)
        run(["apt-get", "update"])
        r = run(["apt-get", "download", pkg], cwd=debdir)
    deb = find_deb(debdir, pkg)
    if r.returncode != 0 or not deb:
        sys.exit(f"cannot download {pkg}:\n{r.stdout}")
    return deb


def extract(deb, pkgdir):
    stamp = pkgdir + ".stamp"
    name = os.path.basename(deb)
    if os.path.isdir(pkgdir) and os.path.exists(stamp):
        with open(stamp) as f:
            if f.read().strip() == name:
                return
    shutil.rmtree(pkgdir, ignore_errors=True)
    os.makedirs(pkgdir)
    r = run(["dpkg-deb", "-x", deb, pkgdir])
    if r.returncode != 0:
        sys.exit(f"dpkg-deb -x {name} failed:\n{r.stdout}")
    with open(stamp, "w") as f:
        f.write(name + "\n")


def matching_files(pkgdir, pattern):
    """Regular files (not symlinks) under pkgdir whose path matches pattern,
    in sorted order.  The pattern is relative to the package root; * may
    cross /."""
    pattern = pattern.lstrip("/")
    out = []
    for root, dirs, files in os.walk(pkgdir):
        dirs.sort()
        for fn in sorted(files):
            full = os.path.join(root, fn)
            rel = os.path.relpath(full, pkgdir)
            if os.path.islink(full) or not os.path.isfile(full):
                continue
            if is_held_out(rel) or not fnmatch.fnmatchcase(rel, pattern):
                continue
            out.append((rel, full))
    return out


def read_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data


# ---------------------------------------------------------------- text

CJK_GAP = re.compile(r"(?<=[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef])\s+"
                     r"(?=[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef])")
SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|(?<=[。！？])\s*")


def collapse(s):
    s = " ".join(s.split())
    return CJK_GAP.sub("", s)


def split_long(s):
    """Cut a sentence longer than MAX_BYTES at spaces, else at characters."""
    out, cur = [], ""
    for word in re.split(r"(?<= )", s):
        while len(word.encode()) > MAX_BYTES:      # no spaces: CJK
            cut = word[:MAX_BYTES // 4]
            out.append(cut)
            word = word[len(cut):]
        if len((cur + word).encode()) > MAX_BYTES:
            out.append(cur)
            cur = ""
        cur += word
    out.append(cur)
    return [x.strip() for x in out if x.strip()]


def sentences(paragraph):
    """One paragraph of running text -> sentence lines."""
    p = collapse(paragraph)
    if not p:
        return []
    out = []
    for s in SENTENCE_END.split(p):
        s = s.strip()
        if not s:
            continue
        if len(s.encode()) > MAX_BYTES:
            out.extend(split_long(s))
        else:
            out.append(s)
    return out


# ---- man pages (troff)

ACCENTS = {":": "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302",
           "~": "\u0303", ",": "\u0327", "v": "\u030c", "o": "\u030a"}
SPECIAL = {
    "em": "—", "en": "–", "hy": "-", "aq": "'", "dq": '"', "lq": "“", "rq": "”",
    "oq": "‘", "cq": "’", "Bq": "„", "bq": "‚", "Fo": "«", "Fc": "»",
    "fo": "‹", "fc": "›", "bu": "•", "co": "©", "rg": "®", "tm": "™",
    "de": "°", "mu": "×", "di": "÷", "+-": "±", "ss": "ß", "ae": "æ",
    "AE": "Æ", "oe": "œ", "OE": "Œ", "/o": "ø", "/O": "Ø", "12": "½",
    "14": "¼", "34": "¾", "<=": "≤", ">=": "≥", "!=": "≠", "->": "→",
    "<-": "←", "rs": "\\", "ti": "~", "ha": "^", "ga": "`", "ul": "_",
    "sl": "/", "ba": "|", "lB": "[", "rB": "]", "lC": "{", "rC": "}",
    "la": "⟨", "ra": "⟩", "Eu": "€", "eu": "€", "Po": "£", "Ye": "¥",
    "ct": "¢", "sc": "§", "ps": "¶", "r!": "¡", "r?": "¿", "pc": "·",
    "ho": "˛", "-D": "Đ", "Sd": "ð", "TP": "Þ", "Tp": "þ", ".i": "ı",
    "dg": "†", "at": "@", "sh": "#", "Do": "$", "en-dash": "–",
    "em-dash": "—", "char39": "'", "char34": '"',
}


def special(name):
    if name in SPECIAL:
        return SPECIAL[name]
    if len(name) == 2 and name[0] in ACCENTS and name[1].isalpha():
        return unicodedata.normalize("NFC", name[1] + ACCENTS[name[0]])
    m = re.fullmatch(r"u([0-9A-Fa-f]{4,6})(?:_([0-9A-Fa-f]{4,6}))*", name)
    if m:
        try:
            return "".join(chr(int(x, 16)) for x in name[1:].split("_"))
        except ValueError:
            return ""
    return ""


ESCAPE = re.compile(r"""\\(?:
      f(?:\(..|\[[^\]]*\]|.)          # font
    | \((..)                          # \(xx special char        -> group 1
    | \[([^\]]*)\]                    # \[name] special char     -> group 2
    | \*(?:\(..|\[[^\]]*\]|.)         # string
    | [nk](?:\(..|\[[^\]]*\]|.)       # register, mark
    | s[-+]?(?:\d\d?|\(\d\d|\[[^\]]*\]) # size
    | [hvwlLoxbDNXRYZSA]'[^']*'       # quoted-argument escapes
    | (.)                             # any other one char       -> group 3
    )""", re.X)
ONE = {"-": "-", "e": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ",
       ".": ".", "'": "'", "`": "`", "&": "", "%": "", "|": "", "^": "",
       ")": "", "/": "", ",": "", ":": "", "c": "", "z": "", "t": " ",
       "!": "", "{": "", "}": "", "p": "", "r": "", "u": "", "d": "",
       "a": "", "E": ""}


def unescape_troff(s):
    # \" starts a comment (when the backslash is not itself escaped)
    s = re.sub(r'(?<!\\)((?:\\\\)*)\\".*', r"\1", s)

    def rep(m):
        if m.group(1) is not None:
            return special(m.group(1))
        if m.group(2) is not None:
            return special(m.group(2))
        if m.group(3) is not None:
            return ONE.get(m.group(3), "")
        return ""
    return ESCAPE.sub(rep, s)


FONT_MACROS = {"B", "I", "SM", "SB", "BI", "BR", "IB", "IR", "RB", "RI"}
BREAKS = {"PP", "P", "LP", "TP", "TQ", "IP", "HP", "sp", "br", "RS", "RE",
          "SH", "SS", "nf", "fi", "EX", "EE", "in", "ti", "ce", "bp", "ne",
          "UR", "UE", "MT", "ME", "Sh", "Ss", "Pp", "Bl", "El", "It", "Bd", "Ed"}


def macro_args(rest):
    args = re.findall(r'"((?:[^"]|"")*)"|(\S+)', rest)
    return [a.replace('""', '"') if a else b for a, b in args]


def man_paragraphs(text):
    paras, cur = [], []
    skip_until = None
    nofill = False

    def flush():
        if cur:
            paras.append(" ".join(cur))
            cur.clear()

    for raw in text.splitlines():
        line = raw.rstrip()
        if skip_until is not None:
            if line.startswith(skip_until):
                skip_until = None
            continue
        if line.startswith((".", "'")):
            m = re.match(r"[.'][ \t]*([^ \t]*)[ \t]*(.*)", line)
            name, rest = m.group(1), m.group(2)
            if name in ("TS",):
                flush()
                skip_until = ".TE"
            elif name in ("de", "de1", "am", "ig"):
                skip_until = ".."
            elif name in ("EQ",):
                skip_until = ".EN"
            elif name in FONT_MACROS:
                args = macro_args(rest)
                sep = " " if name in ("B", "I", "SM", "SB") else ""
                cur.append(unescape_troff(sep.join(args)))
            elif name in ("SH", "SS"):
                flush()
                paras.append(unescape_troff(" ".join(macro_args(rest))))
            elif name in ("nf", "EX"):
                flush()
                nofill = True
            elif name in ("fi", "EE"):
                flush()
                nofill = False
            elif name in BREAKS:
                flush()
            # every other request or macro: dropped
            continue
        if not line.strip():
            flush()
            continue
        t = unescape_troff(line)
        if nofill:
            flush()
            paras.append(t)
        else:
            joined = raw.rstrip().endswith("\\c")
            if joined and cur:
                cur[-1] += t
            else:
                cur.append(t)
    flush()
    return paras


def decode_man(data, relpath):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    parts = relpath.split("/")
    enc = None
    for d in parts:
        dl = d.lower()
        if "." in dl:
            cand = dl.split(".", 1)[1].replace("euc", "euc_").replace("__", "_")
            for c in (dl.split(".", 1)[1], cand):
                try:
                    "".encode(c)
                    enc = c
                    break
                except LookupError:
                    pass
        if enc:
            break
        if dl.startswith("zh_cn"):
            enc = "gb18030"
        elif dl.startswith("zh_tw") or dl.startswith("zh_hk"):
            enc = "big5"
        elif dl == "ja" or dl.startswith("ja_"):
            enc = "euc_jp"
        elif dl == "ko" or dl.startswith("ko_"):
            enc = "euc_kr"
        if enc:
            break
    if not enc:
        return None
    try:
        return data.decode(enc)
    except UnicodeDecodeError:
        return None


def lines_man(files, stats):
    for rel, full in files:
        text = decode_man(read_bytes(full), rel)
        if text is None:
            stats["skipped_undecodable"] += 1
            continue
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                stats["skipped_undecodable"] += 1
                continue
        for p in man_paragraphs(text):
            yield from sentences(p)


# ---- HTML

# Markup (HTML, DocBook and Mallard XML): these elements are dropped whole
# (code, screens, index terms, comments); the inline ones below are removed and
# their text kept in its sentence; every other tag ends a paragraph.
DROP = ("script|style|pre|screen|programlisting|synopsis|indexterm|remark|"
        "comment|literallayout|cmdsynopsis|funcsynopsis")
INLINE = ("a|b|i|u|s|q|em|strong|code|tt|kbd|samp|var|cite|abbr|acronym|small|"
          "big|sub|sup|font|span|bdi|bdo|mark|wbr|"
          "app|cmd|gui|guiseq|key|keyseq|link|file|sys|input|output|"
          "hi|"
          "guimenu|guimenuitem|guisubmenu|guibutton|guilabel|guiicon|keycap|"
          "keycombo|command|filename|literal|replaceable|emphasis|application|"
          "option|ulink|xref|olink|systemitem|userinput|computeroutput|envar|"
          "quote|firstterm|phrase|citetitle|productname|menuchoice|varname|"
          "parameter|function|type|classname|constant|uri|email|wordasword|"
          "foreignphrase|glossterm|trademark|package|prompt|mousebutton|"
          "shortcut|accel|interface|interfacename|citerefentry|refentrytitle|"
          "manvolnum|property|ahelp|emph|item:inline|switchinline|"
          "caseinline|defaultinline|variable|embedvar|menuitem|keycode")
RE_DROP = re.compile(r"<(%s)\b[^>]*?(?<!/)>.*?</\1\s*>|<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>"
                     % DROP, re.S | re.I)
RE_INLINE = re.compile(r"</?(?:%s)(?:\s[^>]*)?/?>" % INLINE, re.I)
RE_TAG = re.compile(r"<[^>]*>")
RE_CHARSET = re.compile(rb"charset=[\"']?([A-Za-z0-9_.:-]+)", re.I)


def decode_html(data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        m = RE_CHARSET.search(data[:2048])
        if m:
            try:
                return data.decode(m.group(1).decode("ascii"))
            except (LookupError, UnicodeDecodeError):
                return None
    return None


def lines_html(files, stats):
    for rel, full in files:
        text = decode_html(read_bytes(full))
        if text is None:
            stats["skipped_undecodable"] += 1
            continue
        text = RE_DROP.sub(" ", text)
        text = re.sub(r"\s+", " ", text)
        text = RE_INLINE.sub("", text)
        text = RE_TAG.sub("\n", text)
        text = html.unescape(text)
        for p in text.split("\n"):
            # LibreOffice help's debug footer repeats the page title
            if p.lstrip().startswith(("Title is:", "This page is:")):
                continue
            yield from sentences(p)


# ---- hunspell word lists

def aff_encoding(aff):
    if not os.path.exists(aff):
        return "utf-8"
    with open(aff, "rb") as f:
        for raw in f:
            m = re.match(rb"\s*SET\s+(\S+)", raw)
            if m:
                enc = m.group(1).decode("ascii", "replace").lower()
                enc = enc.replace("microsoft-", "")
                enc = {"tis620-2533": "tis-620", "iso8859-1": "iso8859_1"}.get(enc, enc)
                try:
                    "".encode(enc)
                    return enc
                except LookupError:
                    return "utf-8"
    return "utf-8"


def dic_words(path):
    enc = aff_encoding(path[:-4] + ".aff")
    text = read_bytes(path).decode(enc, errors="strict")
    words = set()
    for i, line in enumerate(text.splitlines()):
        if i == 0 and re.fullmatch(r"\s*\d+\s*", line):
            continue
        line = line.split("\t", 1)[0]
        m = re.match(r"((?:\\.|[^/\\])*)", line)
        w = m.group(1).replace("\\/", "/").strip()
        w = w.split(" ", 1)[0]                      # morphological fields
        if w:
            words.add(w)
    return words


def lines_dic(files, stats, lang):
    words = set()
    for rel, full in files:
        try:
            words |= dic_words(full)
        except UnicodeDecodeError:
            stats["skipped_undecodable"] += 1
    words = sorted(unicodedata.normalize("NFC", w) for w in words)
    rng = random.Random("utf8ext-corpus/" + lang)
    rng.shuffle(words)
    i = 0
    while i < len(words):
        n = rng.randint(6, 10)
        yield " ".join(words[i:i + n])
        i += n


# ---- plain text (fortunes and the like)

RE_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def lines_text(files, stats):
    for rel, full in files:
        data = read_bytes(full)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            stats["skipped_undecodable"] += 1
            continue
        text = RE_ANSI.sub("", text.lstrip("\ufeff"))
        para = []
        for line in text.splitlines():
            if not line.strip() or line.strip() in ("%", "%%"):
                if para:
                    yield from sentences(" ".join(para))
                    para = []
            else:
                para.append(line)
        if para:
            yield from sentences(" ".join(para))


# ---------------------------------------------------------------- filter

def script_ok(line, lang):
    letters = [c for c in line if c.isalpha()]
    if not letters:
        return False
    scripts = SCRIPTS.get(lang)
    if scripts is None:
        # Latin script: at least one letter outside ASCII
        return any(not c.isascii() for c in letters)
    n = sum(1 for c in letters if unicodedata.name(c, "").startswith(scripts))
    return n >= SCRIPT_SHARE * len(letters)


# Untranslated English: a line of 6 words or more, 30% of them common English
# words, one of them a word no wanted language has (so Danish "for", German
# "was"/"will", Romanian "are" or Dutch "is" alone do not count).
ENGLISH = set("the of and to is in that for with as on are this be by you your "
              "from or can which an not if will have has use used when it was "
              "were been its into than then there these those their they them "
              "would should could may must".split())
ENGLISH_ONLY = set("the and with that this your you which from have should "
                   "would there".split())


def mostly_english(line):
    words = [w for w in (re.sub(r"[^\w]", "", x.lower()) for x in line.split())
             if w]
    if len(words) < 6:
        return False
    n = sum(1 for w in words if w in ENGLISH)
    return n >= 0.3 * len(words) and any(w in ENGLISH_ONLY for w in words)


def keep(line, lang, stats):
    if line.isascii():
        stats["dropped_ascii"] += 1
        return False
    n = len(line.encode("utf-8"))
    if n < MIN_BYTES or n > MAX_BYTES:
        stats["dropped_length"] += 1
        return False
    good = sum(1 for c in line if c.isalpha() or c == " ")
    if good * 2 < len(line):
        stats["dropped_markup"] += 1
        return False
    if not script_ok(line, lang):
        stats["dropped_script"] += 1
        return False
    if mostly_english(line):
        stats["dropped_english"] += 1
        return False
    return True


def clean(line):
    line = unicodedata.normalize("NFC", line)
    line = "".join(" " if unicodedata.category(c) in ("Cc", "Zs", "Zl", "Zp")
                   else c for c in line)
    return collapse(line)


# ---------------------------------------------------------------- main

def sha(line):
    return hashlib.sha1(line.encode("utf-8")).digest()


def take(lines, cap):
    out, total = [], 0
    for h, line in lines:
        b = len(line.encode("utf-8")) + 1
        if total + b > cap:
            break
        out.append(line)
        total += b
    return out, total


def main(argv):
    outdir = argv[1] if len(argv) > 1 else os.path.join("build", "corpus")
    sources = read_sources(SOURCES)
    debdir = os.path.join(outdir, "debs")
    pkgroot = os.path.join(outdir, "pkgs")

    debs = {}
    for _, pkg, _, _ in sources:
        if pkg not in debs:
            debs[pkg] = download(debdir, pkg)
            extract(debs[pkg], os.path.join(pkgroot, pkg))

    by_lang = {}
    for lang, pkg, pattern, kind in sources:
        by_lang.setdefault(lang, []).append((pkg, pattern, kind))

    for split in ("train", "test"):
        shutil.rmtree(os.path.join(outdir, split), ignore_errors=True)
        os.makedirs(os.path.join(outdir, split))

    manifest = []
    per_source = []
    for lang in sorted(by_lang):
        # prose first; word lists only fill what prose leaves of the caps
        prose, words = {}, {}
        pkgs = []
        stats = {k: 0 for k in ("files", "skipped_undecodable", "dropped_ascii",
                                "dropped_length", "dropped_markup",
                                "dropped_script", "dropped_english")}
        for pkg, pattern, kind in by_lang[lang]:
            files = matching_files(os.path.join(pkgroot, pkg), pattern)
            if not files:
                sys.exit(f"{lang} {pkg} {pattern}: no file matches")
            stats["files"] += len(files)
            if pkg not in pkgs:
                pkgs.append(pkg)
            if kind == "man":
                gen = lines_man(files, stats)
            elif kind == "html":
                gen = lines_html(files, stats)
            elif kind == "text":
                gen = lines_text(files, stats)
            else:
                gen = lines_dic(files, stats, lang)
            dest = words if kind == "dic" else prose
            n = nb = 0
            for raw in gen:
                line = clean(raw)
                if line and line not in prose and line not in words \
                        and keep(line, lang, stats):
                    dest[line] = sha(line)
                    n += 1
                    nb += len(line.encode("utf-8")) + 1
            per_source.append((lang, pkg, pattern, kind, len(files), n, nb))
        result = {}
        for split, cap in (("train", TRAIN_CAP), ("test", TEST_CAP)):
            # sha1 mod 5, of the whole 160-bit number
            def want(h, test=(split == "test")):
                return (int.from_bytes(h, "big") % 5 == 0) == test
            p = sorted((h, l) for l, h in prose.items() if want(h))
            w = sorted((h, l) for l, h in words.items() if want(h))
            lines, nb = take(p, cap)
            wl, wb = take(w, cap - nb)
            lines += wl
            with open(os.path.join(outdir, split, lang + ".txt"), "w",
                      encoding="utf-8", newline="\n") as f:
                for line in lines:
                    f.write(line + "\n")
            result[split] = (len(lines), nb + wb, len(wl),
                             sum(len(l.encode()) + 1 for _, l in p) +
                             sum(len(l.encode()) + 1 for _, l in w))
        manifest.append((lang, pkgs, result, stats))
        tr, te = result["train"], result["test"]
        print(f"{lang:6} train {tr[0]:7} lines {tr[1]:8} B   "
              f"test {te[0]:6} lines {te[1]:8} B", file=sys.stderr)

    with open(os.path.join(outdir, "manifest.txt"), "w", encoding="utf-8",
              newline="\n") as f:
        f.write("# utf8ext corpus: generated by tools/corpus.py from "
                "tools/corpus-sources.txt\n")
        f.write("# lang  train_lines train_bytes  test_lines test_bytes  "
                "(of which word-list lines train/test)  available_bytes "
                "train/test  packages\n")
        for lang, pkgs, r, st in manifest:
            tr, te = r["train"], r["test"]
            f.write(f"{lang:6} {tr[0]:8} {tr[1]:9} {te[0]:7} {te[1]:8}  "
                    f"words {tr[2]}/{te[2]}  avail {tr[3]}/{te[3]}  "
                    f"{','.join(pkgs)}\n")
        f.write("\n# files and lines dropped, per language\n")
        for lang, pkgs, r, st in manifest:
            f.write(f"{lang:6} " + " ".join(f"{k}={v}" for k, v in st.items())
                    + "\n")
        f.write("\n# per source: lang package glob kind files new_lines "
                "new_bytes (after filtering and dedup, before split and caps)\n")
        for row in per_source:
            f.write("%-6s %-26s %-58s %-4s %5d %7d %9d\n" % row)
        f.write("\n# packages (the .deb files read)\n")
        for pkg in sorted(debs):
            f.write(os.path.basename(debs[pkg]) + "\n")
        missing = [l for l in LANGS if l not in by_lang]
        thin = [l for l, _, r, _ in manifest
                if r["train"][1] + r["test"][1] < 200_000]
        f.write("\nmissing: " + (" ".join(missing) or "none") + "\n")
        f.write("thin (under 200 KB in all): " + (" ".join(thin) or "none") + "\n")
        f.write("held out, never read: /usr/share/locale, /usr/share/i18n, "
                "*.po/*.mo catalogues, glibc locale sources, chardet/ftfy test data\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
