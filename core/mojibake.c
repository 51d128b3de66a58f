/*
** core/mojibake.c - find and undo mojibake: UTF-8 text decoded with the
** wrong charset (Windows-1252, Latin-1 or Windows-1251) and encoded as
** UTF-8 again.
**
** THE DECISION RULE (docs/mojibake.md says the same with examples)
**
** False positives are the enemy: real text must come back unchanged, so
** a reading is undone only where the evidence is strong, and only by an
** exact re-encoding (nothing is ever guessed or dropped).
**
** 1. Fast rejection. A value is looked at only when it has a character
**    U+00C2..U+00F4 (C3 82..C3 B4) followed by one that the misreading
**    makes of a continuation byte (C2 xx, or cp1252's specials: C5, C6,
**    CB, E2 lead bytes), or "Â" and a space; then it must be well-formed.
**    ASCII, Greek, Russian, CJK and clean accented prose stop there.
**    (For cp1251, rule 8: a Cyrillic letter В..ф, cp1251's lead bytes,
**    followed by one whose cp1251 byte is 80-BF.)
** 2. A pass reads characters back to bytes as cp1252, the C1 controls
**    U+0080..U+009F as their own bytes (WHATWG's cp1252 for 81 8D 8F 90
**    9D, Latin-1 for the others: a pass that needs one of those is named
**    latin1, else cp1252). A run is a maximal stretch of non-ASCII
**    characters that all have such a byte.
** 3. A candidate is 2 to 4 characters of a run whose bytes form one
**    well-formed multi-byte UTF-8 sequence that decodes to a plausible
**    character: in the blocks real text uses (Latin-1, Latin Extended-A,
**    Romanian and Vietnamese letters of Extended-B, cp1252's ƒ ˆ ˜, Greek,
**    Cyrillic, Armenian, Hebrew, Arabic, Indic, Thai, Latin and Greek
**    Extended, punctuation, currency, symbols, CJK, kana, Hangul,
**    half/full width, U+FFFD, emoji); never IPA, combining marks, private
**    use, rare scripts, and a C1 control only as a continuation byte of a
**    deeper misreading ("Ã„Â" + U+008D is "Ä" + U+008D is "č"). A result
**    with more C1 controls than the input is thrown away whole.
** 4. Each candidate has a level of evidence:
**      2 (enough alone): 4 characters (ðŸ˜€); 3 characters (â€™, ä¸­)
**        unless they end like a word (rule below); 2 starting with Â or Ã
**        (Ã©, Â°); Ä or Å after a small ASCII letter (dÄ›kuji, liÅŸ);
**        the others not listed below (Ð¸, Îº, Ñƒ, ÐŸ).
**      1 (weak): 3 characters whose 2nd and 3rd are both marks that end
**        a word or cp1252 letters ("rç…»", "blíž”"); 2 whose second is
**        such a mark (Ð», Î±, but also "Ó’"); 2 whose second is Š š Œ œ
**        Ž ž Ÿ after a capital other than Ó Ô Ú Ý.
**      0 (doubtful): an NBSP inside 3 characters (é + NBSP + «); a
**        capital (not Â) then a closing mark ’ ” » › … – — ™ or NBSP,
**        after a capital, at the end of a word ("IRMÃ»", "VIÐ»"); Ó Ô Ú Ý
**        then Š Ž š ž ("ÚŽASNÝ", "Úžasný").
** 5. A run with a level-2 candidate or two level-1 ones is fixed whole.
**    Once one run is fixed so, the value is known to be misread: level-1
**    candidates of other runs are fixed too, and when every non-ASCII
**    character of the value is in a candidate (all misread, no real
**    accented text beside), the level-0 ones and rule 6 too.
** 6. "Â" then a plain space is a non-breaking space (C2 A0 misread as
**    "Â" + NBSP whose NBSP then became a space): fixed when that Â is a
**    run of its own after an ASCII digit or punctuation ("10Â km").
** 7. Every fix shortens the text. Passes repeat (double encodings) while
**    one fixes something, at most UTF8_MOJI_MAX_DEPTH; each pass must be
**    confident on its own. The chain is the passes' charsets.
** 8. Windows-1251, tried only when the cp1252 pass finds nothing. Real
**    Russian, Ukrainian, Bulgarian and Serbian text is made of the very
**    characters this misreading produces, so the rule is stricter and
**    has no levels: a run (of characters with a cp1251 byte) is fixed
**    only when every one of its characters is inside a candidate and it
**    has two candidates at least ("РџСЂРёРІРµС‚"); once one run is, runs
**    of one candidate wholly consumed are fixed too ("РІ" for "в").
*/
#include "mojibake.h"
#include "utf8.h"

