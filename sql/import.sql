-- sql/import.sql - load sql/sample.csv, an export whose encoding nobody
-- checked, into the table "imported", exactly as the sqlite3 shell's
-- .import does it: bytes as they are, no conversion, no validation.
--
--   sqlite3 sample.db '.read sql/import.sql'
DROP TABLE IF EXISTS imported;
CREATE TABLE imported(id INTEGER PRIMARY KEY, name TEXT, city TEXT, note TEXT);
.import --csv --skip 1 sql/sample.csv imported
