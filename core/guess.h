/*
** core/guess.h - which charset a value that is not UTF-8 was written in.
**
** Every candidate charset decodes the value exactly (core/charsets.h); a
** decoder that meets a byte it has no character for rules the charset
** out. The model of real text (core/model.h) says how many bits each
** decoding costs; the cheapest wins when the next cheapest that reads
** differently costs UTF8_GUESS_MARGIN more. UTF-8 that was only damaged
** (cut mid-character, a few stray bytes) is a candidate too: its decoding
** has U+FFFD for each ill-formed unit, each at a price. docs/guess.md
** tells the whole rule.
**
** Plain C, no SQLite, no allocation.
*/
#ifndef UTF8EXT_GUESS_H
#define UTF8EXT_GUESS_H

#include <stddef.h>
#include <stdint.h>
#include "charsets.h"

#define UTF8_GUESS_NONE (-1)               /* not confident */
#define UTF8_GUESS_UTF8 UTF8_CS_COUNT      /* UTF-8, or damaged UTF-8 */
#define UTF8_GUESS_N    (UTF8_CS_COUNT+1)  /* slots in a score array */
#define UTF8_GUESS_OUT  INT32_MAX          /* score of a ruled-out charset */

/*
** Costs are in 1/4 bits. A guess needs the runner-up (the cheapest
** candidate whose text differs) to cost this much more.
*/
#define UTF8_GUESS_MARGIN (5*4)

/*
** The cost of s[0..n) read as each candidate (prior included), in
** score[0..UTF8_GUESS_N); UTF8_GUESS_OUT where a charset is ruled out
** (gbk and latin1 are never candidates: gb18030 and windows-1252 read the
** same text). hash[] gets a fingerprint of each decoding, so that two
** charsets that read s alike can be told from two that differ. Returns
** the index of the cheapest candidate.
*/
int utf8_guess_score(const unsigned char *s, size_t n,
                     int32_t score[UTF8_GUESS_N], uint64_t hash[UTF8_GUESS_N]);

/*
** What the model says text s[0..n) costs, read as UTF-8 in the language
** that suits it best (its ASCII words included), in 1/4 bits: the figure
** utf8_guess_score() gives 'utf-8', without its prior. s should be
** well-formed; only its first 64 KiB are read. The mojibake reading of
** CJK charsets (core/reencode.c) weighs a value against its repair with it.
*/
int32_t utf8_guess_text_cost(const unsigned char *s, size_t n);

/*
** 1 if well-formed text a[0..na) costs more than margin (1/4 bits) less
** than b[0..nb) both in the language that suits a best and in the one
** that suits b best, else 0. One language alone can be misled (a stray
** CJK character costs little as Japanese, whose texts hold ASCII words):
** weighing the whole mojibake readings against the old engine's answers
** with it, test/mojibake.test failed 64 of its cases where the cheapest
** language of each text alone failed 72 (at no margin).
*/
int utf8_guess_text_cheaper(const unsigned char *a, size_t na,
                            const unsigned char *b, size_t nb, int32_t margin);

/*
** The charset s[0..n) was most likely written in: UTF8_GUESS_UTF8 for
** well-formed s (decided by the validator alone) and for damaged UTF-8,
** a utf8_charset, or UTF8_GUESS_NONE when the margin is not there.
*/
int utf8_guess(const unsigned char *s, size_t n);

/* The same decision from utf8_guess_score()'s results. */
int utf8_guess_pick(const int32_t score[UTF8_GUESS_N],
                    const uint64_t hash[UTF8_GUESS_N]);

/* 'utf-8' or the charset's canonical name; NULL for UTF8_GUESS_NONE. */
const char *utf8_guess_name(int guess);

/*
** A group's evidence: add each ill-formed value's scores; the group's
** guess is the candidate that explains the values best together. Each
** value counts at most UTF8_GUESS_CAP against a candidate, so that a few
** values of another kind cannot veto the rest.
*/
#define UTF8_GUESS_CAP (30*4)
typedef struct utf8_guess_group {
  int64_t total[UTF8_GUESS_N];   /* sum of capped costs above each value's best */
  uint64_t same[UTF8_GUESS_N];   /* bit d of same[c]: c and d read every
                                 ** value added so far exactly alike */
  uint64_t nValue;               /* values added */
  uint64_t nPick[UTF8_GUESS_N];  /* values each candidate is the pick of */
} utf8_guess_group;

/* Empty the group (a zeroed utf8_guess_group is empty too). */
void utf8_guess_group_init(utf8_guess_group *g);
void utf8_guess_group_add(utf8_guess_group *g, const int32_t score[UTF8_GUESS_N],
                          const uint64_t hash[UTF8_GUESS_N]);
/* The group's guess, or UTF8_GUESS_NONE when no value was added. */
int utf8_guess_group_pick(const utf8_guess_group *g);

/*
** Every candidate, the one that explains the group best first, into
** order[]; returns how many (0 when no value was added).
*/
int utf8_guess_group_rank(const utf8_guess_group *g, uint8_t order[UTF8_GUESS_N]);

/*
** The reading of one value of the group, the group's evidence weighed in:
** of its readings priced exactly (within UTF8_GUESS_CAP of the cheapest),
** the one whose cost plus its prior in the group is least. Charsets that
** read the value alike are one reading, at the cheapest of their costs;
** its prior is log2 of how rare its picks are among the group's values
** ((values + UTF8_GUESS_N) / (picks of its charsets + 1)): a KOI8-R name
** that its own reading prefers by 2.5 bits stays KOI8-R in a column of
** twice as many windows-1251 values, and a value that macintosh reads 7.5
** bits cheaper stays windows-1252 in a column of 1,000 windows-1252
** values. Of the charsets that read it alike, the one utf8_guess() would
** name. UTF8_GUESS_NONE when none reads it (or the group is empty).
*/
int utf8_guess_group_choose(const utf8_guess_group *g,
                            const int32_t score[UTF8_GUESS_N],
                            const uint64_t hash[UTF8_GUESS_N]);

/*
** True if the value whose scores these are reads plausibly as cs: not
** ruled out, and within UTF8_GUESS_MARGIN of its cheapest reading.
*/
int utf8_guess_plausible(const int32_t score[UTF8_GUESS_N], int cs);

/*
** The same for every charset at once: bit cs set when the value reads
** plausibly as cs (an audit counts, per column, the values each charset
** explains; asking charset by charset would find the cheapest each time).
*/
uint64_t utf8_guess_plausible_set(const int32_t score[UTF8_GUESS_N]);

#endif