#include <string.h>

const char *utf8_moji_name(utf8_moji_charset cs){
  switch( cs ){
    case UTF8_MOJI_CP1252: return "cp1252";
    case UTF8_MOJI_LATIN1: return "latin1";
    case UTF8_MOJI_CP1251: return "cp1251";
    default: return "?";
  }
}

/*
** Rule 1: a candidate starts with a character U+00C2..U+00F4 (C3 82..C3 B4)
** followed by one whose byte is 80-BF: U+0080..U+00BF (C2 xx) or one of
** cp1252's 27 (C5, C6, CB or E2 lead bytes); rule 6 needs C3 82 then a
** space. Text without such a pair, clean accented text too, stops here.
*/
static int possible_1252(const unsigned char *s, size_t n){
  const unsigned char *p = s, *e = s+n;
  while( n>0 && (p = memchr(p, 0xC3, (size_t)(e-p)))!=0 ){
    if( e-p>=3 && p[1]>=0x82 && p[1]<=0xB4 ){
      unsigned b = p[2];
      if( b==0xC2 || b==0xC5 || b==0xC6 || b==0xCB || b==0xE2 ) return 1;
      if( b==' ' && p[1]==0x82 ) return 1;
    }
    p++;
  }
  return 0;
}

/*
** The byte cp is in charset cs, or -1 when cs has no byte for it. The
** cp1252 pass reads the union of cp1252 and latin1: the C1 controls
** U+0080..U+009F are their own bytes (for 81 8D 8F 90 9D that is WHATWG's
** cp1252; for the others only latin1 explains them, and a pass that needs
** one of those is named latin1).
*/
/* Windows-1251 bytes 80-BF as WHATWG maps them (98 is U+0098). */
static const uint16_t cp1251_high[64] = {
  0x0402,0x0403,0x201A,0x0453,0x201E,0x2026,0x2020,0x2021,
  0x20AC,0x2030,0x0409,0x2039,0x040A,0x040C,0x040B,0x040F,
  0x0452,0x2018,0x2019,0x201C,0x201D,0x2022,0x2013,0x2014,
  0x0098,0x2122,0x0459,0x203A,0x045A,0x045C,0x045B,0x045F,
  0x00A0,0x040E,0x045E,0x0408,0x00A4,0x0490,0x00A6,0x00A7,
  0x0401,0x00A9,0x0404,0x00AB,0x00AC,0x00AD,0x00AE,0x0407,
  0x00B0,0x00B1,0x0406,0x0456,0x0491,0x00B5,0x00B6,0x00B7,
  0x0451,0x2116,0x0454,0x00BB,0x0458,0x0405,0x0455,0x0457,
};

static int enc_1251(uint32_t cp){
  int k;
  if( cp>=0x410 && cp<=0x44F ) return (int)(cp-0x410+0xC0);
  for(k=0; k<64; k++) if( cp1251_high[k]==cp ) return 0x80+k;
  return -1;
}

static int enc_byte(utf8_moji_charset cs, uint32_t cp){
  if( cp<0x80 ) return (int)cp;
  if( cs==UTF8_MOJI_CP1251 ) return enc_1251(cp);
  if( cs==UTF8_MOJI_LATIN1 || cp<=0xFF ) return cp<=0xFF ? (int)cp : -1;
  switch( cp ){
    case 0x20AC: return 0x80; case 0x201A: return 0x82; case 0x0192: return 0x83;
    case 0x201E: return 0x84; case 0x2026: return 0x85; case 0x2020: return 0x86;
    case 0x2021: return 0x87; case 0x02C6: return 0x88; case 0x2030: return 0x89;
    case 0x0160: return 0x8A; case 0x2039: return 0x8B; case 0x0152: return 0x8C;
    case 0x017D: return 0x8E; case 0x2018: return 0x91; case 0x2019: return 0x92;
    case 0x201C: return 0x93; case 0x201D: return 0x94; case 0x2022: return 0x95;
    case 0x2013: return 0x96; case 0x2014: return 0x97; case 0x02DC: return 0x98;
    case 0x2122: return 0x99; case 0x0161: return 0x9A; case 0x203A: return 0x9B;
    case 0x0153: return 0x9C; case 0x017E: return 0x9E; case 0x0178: return 0x9F;
  }
  return -1;
}

