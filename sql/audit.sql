-- sql/audit.sql - audit every ordinary table of the main schema: per
-- column, how many TEXT values were checked, how many are not well-formed
-- UTF-8 and why, the charset they were most likely written in and how many
-- it explains (what utf8_repair's 'auto' method decodes with it), how many
-- are well-formed mojibake (what its 'mojibake' method would repair); then
-- the worst values with their context and their own guess.
--
--   sqlite3 my.db -cmd '.load ./utf8ext' '.read sql/audit.sql'
--
-- Both queries are utf8ext's own functions (docs/reference.md): each reads
-- every table once; nothing is written, no scratch file is made, so the
-- script runs on a read-only database in a read-only directory.

.headers on
.mode column --wrap 0
.print Summary: TEXT values checked, ill-formed, why, their likely charset; well-formed but mojibake
SELECT tbl AS "table", col AS "column", checked, bad, reasons, first_pk,
       guess, explained, mojibake
  FROM utf8_audit_summary(NULL)
 WHERE checked > 0;

.print
.print The worst values: most ill-formed units first
SELECT tbl AS "table", col AS "column", pk, offset, error, hex(bytes) AS bytes,
       errors, context, guess
  FROM utf8_audit(NULL)
 ORDER BY errors DESC, tbl, rowid, col
 LIMIT 20;
