/*
** tools/cluster_preload.c - utf8ext in every connection of a process that
** uses the system libsqlite3, by LD_PRELOAD: the cluster demo preloads it
** into each dqlite node (dqlite-demo from Debian's go-dqlite), so the
** connections dqlite opens to run statements on the leader have utf8ext.
** Built with the extension's sources and -DSQLITE_CORE (make cluster-demo).
**
** Registration waits for the first sqlite3_open_v2(): go-dqlite calls
** sqlite3_config() at start-up, which fails once SQLite is initialized,
** and sqlite3_auto_extension() initializes it. So this library interposes
** sqlite3_open_v2, registers utf8ext, and calls the real one.
**
** It also ignores SIGPIPE: a dqlite node writes to client sockets from a
** C thread, and a client that gives up during an election would otherwise
** end the node.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <sqlite3.h>
#include "utf8ext.h"

__attribute__((constructor)) static void utf8ext_preload(void){
  signal(SIGPIPE, SIG_IGN);
}

typedef int (*open_fn)(const char*, sqlite3**, int, const char*);

__attribute__((visibility("default")))
int sqlite3_open_v2(const char *zFile, sqlite3 **pDb, int flags, const char *zVfs){
  static open_fn real = 0;
  if( real==0 ){
    real = (open_fn)dlsym(RTLD_NEXT, "sqlite3_open_v2");
    if( real==0 ) return SQLITE_ERROR;
  }
  /* Registering twice is a no-op; the list is SQLite's, behind its mutex. */
  sqlite3_auto_extension((void(*)(void))sqlite3_utf8ext_init);
  return real(zFile, pDb, flags, zVfs);
}