/* Rule 3: a character real text uses. */
static int plausible(uint32_t d){
  if( d<0xA0 ) return 0;                           /* C1 controls */
  if( d<=0x17F ) return 1;                         /* Latin-1, Extended-A */
  if( d==0x192 || d==0x2C6 || d==0x2DC ) return 1; /* ƒ ˆ ˜: cp1252 has them */
  if( d<=0x24F ){                                  /* Extended-B: a few */
    return (d>=0x218 && d<=0x21B) || d==0x1A0 || d==0x1A1 || d==0x1AF || d==0x1B0;
  }
  if( d<0x370 ) return 0;                          /* IPA, modifiers, combining */
  if( d<=0x6FF ) return 1;                         /* Greek .. Arabic */
  if( d>=0x900 && d<=0xE7F ) return 1;             /* Indic, Thai */
  if( d>=0x1E00 && d<=0x1FFF ) return 1;           /* Latin/Greek additional */
  if( d>=0x2000 && d<=0x27BF ) return d!=0x2028 && d!=0x2029;
  if( d>=0x2B00 && d<=0x2BFF ) return 1;
  if( d>=0x3000 && d<=0x9FFF ) return 1;           /* CJK, kana */
  if( d>=0xAC00 && d<=0xD7A3 ) return 1;           /* Hangul */
  if( d>=0xFF00 && d<=0xFFEF ) return 1;           /* half/full width */
  if( d==0xFFFD ) return 1;
  if( d>=0x1F000 && d<=0x1FAFF ) return 1;         /* emoji */
  if( d>=0x20000 && d<=0x2FFFF ) return 1;         /* CJK extensions */
  return 0;
}

static int is_ascii_alpha(uint32_t c){
  return (c|0x20)>='a' && (c|0x20)<='z';
}
static int is_upper(uint32_t c){
  return (c>='A' && c<='Z') || (c>=0xC0 && c<=0xDE && c!=0xD7)
      || c==0x160 || c==0x152 || c==0x17D || c==0x178;
}
/* ’ ” » › … – — ™: what closes a word (rule 4's "IRMÃ»"). */
static int is_closing(uint32_t c){
  return c==0x2019 || c==0x201D || c==0xBB || c==0x203A || c==0x2026
      || c==0x2013 || c==0x2014 || c==0x2122;
}
/* What real text puts right after a word: the closing marks, NBSP and
** the usual symbols. */
static int after_word(uint32_t c){
  return is_closing(c) || c==0xA0 || c==0xAE || c==0xB0 || c==0xB2
      || c==0xB3 || c==0xB9 || c==0xB7 || c==0x2022 || c==0x2030;
}
/* The letters among cp1252's bytes 80-9F: Š š Œ œ Ž ž Ÿ. */
static int cp1252_letter(uint32_t c){
  return c==0x160 || c==0x161 || c==0x152 || c==0x153 || c==0x17D
      || c==0x17E || c==0x178;
}

typedef struct pass_ctx {
  const unsigned char *s;   /* the text of this pass (may be out itself) */
  size_t n;
  utf8_moji_charset cs;
  int rescue;               /* rule 5's second half: 1 the weak candidates,
                            ** 2 all of them (every character misread) */
  size_t leftover;          /* non-ASCII characters in no candidate */
  unsigned char *out;       /* NULL: only count */
  size_t o;
  uint32_t prev;            /* the source character before the position */
  size_t confident;         /* runs fixed on their own evidence */
  size_t fixes;             /* changes made (or that would be) */
  int latin1;               /* a fix needed a C1 control cp1252 lacks */
} pass_ctx;

/* A candidate at s[i]: its decoded character and where it ends. */
typedef struct cand {
  uint32_t d;
  size_t end;
  uint32_t second;          /* its second source character */
  uint32_t last;            /* its last source character */
  int c1;                   /* it has a C1 control that only latin1 has */
  int level;     /* 2: enough alone; 1: two in a run; 0: only with others */
} cand;

