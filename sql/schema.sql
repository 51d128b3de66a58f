-- sql/schema.sql - tables that keep ill-formed text out.
--
-- A CHECK constraint runs on every INSERT and UPDATE. utf8_valid() is
-- deterministic and innocuous, so the schema also works with
-- PRAGMA trusted_schema=OFF, and in indexes and generated columns.
-- Like every CHECK, it lets NULL through: add NOT NULL where NULL is wrong.
--
--   sqlite3 my.db -cmd '.load ./utf8ext' '.read sql/schema.sql'
CREATE TABLE IF NOT EXISTS person(
  id    INTEGER PRIMARY KEY,
  name  TEXT NOT NULL CHECK (utf8_valid(name)),
  city  TEXT CHECK (utf8_valid(city)),
  note  TEXT CHECK (utf8_valid(note))
);

-- The first bad byte of a value, for finding it again later.
CREATE TABLE IF NOT EXISTS import_error(
  id      INTEGER PRIMARY KEY,
  value   BLOB NOT NULL,
  problem TEXT GENERATED ALWAYS AS (utf8_error(value)) VIRTUAL
);
