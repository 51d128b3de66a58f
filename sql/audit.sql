-- sql/audit.sql - audit every ordinary table of the main schema: how many
-- TEXT values each column has, how many are not well-formed UTF-8 and
-- why, then the worst values with their context.
--
--   sqlite3 my.db -cmd '.load ./utf8ext' '.read sql/audit.sql'
--
-- utf8_audit() finds the bad values. Counting the values checked needs one
-- count(*) per column, and SQL cannot name a table it computes, so the
-- script writes those queries to a scratch file and reads it back (the
-- sqlite3 shell's .once and .read).

CREATE TEMP TABLE IF NOT EXISTS utf8_audit_found AS
  SELECT * FROM utf8_audit(NULL) WHERE 0;
DELETE FROM temp.utf8_audit_found;
INSERT INTO temp.utf8_audit_found SELECT * FROM utf8_audit(NULL);

CREATE TEMP TABLE IF NOT EXISTS utf8_audit_checked(tbl, col, colno, checked);
DELETE FROM temp.utf8_audit_checked;
.headers off
.mode list
.once utf8ext-audit.tmp.sql
SELECT printf('INSERT INTO temp.utf8_audit_checked SELECT %Q, %Q, %d, count(*) FROM "main"."%w" WHERE typeof("%w") = ''text'';',
              t.name, c.name, c.cid, t.name, c.name)
  FROM pragma_table_list AS t, pragma_table_xinfo(t.name) AS c
 WHERE t.schema = 'main' AND t.type = 'table' AND t.name NOT LIKE 'sqlite_%'
   AND t.name <> 'utf8_repair_log'
 ORDER BY t.name, c.cid;
.read utf8ext-audit.tmp.sql
.shell rm -f utf8ext-audit.tmp.sql

.headers on
.mode column
.print
.print Summary: TEXT values checked, ill-formed, and why
SELECT c.tbl AS "table", c.col AS "column", c.checked,
       count(f.tbl) AS bad,
       coalesce(group_concat(DISTINCT f.error), '') AS reasons
  FROM temp.utf8_audit_checked AS c
  LEFT JOIN temp.utf8_audit_found AS f ON f.tbl = c.tbl AND f.col = c.col
 GROUP BY c.tbl, c.col
HAVING c.checked > 0
 ORDER BY c.tbl, c.colno;

.print
.print The worst values: most ill-formed units first
SELECT tbl AS "table", col AS "column", pk, offset, error, hex(bytes) AS bytes,
       errors, context
  FROM temp.utf8_audit_found
 ORDER BY errors DESC, tbl, col, rowid
 LIMIT 20;
