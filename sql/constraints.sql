-- sql/constraints.sql - keep ill-formed text out of an existing table.
-- SQLite cannot add a CHECK (utf8_valid(...)) constraint to a table in
-- place (it would take a new table, a copy and a swap:
-- https://sqlite.org/lang_altertable.html, "Making Other Kinds Of Table
-- Schema Changes"), so utf8_guard adds triggers instead: every INSERT and
-- UPDATE that writes ill-formed TEXT into a column is refused, naming the
-- column. Shown for the sample table "imported"; name your own table.
--
--   sqlite3 sample.db -cmd '.load ./utf8ext' '.read sql/constraints.sql'
--
-- The guard checks what is written from now on, not what is there: the
-- script counts the values still ill-formed, which sql/repair.sql repairs
-- (a guarded table can be repaired; utf8_undo refuses it until
-- utf8_unguard('imported') takes the triggers out). Run it again after
-- ALTER TABLE ... ADD COLUMN: the new column is guarded too. Every
-- connection that writes the table needs utf8ext loaded: without it,
-- INSERT and UPDATE fail with "no such function: utf8_valid".
.bail on
SELECT 'columns guarded: ' || utf8_guard('imported');
SELECT 'values still ill-formed: ' || count(*) || ' (sql/repair.sql repairs them)'
  FROM utf8_audit('imported') HAVING count(*) > 0;
.print The table imported now refuses text that is not UTF-8.
