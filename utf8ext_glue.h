/*
** utf8ext_glue.h - what the SQLite glue files share: the extension API
** pointer, reading an argument's bytes as SPEC says, and the registration
** functions of the table-valued functions. Only glue includes this; core/
** knows nothing of SQLite.
*/
#ifndef UTF8EXT_GLUE_H
#define UTF8EXT_GLUE_H

/*
** SQLITE_EXTENSION_INIT1 defines a global named sqlite3_api. Every loadable
** extension has one, so two extensions linked statically into one program
** would clash: ours gets a name of its own.
*/
#define sqlite3_api utf8ext_sqlite3_api
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "utf8.h"

/*
** SQLITE_INNOCUOUS arrived in SQLite 3.31, SQLITE_DIRECTONLY in 3.30 and
** the sqlite3_vtab_config() options later: older headers build without them.
*/
#ifndef SQLITE_INNOCUOUS
# define SQLITE_INNOCUOUS 0
#endif
#ifndef SQLITE_DIRECTONLY
# define SQLITE_DIRECTONLY 0
#endif

/*
** The bytes of v as every function judges them: a BLOB's own bytes, the
** stored bytes of TEXT, the text form of a number. Returns 1 and sets *pz
** and *pn, or 0 for NULL. On an allocation failure it returns -1.
** An empty value gives a non-NULL pointer and length 0.
*/
int utf8ext_value_bytes(sqlite3_value *v, const unsigned char **pz,
                        sqlite3_int64 *pn);

/* Register the table-valued functions (utf8ext_codepoints.c, utf8ext_audit.c). */
int utf8ext_register_codepoints(sqlite3 *db);
int utf8ext_register_audit(sqlite3 *db);

#endif /* UTF8EXT_GLUE_H */