/* After a closing mark at s[j]: does the word end there (no letter
** follows, or the mark is an NBSP or the apostrophe of "’s")? */
static int word_ends(const pass_ctx *x, size_t j, uint32_t mark){
  uint32_t next = j<x->n ? utf8_decode_valid(x->s+j).codepoint : 0;
  if( mark==0xA0 || (mark==0x2019 && next=='s') ) return 1;
  return !is_ascii_alpha(next) && !(next>=0xC0 && next<=0x24F && next!=0xD7 && next!=0xF7);
}

/* Rules 3 and 4 at s[i] in the run that ends at b; prev is the character
** before s[i]; pending how many continuation bytes the characters
** written before it still want (see track()). Returns 1 with *c filled, 0
** when there is no candidate. */
static int candidate(const pass_ctx *x, size_t i, size_t b, uint32_t prev,
                     int pending, cand *c){
  unsigned char buf[4];
  utf8_unit u = utf8_decode_valid(x->s+i);
  int b0 = enc_byte(x->cs, u.codepoint), need, k;
  uint32_t last = 0, second = 0;
  size_t j = i + u.length;
  int c1 = 0;
  utf8_unit v;
  if( b0>=0xC2 && b0<=0xDF ) need = 1;
  else if( b0>=0xE0 && b0<=0xEF ) need = 2;
  else if( b0>=0xF0 && b0<=0xF4 ) need = 3;
  else return 0;
  buf[0] = (unsigned char)b0;
  for(k=1; k<=need; k++){
    int bk;
    if( j>=b ) return 0;
    u = utf8_decode_valid(x->s+j);
    bk = enc_byte(x->cs, u.codepoint);
    if( bk<0x80 || bk>0xBF ) return 0;
    if( u.codepoint<0xA0 && u.codepoint!=0x81 && u.codepoint!=0x8D
     && u.codepoint!=0x8F && u.codepoint!=0x90 && u.codepoint!=0x9D ) c1 = 1;
    buf[k] = (unsigned char)bk;
    if( k==1 ) second = u.codepoint;
    last = u.codepoint;
    j += u.length;
  }
  v = utf8_decode_unit(buf, (size_t)need+1);
  if( v.reason!=UTF8_OK || v.length!=need+1 ) return 0;
  /* A C1 control only as a continuation byte of a deeper misreading,
  ** after a lead character (Ä then U+008D is č misread twice). */
  if( !plausible(v.codepoint) && !(v.codepoint<0xA0 && pending>0) ) return 0;
  c->d = v.codepoint;
  c->end = j;
  c->last = last;
  c->c1 = c1;
  c->second = second;
  if( need==3 ){
    c->level = 2;                        /* ðŸ˜€: no text has ð and three marks */
  }else if( need==2 ){
    /* "rç…" + NBSP, "blíž”", "æœœ": a letter, then what ends a word or
    ** another letter; or an NBSP inside */
    int s2 = after_word(second) || cp1252_letter(second);
    int s3 = after_word(last) || cp1252_letter(last);
    c->level = second==0xA0 || last==0xA0 ? 0 : s2 && s3 ? 1 : 2;
  }else if( b0!=0xC2 && (is_closing(last) || last==0xA0) && is_upper(prev)
            && word_ends(x, j, last) ){
    c->level = 0;                        /* "IRMÃ»", "VIÐ»", "ÑANDÚ»" */
  }else if( b0==0xC2 || b0==0xC3 ){
    c->level = 2;                        /* Ã©, Â° */
  }else if( (b0==0xC4 || b0==0xC5) && prev>='a' && prev<='z' ){
    c->level = 2;                        /* dÄ›kuji, liÅŸ: no capital there */
  }else if( after_word(last) ){
    c->level = 1;                        /* Ð», Î±, and "Ó’" */
  }else if( cp1252_letter(last) && b0!=0xD0 && b0!=0xD1 ){
    /* "ÚŽASNÝ", "Úžasný": Czech and Slovak capitals before Š or Ž; other
    ** capitals are not (Åž is Ş, ×ž is מ, ÐŸ is П) */
    c->level = b0==0xD3 || b0==0xD4 || b0==0xDA || b0==0xDD ? 0 : 1;
  }else{
    c->level = 2;                        /* Ð¸, Îº, Ñƒ */
  }
  return 1;
}

