/*
** core/reencode.h - UTF-8 that was decoded as a CJK charset, put back:
** "浣犲ソ" (the UTF-8 bytes of 你好 read as GBK) gives 你好 again.
** Plain C, no SQLite, no allocation; core/reencode.c tells how it decides.
*/
#ifndef UTF8EXT_REENCODE_H
#define UTF8EXT_REENCODE_H

#include <stddef.h>
#include "charsets.h"

/* Values longer than this are left alone (a whole reading is priced). */
#define CJK_MOJI_MAX (64*1024)

/* How much cheaper, in 1/4 bits, the repair must read than the value. */
#define CJK_MOJI_MARGIN (10*4)

/* The same for a value whose only CJK characters are halfwidth katakana:
** 100 bits. Latin text misread as Shift_JIS is made of them and reads
** back far cheaper; real halfwidth words seldom read as UTF-8 at all,
** and what they read as costs less than the halfwidth text only by a
** little. On an adversarial round's 887 halfwidth words (a helper's,
** outside the tests), the readings taken at margins of 10, 40, 60, 80,
** 85, 90 and 100 bits changed 341, 189, 42, 2, 1, 0 and 0; on
** test/mojibake_eval.py's shift_jis row at seed 7, 98.5% of the misread
** values came back at 60 bits, 95.8% at 80, 89.9% at 90, 86.3% at 100
** (63.2% when they were never read). */
#define HW_MOJI_MARGIN (100*4)
/* The same where an ASCII letter stands right before or after each run
** of halfwidth katakana ("dﾃ｡rselo", "pﾃ･ det": Japanese sets its
** halfwidth words apart from Latin ones). On 42,320 halfwidth words of
** the corpus's katakana glued to ASCII words before, after and on both
** sides (outside the tests), the readings taken at 40, 60, 70 and 80
** bits changed 20, 4, 0 and 0 ("Dataﾂｲ" to "Data²" at 40, "Netﾌｪﾛｰ" at
** 60); test/mojibake_eval.py's shift_jis row came back 97.4%, 97.3%,
** 96.9% and 93.8% (84.2% at 100 bits), 96.9% and 95.4% at 70 bits at
** seeds 7 and 11 (86.3% and 85.0%). */
#define HW_GLUED_MARGIN (70*4)

/* Values shorter than this are not read (the caller's floor, for a
** value as it is stored; a reading's result is read again at any length):
** two characters or one beside ASCII are what a clean short value often
** reads as ("专注" as "רע" under GB18030, "1克" as "1к" under EUC-KR,
** "╔╗" as "ɻ" under IBM437). */
#define MOJI_MIN_BYTES 13

/* A CJK reading of a value of CJK_SHORT_BYTES to MOJI_MIN_BYTES bytes is
** taken when its text costs CJK_SHORT_MARGIN less than the value, not
** CJK_MOJI_MARGIN: Latin, Greek and Cyrillic words misread as Big5 or
** EUC-KR are most often that short ("en 矇vide"). Of 219,557 entries of
** Debian's Korean hunspell dictionary (alone, and glued to ASCII words
** and signs) and 169,726 short pieces of the corpus's Chinese, Japanese
** and Korean lines (outside the tests), the readings changed 103 and 8 at 10
** bits from 4 bytes, 1 at 40 bits from 8 bytes ("킁킁2019") and 0 at 50;
** test/mojibake_eval.py's big5 and euc-kr rows came back 93.4% and 92.5%
** with the floor of 13 bytes, 98.0% and 99.2% at 40 bits, 95.8% and
** 97.7% at 50 (seeds 7 and 11: 90.8 -> 93.9 and 94.1 -> 97.0, 93.3 ->
** 97.9 and 94.6 -> 98.8), none wrong, no clean value changed. */
#define CJK_SHORT_BYTES 8
#define CJK_SHORT_MARGIN (50*4)
/* The margin of such a value where each run of it outside ASCII is one
** character with an ASCII letter right before or right after it
** (utf8_glued_runs): one Latin letter read as Big5 is one CJK character
** glued inside a Latin word ("s疆t filer" for Danish "sæt filer"), which
** CJK text seldom makes. mojibake_eval at 50 -> 45 bits: big5 95.8 ->
** 97.0%, euc-kr 97.7 -> 98.5, gb18030 98.0 -> 98.1 (seeds 7 and 11: big5
** 93.9 -> 95.4 and 97.0 -> 97.7), none wrong, no clean value changed. An
** adversarial round (a helper's, outside the tests: 3.7 million CJK
** pieces glued to corpus words, acronyms and English words) found runs of
** two and more at 40 bits changing 107 ("USB啪啪啪" as "USBžžž"); of one
** character, 13 at 40 bits and 3 at 45 ("Orinta鱉tud", "error찼!"). Of
** 208,426 pieces of 8 to 12 bytes of the training side's Chinese,
** Japanese and Korean lines glued to Latin letters and 219,557 Korean
** dictionary entries none changed ("ftp站点tsx" and "PC철철" did at 20
** bits before runs were limited to one character). */
#define CJK_GLUED_MARGIN (45*4)

