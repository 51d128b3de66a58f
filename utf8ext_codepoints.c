/*
** utf8ext_codepoints.c - the table-valued function utf8_codepoints(X):
** one row per unit of X, in order, a unit being a character or an
** ill-formed unit (a maximal subpart, see core/utf8.h).
**
**     SELECT offset, length, hex(bytes), codepoint, valid, error
**       FROM utf8_codepoints(x'41E4BDF09F9880C0');
**
**     0|1|41|65|1|
**     1|2|E4BD||0|missing continuation
**     3|4|F09F9880|128512|1|
**     7|1|C0||0|overlong
**
** Concatenating the bytes column in order gives X back exactly.
**
** HOW IT WORKS
**
** utf8_codepoints exists only as a function (an eponymous virtual table
** with no xCreate). Its argument is the hidden column "input"; xFilter
** copies the argument's bytes once (the value is only valid during the
** call) and each xNext steps one unit with utf8_decode_unit(), the same
** segmentation every other function uses.
**
** THE INPUT COLUMN WITHOUT A COPY PER ROW
**
** Every row can return the hidden column input, the whole of X. Returned
** with SQLITE_TRANSIENT, SQLite copied X on every row: quadratic in X.
** SQLITE_STATIC would not copy, but SQLite may keep a static value past
** the next xFilter (an aggregate such as max() keeps the pointer, it
** does not copy a static value), which would then point at freed memory.
** So the copy is reference counted instead: the cursor holds one
** reference, each row's result another, and the result's destructor
** (which SQLite calls exactly once per result, also when it refuses the
** value) drops it. The buffer is freed when the last one goes. A consumer
** that needs a NUL-terminated C string of TEXT (sqlite3_column_text) may
** still copy it; that is SQLite's copy, made only when asked for.
**
** The virtual table's schema:
**
**     CREATE TABLE x(offset, length, bytes, codepoint, char, valid, error,
**                    input HIDDEN)
*/
#include "utf8ext_glue.h"

#include <stdatomic.h>
#include <string.h>

#define CODEPOINTS_COLUMN_OFFSET    0
#define CODEPOINTS_COLUMN_LENGTH    1
#define CODEPOINTS_COLUMN_BYTES     2
#define CODEPOINTS_COLUMN_CODEPOINT 3
#define CODEPOINTS_COLUMN_CHAR      4
#define CODEPOINTS_COLUMN_VALID     5
#define CODEPOINTS_COLUMN_ERROR     6
#define CODEPOINTS_COLUMN_INPUT     7

/*
** The shared copy of X: a reference count, then the bytes and 4 zero bytes
** of padding. The header asks for no more alignment than 8 bytes, which is
** all sqlite3_malloc promises (a max_align_t header was misaligned under
** SQLite's allocator: UBSan in fuzz_sql). Atomic, because SQLite may free
** a result value on whatever thread holds the connection at that time.
*/
typedef union codepoints_buf {
  atomic_size_t refs;
  sqlite3_int64 align;
} codepoints_buf;

/* A new shared buffer for n bytes (plus padding), one reference held. */
static unsigned char *codepointsBufNew(sqlite3_int64 n){
  codepoints_buf *b = sqlite3_malloc64(sizeof(*b) + (sqlite3_uint64)n + 4);
  if( b==0 ) return 0;
  atomic_init(&b->refs, 1);
  return (unsigned char*)(b+1);
}

static void codepointsBufRef(unsigned char *z){
  atomic_fetch_add_explicit(&((codepoints_buf*)z - 1)->refs, 1, memory_order_relaxed);
}

/* Drop one reference; the last one frees. Also the results' destructor. */
static void codepointsBufUnref(void *p){
  codepoints_buf *b;
  if( p==0 ) return;
  b = (codepoints_buf*)p - 1;
  if( atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel)==1 ){
    sqlite3_free(b);
  }
}

typedef struct codepoints_cursor codepoints_cursor;
struct codepoints_cursor {
  sqlite3_vtab_cursor base;  /* Base class - must be first */
  unsigned char *z;          /* copy of the input (codepointsBufNew) */
  sqlite3_int64 n;           /* bytes in z */
  int is_blob;               /* the input was a BLOB (for the input column) */
  sqlite3_int64 offset;      /* where the current unit starts */
  sqlite3_int64 valid_end;   /* z[offset..valid_end) is known well-formed */
  sqlite3_int64 rowid;       /* 1 for the first unit, 2 for the next ... */
  utf8_unit unit;            /* the current unit; length 0 at the end */
};

