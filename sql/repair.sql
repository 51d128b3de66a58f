-- sql/repair.sql - repair the imported table without losing anything:
-- first every bad value's original bytes go into utf8_repair_log, then
-- the value is replaced by utf8_fix(value), all in one transaction.
-- Running it again changes nothing: no ill-formed value is left.
--
--   sqlite3 sample.db -cmd '.load ./utf8ext' '.read sql/repair.sql'
CREATE TABLE IF NOT EXISTS utf8_repair_log(
  id        INTEGER PRIMARY KEY,
  tbl       TEXT NOT NULL,       -- table of the value
  col       TEXT NOT NULL,       -- its column
  pk        TEXT NOT NULL,       -- its row's key, as an SQL literal
  original  BLOB NOT NULL,       -- the bytes as they were
  repaired  TEXT NOT NULL,       -- what they became
  method    TEXT NOT NULL,       -- the function that repaired them
  at        TEXT NOT NULL DEFAULT (datetime('now'))
);

BEGIN;
INSERT INTO utf8_repair_log(tbl, col, pk, original, repaired, method)
  SELECT 'imported', 'name', quote(id), CAST(name AS BLOB), utf8_fix(name), 'utf8_fix'
    FROM imported WHERE NOT utf8_valid(name)
  UNION ALL
  SELECT 'imported', 'city', quote(id), CAST(city AS BLOB), utf8_fix(city), 'utf8_fix'
    FROM imported WHERE NOT utf8_valid(city)
  UNION ALL
  SELECT 'imported', 'note', quote(id), CAST(note AS BLOB), utf8_fix(note), 'utf8_fix'
    FROM imported WHERE NOT utf8_valid(note);
UPDATE imported SET name = utf8_fix(name) WHERE NOT utf8_valid(name);
UPDATE imported SET city = utf8_fix(city) WHERE NOT utf8_valid(city);
UPDATE imported SET note = utf8_fix(note) WHERE NOT utf8_valid(note);
COMMIT;

.headers on
.mode column
.print
.print Repaired: the log keeps every original
SELECT id, tbl, col, pk,
       CASE WHEN length(original) > 16 THEN hex(substr(original, 1, 16)) || '...'
            ELSE hex(original) END AS original,
       repaired
  FROM utf8_repair_log
 ORDER BY id;