/* 0 when s[0..n) cannot be CJK mojibake: it has no CJK character (nor
** a halfwidth or fullwidth form), or no charset of the four encodes it
** into well-formed UTF-8 shorter than itself; else a mask of those that
** do. The cheap test (no model) before the reading. */
int utf8_cjk_mojibake_possible(const unsigned char *s, size_t n);
/* 1 if s[0..n) has a character outside ASCII and each run of such is one
** character with an ASCII letter right before or right after it ("s疆t
** filer"; not "USB啪啪啪": real CJK text glues words of two and more to
** Latin ones); else 0. */
int utf8_glued_runs(const unsigned char *s, size_t n);

/*
** If well-formed s[0..n) reads as UTF-8 text decoded as gb18030,
** shift_jis, big5 or euc-kr, that charset (a utf8_charset), the original
** UTF-8 in out[0..*pnOut) (fewer than n bytes); else -1. scratch needs
** room for 2n + 4 bytes.
*/
int utf8_cjk_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                      size_t *pnOut, unsigned char *scratch);

/*
** The same for UTF-8 read as a single-byte charset: windows-1252,
** latin1, windows-1250, windows-1251, macintosh, windows-1257,
** iso-8859-2 or ibm437 ("cafÃ©", "caf├⌐" for café): every misread
** character of the value at once, so it never leaves some runs undone
** and others not. The caller weighs it against the old engine's answer
** (core/mojibake.h), which judges each run alone: where that answer kept
** part of the value, the whole reading needs SB_MOJI_OVER_OLD over it
** (utf8_guess_text_cheaper), since for short pairs beside a misread half
** ("PÄŤ" in Slovak, "230В" NBSP "5W") the model cannot tell real text
** from mojibake and the old engine's rules can; docs/mojibake.md has the
** figures. utf8_cp437_mojibake is ibm437's reading alone, asked where
** the old engine finds nothing (it does not know ibm437).
*/
#define SB_MOJI_MARGIN (10*4)
#define SB_MOJI_OVER_OLD (60*4)
/* The same for a value that holds a C1 control (U+0080..U+009F), which no
** text does: it is misread for sure, but may hold real text beside the
** misread half. At 0, 10, 20 and 30 bits one of test/mojibake.test's
** values changed its real half ("CASĂ" NBSP "mare" beside Czech misread
** as cp1250, 51.20); at 40 none did, and mojibake_eval's cp1250+C1 row
** at seed 7 came back 99.5% (97.5% at 60 bits). */
#define SB_MOJI_OVER_OLD_C1 (40*4)
/* The same for such a value where what the old engine kept is only runs
** that the whole reading's charset reads (utf8_sb_between): its answer
** is a step on the way to the whole reading, which is taken when the
** model prices it 15 bits lower (Greek "ή", a one-letter word, left as
** "Î®" among undone words): at 0 an adversarial round (a helper's) found
** the real half of a value changed, "NIERZĘŻENIE" in capitals after
** Polish misread as ISO-8859-2 (its "ĘŻ" is ʯ to it; 10.5 bits), and
** mojibake_eval's cp1250+C1 row misread once came back 99.9%, at 15
** 99.8% (99.3% before). Without a C1 control the same test at 20
** bits changed 27 of test/mojibake.test's values ("PÄŤ" beside misread
** Czech; "Café" NBSP "€" as "Caf頀"), the margins of those overlapping
** the eval's partial answers (21-47 bits against 3-60): it is not asked. */
#define SB_MOJI_BETWEEN (15*4)
/* The same for a value the old engine read twice or more by one charset,
** the whole reading as often by it, where the runs left (anywhere) are
** each misread once by that charset ("»ôi" for "și" among Romanian
** misread twice as MacRoman): a value misread twice was misread whole,
** so a piece left a step behind is no real text, and 40 bits do, not
** 60. mojibake_eval twice (default seed): cp1250 98.7 -> 98.9, cp1251
** 99.5 -> 99.8, MacRoman 99.5 -> 99.8, wrong 0.9/0.5/0.5 -> 0.7/0.2/0.2.
** An adversarial round (a helper's: 2.9 million values misread twice
** and three times, 190,235 clean) changed none the old engine had right
** and gave back 827; it loses only a real sign misread one time fewer
** than the words around it ("si fa √π la mano", the sign added to text
** misread once): 209 of 10,503 values built so (406 at 30 bits, 85 at
** 50, where the eval's gains go too). */
#define SB_MOJI_BETWEEN_DEEP (40*4)
/* The same for any value where each run the old engine left is a
** character of three or four bytes (utf8_sb_between_long: "nguá»“n" for
** Vietnamese "nguồn" among undone words, Hangul "Í∞Ä" as MacRoman; real
** text of two characters before misread text, "PÄŤ", is what two-byte
** characters make). At 20 bits test/mojibake.test's 15.5 changed (real
** "é…»" beside misread Czech, cp1250's 酻), at 30 none; mojibake_eval
** then gave back one value more of cp1250, MacRoman and cp1257 once
** each (seed 7: 2 of cp1250, 1 of cp1251, 3 of MacRoman, 4 of cp1257),
** each a wrong answer before; no clean value changed, nor any of the
** false-positive sets. */
#define SB_MOJI_BETWEEN_LONG (30*4)
/* The same for any value where each character the old engine left is
** the value's first or last, and none was misread as letters that each
** have a case (utf8_sb_between_edge: "Ä»aut citiem cilvēkiem" for
** Latvian "Ļaut", "Î® modconf command (από", a value that begins or ends
** there; real text writes capitals: "ĎŠ τι café", test/mojibake.test
** 7.91, and three more of its values change without the letters' rule);
** also where the old engine read the value twice or more by one charset
** and the whole reading as often by it (the character left is then
** misread once: "Ä›" of "ě" misread twice as cp1250). At 10 bits 9 of
** test/mojibake.test's values changed, at 20 four ("Œ± Café", "é…»
** café"), at 30 none. Characters left inside the value are not asked:
** taken there too, an adversarial round (a helper's) found real pieces
** between misread words changed, "√π" (MacRoman's ù) in 2,103 of 2,609
** values, "∆°C" in 707 of 2,701, "≈±5%" in 415 of 2,694, "KYLÄ»" in 60
** of 2,236, for 0.1 to 0.5 points on a few rows. mojibake_eval, default
** seed (seeds 7 and 11), before -> after: cp1250 once 95.7 -> 96.4
** (wrong 0.7 -> 0.0), twice 98.3 -> 98.7; cp1251 once 95.6 -> 95.9 (0.4
** -> 0.1); MacRoman once 98.1 -> 98.7, twice 99.1 -> 99.5; no row worse
** at any seed, no clean value changed. */
#define SB_MOJI_BETWEEN_EDGE (30*4)
/* The same where the whole reading's charset is not the old engine's and
** each run the old engine left holds a character its own charset has no
** byte for (utf8_sb_between_other: Turkish misread as windows-1257, whose
** "Ä±" cp1252 reads back as ı, and whose "Ć§" for ç it cannot, having no
** Ć). At 0 and 20 bits mojibake_eval's cp1257 row misread once came back
** 73.5% -> 74.1% (wrong 1.1% -> 0.5%; seed 7: 74.2 -> 74.9, 1.7 -> 1.0),
** no other row and no value of the false-positive sets changed. */
#define SB_MOJI_BETWEEN_OTHER (20*4)
/* The same where the old engine's answer (one misreading undone) undid
** half a word: a word of it holds a character it undid and one not ASCII
** it kept (utf8_sb_mixed_word: "nyomtatĆĀ³t", "ó" misread twice as
** windows-1257, whose first misreading cp1252 half undoes), which no
** text is; and the whole reading reads the value by the same charset or
** at more depth. At 0 to 20 bits mojibake_eval's cp1257 row misread
** twice came back 64.0% -> 79.5% (wrong 16.8% -> 1.3%), at 40 77.9%.
** A whole reading by another charset at depth 1 changed 13 of 282,248
** words glued to misread signs the old engine gave back ("Hoskovcová"
** "¬µ", its µ misread as MacRoman, read whole as cp1252's "Hoskovcovᬵ"):
** it is asked only where the old engine kept in that word a character its
** charset has no byte for, so cannot have misread ("břĆ­zku": Czech
** misread as windows-1257, "ř" read back by cp1252, which has no Ć), and
** the cp1257 row misread once came back 64.0% -> 64.9% (wrong 2.1% ->
** 1.2%; seed 7 63.1% -> 64.2%), none of those 13 changed. */
#define SB_MOJI_MIXED (20*4)
/* Where nothing else reads a value, how much less than the value the
** text of a single-byte charset's whole reading must cost (and the value
** must be MOJI_MIN_BYTES or more). An adversarial round (a helper's,
** outside the tests: 14 million dictionary words in 15 languages, alone,
** in pairs and glued to typographic marks, character pairs, sentences)
** found readings at 10 bits changing 23,948 values the engine before
** them left alone ("LATVIJĀ" NBSP to "LATVIJ" NBSP as windows-1257,
** NBSP "Öffnungszeiten" to "ʅffnungszeiten" as MacRoman); at 40, 60, 80
** and 100 bits with the floor, 442, 15, 1 and 0 (the one: Latvian
** misread twice, half undone), while mojibake_eval's cp1257 row at seed
** 7 came back 96.3% at 10 bits, 74.4% at 60, 63.1% at 80. */
#define SB_ALONE_MARGIN (80*4)
/* The same for windows-1257 and iso-8859-2, which the old engine does not
** know, on a value with no NBSP (an NBSP is real text that a lead byte
** glues into a letter: "LATVIJĀ" NBSP). Of 8,732,173 values of 13 bytes
** or more made of the hunspell dictionaries of 16 languages (words, in
** capitals, glued to 32 signs and to two of them, in pairs), 379 changed
** at 40 bits (375 a sign µ glued after a letter: "INSPEKTORĖµ" as
** "INSPEKTOR˵"), 40 at 50, 0 at 60 (8 at 60 where the value holds an
** NBSP: "pensininkė" NBSP "µ"; a later adversarial round, a helper's,
** found 1 in 400,000 words with signs put in: "SUPIRKINĖµTOJA" as
** "SUPIRKIN˵TOJA"); mojibake_eval's cp1257 row misread once
** came back 65.0% -> 73.5% (twice 84.4% -> 87.3%), iso-8859-2's 96.5% ->
** 96.7% (twice 84.2% -> 85.0%), none more wrong. */
#define SB_ALONE_MARGIN_UNKNOWN (60*4)
/* The same where each character of the reading's text is of two bytes
** and none was misread as letters that each have a case
** (utf8_sb_misread_uncased: "Ć©s una" for "és una" as windows-1257; the
** 375 values SB_ALONE_MARGIN_UNKNOWN tells of, "INSPEKTORĖµ", are
** misread as cased letters, µ being one). Of the false-positive sets
** (8,732,173 hunspell values glued to signs, 282,248 words glued to
** misread signs, 277,010 earlier adversarial candidates, 823,105 corpus
** lines and their misreadings, ...) none changed at 40 bits but one
** misread value that came back ("Ć„Ā»audis", Latvian misread twice);
** at 30 bits 29 did ("SOKOLOVIĆ„"), and at 40 without the two-byte rule
** 299 ("upravljač³µ" read as a CJK character). An adversarial round (a
** helper's, 11 million values) then found capitals glued to a sign
** changed, "LONCOVIĆ™" to "LONCOVIÙ" (6,772 believable ones, among
** 127,801 misread values given back): a run right after a capital
** letter is not asked, which keeps 94,475 of those and none of these.
** mojibake_eval, default seed (seeds 7 and 11): windows-1257 once 74.1
** -> 84.9 (74.9 -> 86.9, 74.4 -> 86.0), twice 87.3 -> 88.9; ISO-8859-2
** twice 85.1 -> 88.9 (83.7 -> 86.7, 84.2 -> 87.9); none more wrong, no
** clean value. */
#define SB_ALONE_MARGIN_UNCASED (40*4)
/* windows-1250 and iso-8859-2 put a few letters at other bytes, so a
** value both read whole can read back to other text by each ("ĂĽ" is
** "ü" as windows-1250 and "å" as iso-8859-2; "lĂĄ" is "lå" and "lá").
** The old engine knows only windows-1250, and where the two readings are
** too close for utf8_sb_mojibake()'s margin its answer stood. Now the
** text of iso-8859-2's reading (as many times as the old engine read
** windows-1250) replaces it where the model prices it this much lower
** in the language that suits each text best (utf8_guess_text_cheaper:
** priced by their best languages alone, German "fĂĽr den roten Kanal"
** read as Swedish "får den" came out 9.75 bits cheaper than "für"). On
** 2,931 such values misread once (drawn like mojibake_eval's, from the
** corpus's training split, seed 9, 6,000 per row): of the 192
** iso-8859-2 values the old engine did not give back, 32 came back at 10
** bits, 45 at 8, 58 at 6, 65 at 4, and of the 1,068 windows-1250 values
** it gave back 0, 0, 1 and 5 were lost. An adversarial round (a
** helper's: 24 million values misread once and twice) found 20,610
** values given back that were not and 478 lost, 106 of them a capital Ü
** that windows-1250 reads back and iso-8859-2 as ö ("HĂśVELYEZ"), 312
** a fragment that begins with ß ("Ăźt", ü to iso-8859-2): where one
** reading's letter is out of step with the case of its neighbours, the
** other now wins (utf8_sb_case_apart()), and 7 of the 478 came back,
** 2 of the 20,610 were lost; a capital at a word's start ("Üzerine"
** against "özerine", 102 of 46,279 Turkish, Hungarian and German words
** with Ü) is the model's to judge: at 12 bits there, 3,829 of the
** 20,610 were lost. */
#define SB_ISO_OVER_1250 (8*4)
/* Where texts a[0..na) and b[0..nb), read from the same bytes, hold a
** letter of one case against one of the other: 1 where only b's is out
** of step with the letters beside it ("Körper" and "KÜrper": a capital
** after a small letter), -1 where only a's is ("HöVELYEZ" and
** "HÜVELYEZ": a small letter between capitals); else 0 ("özerine" and
** "Üzerine", or no such pair). */
int utf8_sb_case_apart(const unsigned char *a, size_t na,
                       const unsigned char *b, size_t nb);
