-- sql/audit.sql - audit every ordinary table of the main schema: per
-- column, how many TEXT values were checked, how many are not well-formed
-- UTF-8 and why, how many are well-formed mojibake (what utf8_repair's
-- 'mojibake' method would repair); then the worst values with their context.
--
--   sqlite3 my.db -cmd '.load ./utf8ext' '.read sql/audit.sql'
--
-- Both queries are utf8ext's own functions (docs/reference.md): each reads
-- every table once; nothing is written, no scratch file is made, so the
-- script runs on a read-only database in a read-only directory.

.headers on
.mode column --wrap 0
.print Summary: TEXT values checked, ill-formed, and why; well-formed but mojibake
SELECT tbl AS "table", col AS "column", checked, bad, reasons, first_pk, mojibake
  FROM utf8_audit_summary(NULL)
 WHERE checked > 0;

.print
.print The worst values: most ill-formed units first
SELECT tbl AS "table", col AS "column", pk, offset, error, hex(bytes) AS bytes,
       errors, context
  FROM utf8_audit(NULL)
 ORDER BY errors DESC, tbl, rowid, col
 LIMIT 20;
