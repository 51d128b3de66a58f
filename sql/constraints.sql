-- sql/constraints.sql - add CHECK (utf8_valid(...)) to an existing table,
-- the SQLite way: SQLite cannot add a constraint to a table in place, so
-- make a new table with the constraints, copy the rows, drop the old one
-- and give the new one its name (https://sqlite.org/lang_altertable.html,
-- "Making Other Kinds Of Table Schema Changes"). Shown for the sample
-- table "imported"; adapt the CREATE TABLE to your own.
--
--   sqlite3 sample.db -cmd '.load ./utf8ext' '.read sql/constraints.sql'
--
-- Run it after sql/repair.sql: a value that is still ill-formed makes the
-- copy fail, and the transaction then changes nothing.
.bail on
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE imported_new(
  id    INTEGER PRIMARY KEY,
  name  TEXT CHECK (utf8_valid(name)),
  city  TEXT CHECK (utf8_valid(city)),
  note  TEXT CHECK (utf8_valid(note))
);
INSERT INTO imported_new(id, name, city, note)
  SELECT id, name, city, note FROM imported;
DROP TABLE imported;
ALTER TABLE imported_new RENAME TO imported;
PRAGMA foreign_key_check;
COMMIT;
PRAGMA foreign_keys = ON;
.print The table imported now refuses text that is not UTF-8.