/* The reading of s[0..n) by single-byte cs alone, without the model:
** its length, the text in scratch[0..) (room for 2*n+4 bytes), or 0
** where cs does not read s back exactly to well-formed text. */
size_t utf8_sb_read_exact(const unsigned char *s, size_t n, utf8_charset cs,
                          unsigned char *scratch);
/* The cheap test of utf8_sb_mojibake(): a mask of the charsets that may
** read s; utf8_sb_mojibake_possible_plain() is the same answer found one
** charset at a time, the reference the tests hold it to. */
int utf8_sb_mojibake_possible(const unsigned char *s, size_t n);
int utf8_sb_mojibake_possible_plain(const unsigned char *s, size_t n);
int utf8_sb_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                     size_t *pnOut, unsigned char *scratch);
/* utf8_sb_mojibake() by single-byte cs alone: cs, or -1. A value one
** reading gave back is read again so (the caller's choice, for a chain of
** one charset: utf8ext_value.c). */
int utf8_sb_mojibake_as(const unsigned char *s, size_t n, utf8_charset cs,
                        unsigned char *out, size_t *pnOut, unsigned char *scratch);
/* 1 if every single-byte charset that reads s[0..n) whole (exactly, into
** text: utf8_sb_mojibake's tests but the model's) makes t[0..nt), or none
** reads it; else 0. No reading of s can then give other text, and the
** model need not be asked. scratch needs room for 2n + 4 bytes. */
int utf8_sb_mojibake_only(const unsigned char *s, size_t n,
                          const unsigned char *t, size_t nt,
                          unsigned char *scratch);
