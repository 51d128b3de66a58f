/*
** utf8ext.h - the entry points of the utf8ext SQLite extension, for
** programs that link it statically:
**
**     #include "utf8ext.h"
**     sqlite3_auto_extension((void(*)(void))sqlite3_utf8ext_init);
**
** UTF8EXT_VERSION is the one place the version is written.
*/
#ifndef UTF8EXT_H
#define UTF8EXT_H

#define UTF8EXT_VERSION "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

struct sqlite3;
struct sqlite3_api_routines;

/*
** Register every function and module of utf8ext on db. The first name is
** the one SQLite derives from the file name utf8ext.so (letters only), so
** that ".load ./utf8ext" needs no entry-point argument.
*/
int sqlite3_utfext_init(struct sqlite3 *db, char **pzErrMsg,
                        const struct sqlite3_api_routines *pApi);
int sqlite3_utf8ext_init(struct sqlite3 *db, char **pzErrMsg,
                         const struct sqlite3_api_routines *pApi);

#ifdef __cplusplus
}
#endif

#endif /* UTF8EXT_H */
