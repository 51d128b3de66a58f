-- sql/undo.sql - put back every original that sql/repair.sql logged, newest
-- repair first, and empty the log; in one transaction.
--
--   sqlite3 my.db -cmd '.load ./utf8ext' '.read sql/undo.sql'
--
-- A column that has gained CHECK (utf8_valid(...)) since the repair will
-- refuse its original: the transaction then fails and changes nothing.

.bail on
.headers off
.mode list
.once utf8ext-undo.tmp.sql
SELECT 'BEGIN;'
UNION ALL
SELECT * FROM (
  SELECT printf('UPDATE "main"."%w" SET "%w" = (SELECT CAST(original AS TEXT) FROM utf8_repair_log WHERE id = %d) WHERE %s = %s;',
                l.tbl, l.col, l.id,
                coalesce(
                  (SELECT CASE WHEN count(*) = 1 THEN printf('"%w"', max(name))
                               ELSE '(' || group_concat(printf('"%w"', name), ', ') || ')'
                          END
                     FROM (SELECT name FROM pragma_table_info(l.tbl) WHERE pk > 0 ORDER BY pk)
                   HAVING count(*) > 0),
                  'rowid'),
                l.pk)
    FROM utf8_repair_log AS l ORDER BY l.id DESC)
UNION ALL
SELECT 'DELETE FROM utf8_repair_log;'
UNION ALL
SELECT 'COMMIT;';
.read utf8ext-undo.tmp.sql
.shell rm -f utf8ext-undo.tmp.sql
.print Restored the logged originals; the log is empty.