/*
** 1 if o[0..no) is w[0..nw) with at least one of its characters left
** misread as single-byte cs (as the UTF-8 of its bytes read as cs) and at
** least one not ASCII kept: a step on the way from the value that w
** reads to w. The old engine judges each run of a value alone and may
** leave one misread ("Windows Î® WebDAV" beside undone Greek words as
** cp1250). A run left that holds an NBSP is no such step (0): an NBSP is
** real text that a charset's lead byte glues into a letter ("CASĂ" NBSP
** "mare" is "CASàmare" to cp1250).
*/
int utf8_sb_between(const unsigned char *o, size_t no,
                    const unsigned char *w, size_t nw, utf8_charset cs);
/* utf8_sb_between() where every character left misread is of three
** bytes or more. */
int utf8_sb_between_long(const unsigned char *o, size_t no,
                         const unsigned char *w, size_t nw, utf8_charset cs);
/* utf8_sb_between() where each character left is w's first or last,
** and none was misread as letters that each have a case ("ĎŠ" is what
** real text writes). */
int utf8_sb_between_edge(const unsigned char *o, size_t no,
                         const unsigned char *w, size_t nw, utf8_charset cs);
/* 1 if value z[0..n) is text w[0..nw) with every character outside
** ASCII misread by cs, each of two bytes, none misread as letters that
** each have a case, none right after a capital letter, no NBSP made. */
int utf8_sb_misread_uncased(const unsigned char *z, size_t n,
                            const unsigned char *w, size_t nw, utf8_charset cs);
/* utf8_sb_between() where each run left holds a character csOld has no
** byte for: a reader of csOld could not have undone it. */
int utf8_sb_between_other(const unsigned char *o, size_t no,
                          const unsigned char *w, size_t nw, utf8_charset cs,
                          utf8_charset csOld);
/*
** 1 if z[0..n) is t[0..nt) with some characters misread as single-byte
** cs, and one word (between spaces or NBSPs) of t holds both a character
** misread in z and one not ASCII that is not: an answer that undid half
** a word; 2 when such a word keeps a character cs has no byte for; else 0.
*/
int utf8_sb_mixed_word(const unsigned char *z, size_t n,
                       const unsigned char *t, size_t nt, utf8_charset cs);
int utf8_cp437_mojibake_possible(const unsigned char *s, size_t n);
int utf8_cp437_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                        size_t *pnOut, unsigned char *scratch);

#endif