static void emit(pass_ctx *x, const unsigned char *z, size_t len){
  if( x->out ) memmove(x->out + x->o, z, len);
  x->o += len;
}

/* After writing character d: how many continuation bytes the text written
** so far wants, read as bytes of the charset (the next pass's view). */
static int track(const pass_ctx *x, int pending, uint32_t d){
  int b = enc_byte(x->cs, d);
  if( b>=0xC2 && b<=0xDF ) return 1;
  if( b>=0xE0 && b<=0xEF ) return 2;
  if( b>=0xF0 && b<=0xF4 ) return 3;
  if( b>=0x80 && b<=0xBF && pending>0 ) return pending-1;
  return 0;
}

/* Rule 6 for the run s[a..b): its last character is Â with a space after. */
static int nbsp_at_end(const pass_ctx *x, size_t a, size_t b, uint32_t before_run){
  if( b>=x->n || x->s[b]!=' ' || b-a<2 ) return 0;
  if( x->s[b-2]!=0xC3 || x->s[b-1]!=0x82 ) return 0;
  if( x->rescue==2 ) return 1;
  if( b-2!=a ) return 0;
  return before_run>0x20 && before_run<0x7F && !is_ascii_alpha(before_run);
}

/* Rule 5 on the run s[a..b); returns where the caller goes on. */
static size_t do_run(pass_ctx *x, size_t a, size_t b){
  size_t i = a, strong = 0, weak = 0, ncand = 0, end = b, left0 = x->leftover;
  uint32_t prev = x->prev, before_run = x->prev;
  int pending = 0;
  int fix, nbsp;
  cand c;
  while( i<b ){
    if( candidate(x, i, b, prev, pending, &c) ){
      ncand++;
      pending = track(x, pending, c.d);
      if( c.level==2 ) strong++;
      if( c.level==1 ) weak++;
      prev = c.last;
      i = c.end;
    }else{
      utf8_unit u = utf8_decode_valid(x->s+i);
      prev = u.codepoint;
      pending = track(x, pending, u.codepoint);
      i += u.length;
      if( !(i==b && u.codepoint==0xC2 && b<x->n && x->s[b]==' ') ) x->leftover++;
    }
  }
  /* fix 3: every candidate of the run; 1: the weak ones (rescue) */
  fix = strong>0 || weak>=2 ? 3 : 0;
  if( x->cs==UTF8_MOJI_CP1251 ){
    /* rule 8: every character of the run in a candidate, two at least */
    fix = ncand>=2 && x->leftover==left0 ? 3 : 0;
    if( fix ) x->confident++;
    if( !fix && x->rescue && ncand>=1 && x->leftover==left0 ) fix = 3;
    x->leftover = left0;
    nbsp = 0;
    goto decided;
  }
  if( fix ) x->confident++;
  if( !fix && x->rescue==1 && weak>0 ) fix = 1;
  if( x->rescue==2 ) fix = 3;
  if( ncand==0 ) fix = 0;
  nbsp = nbsp_at_end(x, a, b, before_run);
decided:
  if( nbsp ) end = b + 1;
  if( !fix && !nbsp ){
    emit(x, x->s+a, b-a);
    x->prev = prev;
    return b;
  }
  /* Again, writing. out may be s: what is written stays behind i. */
  i = a;
  prev = before_run;
  pending = 0;
  while( i<b ){
    if( nbsp && i==b-2 ){
      static const unsigned char nb[2] = { 0xC2, 0xA0 };
      emit(x, nb, 2);
      x->fixes++;
      prev = 0xA0;
      i = b;
      break;
    }
    if( fix && candidate(x, i, b, prev, pending, &c) && (fix==3 || c.level>=1) ){
      unsigned char enc[4];
      size_t len = utf8_encode_scalar(c.d, enc);
      prev = c.last;
      pending = track(x, pending, c.d);
      emit(x, enc, len);
      x->fixes++;
      if( c.c1 ) x->latin1 = 1;
      i = c.end;
    }else{
      utf8_unit u = utf8_decode_valid(x->s+i);
      prev = u.codepoint;
      pending = track(x, pending, u.codepoint);
      emit(x, x->s+i, u.length);
      i += u.length;
    }
  }
  x->prev = nbsp ? ' ' : prev;
  return end;
}

