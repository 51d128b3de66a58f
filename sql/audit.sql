-- sql/audit.sql - which values of the imported table are not UTF-8, and
-- where in them the bad bytes are.
--
--   sqlite3 sample.db -cmd '.load ./utf8ext' '.read sql/audit.sql'
.headers on
.mode column

-- Every TEXT value, one row per column, so the queries below can treat
-- the columns alike.
DROP VIEW IF EXISTS temp.imported_values;
CREATE TEMP VIEW imported_values(colno, col, id, v) AS
  SELECT 1, 'name', id, name FROM imported UNION ALL
  SELECT 2, 'city', id, city FROM imported UNION ALL
  SELECT 3, 'note', id, note FROM imported;

.print
.print Summary: values checked and values ill-formed, per column
SELECT col,
       count(*) AS checked,
       sum(NOT utf8_valid(v)) AS bad
  FROM temp.imported_values
 GROUP BY colno
 ORDER BY colno;

.print
.print Every ill-formed unit: row, column, byte offset, bytes, reason
SELECT i.id, i.col, u.offset, hex(u.bytes) AS bytes, u.error
  FROM temp.imported_values AS i, utf8_codepoints(i.v) AS u
 WHERE NOT u.valid
 ORDER BY i.id, i.colno, u.offset;

.print
.print The bad values, repaired for reading (U+FFFD marks each bad unit)
SELECT id, col, utf8_error(v) AS first_error, utf8_fix(v) AS repaired
  FROM temp.imported_values
 WHERE NOT utf8_valid(v)
 ORDER BY id, colno;
