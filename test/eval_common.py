"""test/eval_common.py - what the evaluations on the corpus
(test/guess_eval.py, test/mojibake_eval.py) share: the windows of text
they draw from its lines, and the extension opened in Python's sqlite3."""
import argparse
import os
import sqlite3

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def draw_window(rng, line, lens, bucket):
    """A window of line (characters i..j) whose length, by lens (the bytes
    of each character in the encoding the window is for), should fall in
    bucket (lo, hi); None when the line is too short. rng picks the length
    and where the window starts."""
    lo, hi = bucket
    total = sum(lens)
    if total < lo:
        return None
    target = min(rng.randint(lo, hi), total)
    # suffix[i]: bytes from character i to the end.
    suffix = [0] * (len(lens) + 1)
    for i in range(len(lens) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + lens[i]
    starts = [i for i in range(len(lens)) if suffix[i] >= target]
    i = starts[rng.randrange(len(starts))]
    j, n = i, 0
    while j < len(lens) and n < target:
        n += lens[j]
        j += 1
    if n > hi:
        j -= 1
    return line[i:j]


def open_db(lib):
    """An in-memory database with the extension at lib loaded; TEXT comes
    back as bytes, so that ill-formed values are seen as they are."""
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(lib)
    conn.enable_load_extension(False)
    conn.text_factory = bytes
    return conn


def arg_parser(doc, seed):
    """The options every evaluation takes: --corpus, --lib and --seed."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--corpus", default=os.path.join(ROOT, "build", "corpus"))
    ap.add_argument("--lib", default=os.path.join(ROOT, "utf8ext"),
                    help="the extension, as load_extension takes it (default ./utf8ext)")
    ap.add_argument("--seed", type=int, default=seed)
    return ap