/*
** Rule 8's filter: a Cyrillic capital В..Я or small а..ф (a cp1251 lead
** byte C2..F4: D0 92..D1 84 in UTF-8) followed by a character whose
** cp1251 byte is 80-BF: D0 80..8F, D1 90..9F, D2 90/91, C2 xx, E2 xx.
*/
static int possible_1251(const unsigned char *s, size_t n){
  size_t i;
  if( n<4 || (!memchr(s, 0xD0, n) && !memchr(s, 0xD1, n)) ) return 0;
  for(i=0; i+3<n; i++){
    unsigned b0 = s[i], b1 = s[i+1], c0 = s[i+2], c1 = s[i+3];
    int lead = (b0==0xD0 && b1>=0x92) || (b0==0xD1 && b1<=0x84);
    if( !lead ) continue;
    if( (c0==0xD0 && c1<=0x8F) || (c0==0xD1 && c1>=0x90) || (c0==0xD2 && (c1==0x90 || c1==0x91))
     || c0==0xC2 || c0==0xE2 ) return 1;
  }
  return 0;
}

int utf8_moji_possible(const unsigned char *s, size_t n){
  return possible_1252(s, n) || possible_1251(s, n);
}

/* One pass of charset cs over x->s. */
static void do_pass(pass_ctx *x){
  size_t p = 0;
  x->o = 0;
  x->prev = 0;
  while( p<x->n ){
    size_t q;
    if( x->s[p]<0x80 ){
      /* the ASCII stretch in one copy */
      q = p+1;
      while( q<x->n && x->s[q]<0x80 ) q++;
      emit(x, x->s+p, q-p);
      x->prev = x->s[q-1];
      p = q;
      continue;
    }
    q = p;
    while( q<x->n && x->s[q]>=0x80 ){
      utf8_unit u = utf8_decode_valid(x->s+q);
      if( enc_byte(x->cs, u.codepoint)<0 ) break;
      q += u.length;
    }
    if( q==p ){
      utf8_unit u = utf8_decode_valid(x->s+p);
      x->leftover++;
      emit(x, x->s+p, u.length);
      x->prev = u.codepoint;
      p += u.length;
      continue;
    }
    p = do_run(x, p, q);
  }
}

/* The C1 controls (C2 80..C2 9F) in s[0..n). */
static size_t count_c1(const unsigned char *s, size_t n){
  size_t k = 0;
  const unsigned char *p = s, *e = s+n;
  while( (p = memchr(p, 0xC2, (size_t)(e-p)))!=0 && p+1<e ){
    if( p[1]<0xA0 ) k++;
    p++;
  }
  return k;
}

int utf8_unmojibake(const unsigned char *s, size_t n, unsigned char *out,
                    size_t *outlen, utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH]){
  int depth = 0;
  const unsigned char *cur = s;
  size_t len = n;
  if( !utf8_moji_possible(s, n) || !utf8_is_valid(s, n) ) return 0;
  while( depth<UTF8_MOJI_MAX_DEPTH && utf8_moji_possible(cur, len) ){
    static const utf8_moji_charset order[2] = { UTF8_MOJI_CP1252, UTF8_MOJI_CP1251 };
    int k, cs, done = 0;
    for(k=0; k<2 && !done; k++){
      cs = order[k];
      if( cs==UTF8_MOJI_CP1252 ? !possible_1252(cur, len) : !possible_1251(cur, len) ) continue;
      pass_ctx x;
      memset(&x, 0, sizeof(x));
      x.s = cur;
      x.n = len;
      x.cs = (utf8_moji_charset)cs;
      do_pass(&x);                      /* count only */
      if( x.fixes==0 ) continue;
      x.rescue = x.confident==0 ? 0 : x.leftover==0 ? 2 : 1;
      x.fixes = 0;
      x.confident = 0;
      x.out = out;
      do_pass(&x);
      chain[depth++] = cs==UTF8_MOJI_CP1252 && x.latin1 ? UTF8_MOJI_LATIN1
                                                   : (utf8_moji_charset)cs;
      cur = out;
      len = x.o;
      done = 1;
    }
    if( !done ) break;
  }
  /* Rule 3 for the whole: no C1 control the input did not have (one
  ** left by a deeper misreading that the next pass could not undo). */
  if( depth && count_c1(out, len)>count_c1(s, n) ) return 0;
  if( depth ) *outlen = len;
  return depth;
}
