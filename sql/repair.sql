-- sql/repair.sql - repair every ill-formed TEXT value of the main schema
-- without losing anything: each value's table, column, key and original
-- bytes go into utf8_repair_log, then the value is repaired, all in one
-- transaction. A second run finds nothing and changes nothing.
--
--   sqlite3 my.db -cmd '.load ./utf8ext' '.read sql/repair.sql'
--   sqlite3 my.db -cmd '.load ./utf8ext' -cmd '.parameter set @method cp1252' \
--                 '.read sql/repair.sql'
--
-- @method picks the repair: 'fix' (the default: utf8_fix, U+FFFD for each
-- ill-formed unit) or 'cp1252' (utf8_recode(col, 'cp1252'): the bad bytes
-- were Windows-1252 or Latin-1 text, decode them as such). sql/undo.sql
-- puts the originals back.
--
-- The statements name tables and columns, so the script writes them to a
-- scratch file and reads it back (the sqlite3 shell's .once and .read);
-- every name in them is quoted.

CREATE TABLE IF NOT EXISTS utf8_repair_log(
  id        INTEGER PRIMARY KEY,
  tbl       TEXT NOT NULL,       -- table of the value
  col       TEXT NOT NULL,       -- its column
  pk        TEXT NOT NULL,       -- its row's key, as an SQL literal
  original  BLOB NOT NULL,       -- the bytes as they were
  repaired  TEXT NOT NULL,       -- what they became
  method    TEXT NOT NULL,       -- 'fix' or 'cp1252'
  at        TEXT NOT NULL DEFAULT (datetime('now'))
);

-- The tables and columns with ill-formed values, and how to spell each
-- table's key as an SQL literal (as utf8_audit's pk column does).
CREATE TEMP TABLE IF NOT EXISTS utf8_repair_target(tbl, col, keyexpr, repair);
DELETE FROM temp.utf8_repair_target;
INSERT INTO temp.utf8_repair_target
  SELECT a.tbl, a.col,
         coalesce(
           (SELECT CASE WHEN count(*) = 1 THEN printf('quote("%w")', max(name))
                        ELSE '''('' || ' || group_concat(printf('quote("%w")', name), ' || '', '' || ') || ' || '')'''
                   END
              FROM (SELECT name FROM pragma_table_info(a.tbl) WHERE pk > 0 ORDER BY pk)
            HAVING count(*) > 0),
           'quote(rowid)'),
         CASE coalesce(@method, 'fix')
           WHEN 'cp1252' THEN printf('utf8_recode("%w", ''cp1252'')', a.col)
           ELSE printf('utf8_fix("%w")', a.col)
         END
    FROM (SELECT DISTINCT tbl, col FROM utf8_audit(NULL) WHERE tbl <> 'utf8_repair_log') AS a;

.bail on
.headers off
.mode list
.once utf8ext-repair.tmp.sql
SELECT 'BEGIN;'
UNION ALL
SELECT * FROM (
  SELECT printf('INSERT INTO utf8_repair_log(tbl, col, pk, original, repaired, method) '
                || 'SELECT %Q, %Q, %s, CAST("%w" AS BLOB), %s, %Q FROM "main"."%w" '
                || 'WHERE typeof("%w") = ''text'' AND NOT utf8_valid("%w");'
                || char(10)
                || 'UPDATE "main"."%w" SET "%w" = %s '
                || 'WHERE typeof("%w") = ''text'' AND NOT utf8_valid("%w");',
                tbl, col, keyexpr, col, repair, CASE coalesce(@method, 'fix') WHEN 'cp1252' THEN 'cp1252' ELSE 'fix' END,
                tbl, col, col, tbl, col, repair, col, col)
    FROM temp.utf8_repair_target ORDER BY tbl, col)
UNION ALL
SELECT 'COMMIT;';
.read utf8ext-repair.tmp.sql
.shell rm -f utf8ext-repair.tmp.sql

.headers on
.mode column
.print
.print Repaired (the log keeps every original)
SELECT tbl AS "table", col AS "column", pk, method,
       CASE WHEN length(original) > 16 THEN hex(substr(original, 1, 16)) || '...'
            ELSE hex(original) END AS original,
       repaired
  FROM utf8_repair_log
 ORDER BY id;
