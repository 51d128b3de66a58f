/*
** utf8ext_guess.c - utf8_guess(X) and the aggregate utf8_guess_group(X):
** the charset a value (or a group of values) was most likely written in.
** The engine is core/guess.c; docs/guess.md explains the decision.
*/
#include "utf8ext_glue.h"
#include "core/guess.h"
#include "core/utf8.h"

#include <string.h>

/*
** utf8_guess(X): 'utf-8' for well-formed X (and for UTF-8 that was only
** damaged), the canonical name of the charset that best explains an
** ill-formed X, or NULL when no charset wins by the margin. NULL for NULL.
*/
static void guessFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  const unsigned char *z;
  sqlite3_int64 n;
  int rc;
  (void)argc;
  rc = utf8ext_value_bytes(argv[0], &z, &n);
  if( rc<0 ){ sqlite3_result_error_nomem(ctx); return; }
  if( rc==0 ) return;
  rc = utf8_guess(z, (size_t)n);
  if( rc!=UTF8_GUESS_NONE ){
    sqlite3_result_text(ctx, utf8_guess_name(rc), -1, SQLITE_STATIC);
  }
}

/* utf8_guess_group's state: the evidence, and whether any value was seen. */
typedef struct group_state {
  utf8_guess_group g;
  int bSeen;          /* a non-NULL value was added */
} group_state;

static void groupStep(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  group_state *p;
  const unsigned char *z;
  sqlite3_int64 n;
  int rc;
  (void)argc;
  p = sqlite3_aggregate_context(ctx, sizeof(*p));
  if( p==0 ){ sqlite3_result_error_nomem(ctx); return; }
  rc = utf8ext_value_bytes(argv[0], &z, &n);
  if( rc<0 ){ sqlite3_result_error_nomem(ctx); return; }
  if( rc==0 ) return;
  p->bSeen = 1;
  if( !utf8_is_valid(z, (size_t)n) ){
    int32_t score[UTF8_GUESS_N];
    uint64_t hash[UTF8_GUESS_N];
    utf8_guess_score(z, (size_t)n, score, hash);
    utf8_guess_group_add(&p->g, score, hash);
  }
}

/*
** The group's charset: the one that explains its ill-formed values best
** together; 'utf-8' when every value was well-formed; NULL for no values.
*/
static void groupFinal(sqlite3_context *ctx){
  group_state *p = sqlite3_aggregate_context(ctx, 0);
  int cs;
  if( p==0 || !p->bSeen ) return;
  cs = p->g.nValue ? utf8_guess_group_pick(&p->g) : UTF8_GUESS_UTF8;
  if( cs!=UTF8_GUESS_NONE ){
    sqlite3_result_text(ctx, utf8_guess_name(cs), -1, SQLITE_STATIC);
  }
}

int utf8ext_register_guess(sqlite3 *db){
  static const int pure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = sqlite3_create_function(db, "utf8_guess", 1, pure, 0, guessFunc,
                                   0, 0);
  if( rc==SQLITE_OK ){
    rc = sqlite3_create_function(db, "utf8_guess_group", 1, pure, 0, 0,
                                 groupStep, groupFinal);
  }
  return rc;
}
