-- sql/repair.sql - repair every ill-formed TEXT value of the main schema
-- (or, with @method 'mojibake', every misread one),
-- keeping every original in utf8_repair_log; all or nothing. A second run
-- finds nothing and changes nothing. sql/undo.sql puts the originals back.
--
--   sqlite3 my.db -cmd '.load ./utf8ext' '.read sql/repair.sql'
--   sqlite3 my.db -cmd '.load ./utf8ext' -cmd '.parameter set @method cp1252' \
--                 '.read sql/repair.sql'
--
-- @method picks the repair: 'fix' (the default: utf8_fix, U+FFFD for each
-- ill-formed unit), 'auto' (each bad value decoded with the charset
-- utf8_guess says it was written in, its column's where that reads it
-- plausibly: what sql/audit.sql's guess columns show; damaged UTF-8 and
-- values no charset explains are mended by utf8_fix; read the audit's
-- guesses first, a short name can fool it) or an encoding of utf8_recode
-- ('cp1252', 'latin1',
-- 'windows-1251', 'shift_jis', ..., 'cesu8', 'mutf8'): the bad bytes are
-- decoded as that encoding. Or 'mojibake': well-formed text that was
-- misread ("CafÃ©") becomes utf8_unmojibake of it ("Café"); ill-formed
-- values are left to the others.
-- utf8_repair (docs/reference.md) refuses, changing nothing, a repair it
-- cannot undo exactly; the error says which table, column and row.

.bail on
.headers on
.mode column --wrap 0
SELECT utf8_repair(NULL, @method) AS "values repaired";

.print
.print Repaired, the first 20 (the log keeps every original: SELECT * FROM utf8_repair_log)
SELECT tbl AS "table", col AS "column", pk, method,
       CASE WHEN length(original) > 16 THEN hex(substr(original, 1, 16)) || '...'
            ELSE hex(original) END AS original,
       CAST(repaired AS TEXT) AS repaired
  FROM utf8_repair_log
 ORDER BY id
 LIMIT 20;
.headers off
.mode list
SELECT printf('... and %d more in utf8_repair_log', count(*) - 20)
  FROM utf8_repair_log HAVING count(*) > 20;