/*
** xConnect: declare the schema. The function reads only its argument, so
** it is harmless anywhere: SQLITE_VTAB_INNOCUOUS lets it run in views and
** triggers also under PRAGMA trusted_schema=OFF.
*/
static int codepointsConnect(sqlite3 *db, void *pAux, int argc,
                             const char *const *argv, sqlite3_vtab **ppVtab,
                             char **pzErr){
  sqlite3_vtab *pNew;
  int rc;
  (void)pAux; (void)argc; (void)argv; (void)pzErr;
  rc = sqlite3_declare_vtab(db,
      "CREATE TABLE x(offset, length, bytes, codepoint, char, valid, error,"
      " input HIDDEN)");
  if( rc!=SQLITE_OK ) return rc;
  pNew = *ppVtab = sqlite3_malloc(sizeof(*pNew));
  if( pNew==0 ) return SQLITE_NOMEM;
  memset(pNew, 0, sizeof(*pNew));
#ifdef SQLITE_VTAB_INNOCUOUS
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
#endif
  return SQLITE_OK;
}

static int codepointsDisconnect(sqlite3_vtab *pVtab){
  sqlite3_free(pVtab);
  return SQLITE_OK;
}

static int codepointsOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCursor){
  codepoints_cursor *pCur;
  (void)pVtab;
  pCur = sqlite3_malloc(sizeof(*pCur));
  if( pCur==0 ) return SQLITE_NOMEM;
  memset(pCur, 0, sizeof(*pCur));
  *ppCursor = &pCur->base;
  return SQLITE_OK;
}

static int codepointsClose(sqlite3_vtab_cursor *cur){
  codepoints_cursor *pCur = (codepoints_cursor*)cur;
  codepointsBufUnref(pCur->z);
  sqlite3_free(pCur);
  return SQLITE_OK;
}

/*
** Decode the unit at pCur->offset, or mark the end (length 0). The fast
** validator finds how far the text is well-formed; inside that stretch a
** character is decoded without checks, so a row costs a few instructions.
*/
static inline void codepointsDecode(codepoints_cursor *pCur){
  const unsigned char *z = pCur->z + pCur->offset;
  size_t rest = (size_t)(pCur->n - pCur->offset);
  if( pCur->offset>=pCur->n ){
    pCur->unit.length = 0;
    return;
  }
  if( pCur->offset>=pCur->valid_end ){
    pCur->valid_end = pCur->offset + (sqlite3_int64)utf8_find_error(z, rest);
  }
  if( pCur->offset<pCur->valid_end ){
    pCur->unit = utf8_decode_valid_padded(z);   /* z has 4 bytes of padding */
  }else{
    pCur->unit = utf8_decode_unit(z, rest);
  }
}

static int codepointsNext(sqlite3_vtab_cursor *cur){
  codepoints_cursor *pCur = (codepoints_cursor*)cur;
  pCur->offset += pCur->unit.length;
  pCur->rowid++;
  codepointsDecode(pCur);
  return SQLITE_OK;
}

static int codepointsEof(sqlite3_vtab_cursor *cur){
  return ((codepoints_cursor*)cur)->unit.length==0;
}

static int codepointsColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                            int i){
  codepoints_cursor *pCur = (codepoints_cursor*)cur;
  const utf8_unit *u = &pCur->unit;
  const char *zUnit = (const char*)pCur->z + pCur->offset;
  switch( i ){
    case CODEPOINTS_COLUMN_OFFSET:
      sqlite3_result_int64(ctx, pCur->offset);
      break;
    case CODEPOINTS_COLUMN_LENGTH:
      sqlite3_result_int(ctx, u->length);
      break;
    case CODEPOINTS_COLUMN_BYTES:
      sqlite3_result_blob(ctx, zUnit, u->length, SQLITE_TRANSIENT);
      break;
    case CODEPOINTS_COLUMN_CODEPOINT:
      if( u->reason==UTF8_OK ) sqlite3_result_int64(ctx, u->codepoint);
      break;
    case CODEPOINTS_COLUMN_CHAR:
      if( u->reason==UTF8_OK ){
        sqlite3_result_text(ctx, zUnit, u->length, SQLITE_TRANSIENT);
      }
      break;
    case CODEPOINTS_COLUMN_VALID:
      sqlite3_result_int(ctx, u->reason==UTF8_OK);
      break;
    case CODEPOINTS_COLUMN_ERROR:
      if( u->reason!=UTF8_OK ){
        sqlite3_result_text(ctx, utf8_reason_text((utf8_reason)u->reason),
                            -1, SQLITE_STATIC);
      }
      break;
    default: /* CODEPOINTS_COLUMN_INPUT: a reference, not a copy (above) */
      if( pCur->z==0 ) break;   /* no rows then: never reached */
      codepointsBufRef(pCur->z);
      if( pCur->is_blob ){
        sqlite3_result_blob64(ctx, pCur->z, (sqlite3_uint64)pCur->n,
                              codepointsBufUnref);
      }else{
        sqlite3_result_text64(ctx, (const char*)pCur->z,
                              (sqlite3_uint64)pCur->n, codepointsBufUnref,
                              SQLITE_UTF8);
      }
      break;
  }
  return SQLITE_OK;
}

