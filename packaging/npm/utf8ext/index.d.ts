/** Any database handle that loads SQLite extensions by path
 *  (better-sqlite3's and libsql's Database both do). */
export interface LoadsExtensions {
  loadExtension(path: string, ...rest: any[]): unknown;
}

/** The absolute path of the utf8ext module for this platform. Throws when
 *  the platform package (utf8ext-<platform>-<arch>) is not installed. */
export declare function getLoadablePath(): string;

/** Load utf8ext into db; returns db. */
export declare function load<T extends LoadsExtensions>(db: T): T;
