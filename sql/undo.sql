-- sql/undo.sql - put back every original that utf8_repair logged in the
-- main schema, newest first, each read back byte for byte, and remove
-- exactly those log rows; all or nothing.
--
--   sqlite3 my.db -cmd '.load ./utf8ext' '.read sql/undo.sql'
--
-- A value changed since the repair, or a column that has gained
-- CHECK (utf8_valid(...)), makes utf8_undo refuse: nothing changes and the
-- error says which table, column and row. So does a table guarded by
-- utf8_guard (sql/constraints.sql): SELECT utf8_unguard('imported') first,
-- and utf8_guard('imported') again after.

.bail on
.headers on
.mode column
SELECT utf8_undo() AS "values restored";