static int codepointsRowid(sqlite3_vtab_cursor *cur, sqlite_int64 *pRowid){
  *pRowid = ((codepoints_cursor*)cur)->rowid;
  return SQLITE_OK;
}

/*
** xFilter: idxNum is 1 when argv[0] is the input (see xBestIndex). A NULL
** input gives no rows.
*/
static int codepointsFilter(sqlite3_vtab_cursor *cur, int idxNum,
                            const char *idxStr, int argc,
                            sqlite3_value **argv){
  codepoints_cursor *pCur = (codepoints_cursor*)cur;
  const unsigned char *z;
  sqlite3_int64 n = 0;
  int rc = 0;
  (void)idxStr;
  codepointsBufUnref(pCur->z);
  pCur->z = 0;
  pCur->n = 0;
  pCur->offset = 0;
  pCur->valid_end = 0;
  pCur->rowid = 1;
  if( idxNum==1 && argc>=1 ){
    rc = utf8ext_value_bytes(argv[0], &z, &n);
    if( rc<0 ) return SQLITE_NOMEM;
    pCur->is_blob = sqlite3_value_type(argv[0])==SQLITE_BLOB;
  }
  if( rc>0 ){
    /* 4 zero bytes of padding for utf8_decode_valid_padded() */
    pCur->z = codepointsBufNew(n);
    if( pCur->z==0 ) return SQLITE_NOMEM;
    memcpy(pCur->z, z, (size_t)n);
    memset(pCur->z + n, 0, 4);
    pCur->n = n;
  }
  codepointsDecode(pCur);
  return SQLITE_OK;
}

/*
** xBestIndex. idxNum bits:
**   1   the input is constrained (argv[0] of xFilter holds it)
** With no constraint on input at all the call is an error that says how
** to call the function; with one that is not usable in this plan,
** SQLITE_CONSTRAINT tells SQLite to look for another plan.
*/
static int codepointsBestIndex(sqlite3_vtab *tab, sqlite3_index_info *pInfo){
  int i, seen = 0, usable = -1;
  for(i=0; i<pInfo->nConstraint; i++){
    const struct sqlite3_index_constraint *c = &pInfo->aConstraint[i];
    if( c->iColumn!=CODEPOINTS_COLUMN_INPUT ) continue;
    if( c->op!=SQLITE_INDEX_CONSTRAINT_EQ ) continue;
    seen = 1;
    if( c->usable ){ usable = i; break; }
  }
  if( usable>=0 ){
    pInfo->aConstraintUsage[usable].argvIndex = 1;
    pInfo->aConstraintUsage[usable].omit = 1;
    pInfo->idxNum = 1;
    pInfo->estimatedCost = 100.0;
    pInfo->estimatedRows = 100;
    /* Rows come in offset order, which is also rowid order. */
    if( pInfo->nOrderBy==1 && !pInfo->aOrderBy[0].desc
     && (pInfo->aOrderBy[0].iColumn==CODEPOINTS_COLUMN_OFFSET
      || pInfo->aOrderBy[0].iColumn<0) ){
      pInfo->orderByConsumed = 1;
    }
    return SQLITE_OK;
  }
  if( seen ) return SQLITE_CONSTRAINT;
  sqlite3_free(tab->zErrMsg);
  tab->zErrMsg = sqlite3_mprintf(
      "utf8_codepoints: missing argument X: call it as utf8_codepoints(X)");
  return tab->zErrMsg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Designated initializers: the struct grows with SQLite versions. */
static sqlite3_module codepointsModule = {
  .iVersion    = 0,
  .xCreate     = 0,                 /* eponymous only: no CREATE VIRTUAL TABLE */
  .xConnect    = codepointsConnect,
  .xBestIndex  = codepointsBestIndex,
  .xDisconnect = codepointsDisconnect,
  .xOpen       = codepointsOpen,
  .xClose      = codepointsClose,
  .xFilter     = codepointsFilter,
  .xNext       = codepointsNext,
  .xEof        = codepointsEof,
  .xColumn     = codepointsColumn,
  .xRowid      = codepointsRowid,
};

int utf8ext_register_codepoints(sqlite3 *db){
  return sqlite3_create_module(db, "utf8_codepoints", &codepointsModule, 0);
}
