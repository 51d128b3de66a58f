'use strict';
// test/npm_test.js - the installed utf8ext npm packages, used as a user
// would, from the directory they were installed into (argument 1: the
// version; argument 2, optional: a directory whose node_modules holds a
// built better-sqlite3). Prints "npm (node): N passed, N failed".
const fs = require('fs');
const path = require('path');
let passed = 0, failed = 0;
// keys: compare only these (libsql adds _metadata to a row).
function check(name, got, expected, keys) {
  const g = JSON.stringify(got, keys), e = JSON.stringify(expected, keys);
  if (g === e) passed++;
  else { failed++; console.log(`npm: ${name} FAILED\n  expected: ${e}\n  got:      ${g}`); }
}
const version = process.argv[2];
const utf8ext = require('utf8ext');
const p = utf8ext.getLoadablePath();
check('getLoadablePath inside node_modules', p.startsWith(path.join(process.cwd(), 'node_modules')), true);
check('getLoadablePath exists', fs.existsSync(p), true);
check('typings shipped', fs.existsSync(require.resolve('utf8ext/index.d.ts')), true);
const pkg = JSON.parse(fs.readFileSync(require.resolve('utf8ext/package.json')));
check('license', pkg.license, 'MIT');
check('types field', pkg.types, 'index.d.ts');
const plat = JSON.parse(fs.readFileSync(require.resolve(`utf8ext-${process.platform}-${process.arch}/package.json`)));
check('platform os/cpu', [plat.os, plat.cpu, plat.license], [[process.platform], [process.arch], 'MIT']);

function exercise(name, db) {
  check(`${name}: load returns db`, utf8ext.load(db) === db, true);
  const bad = Buffer.from('caf\xe9', 'latin1');
  check(`${name}: functions`, db.prepare(
    "SELECT utf8_valid(?) AS a, utf8_valid(?) AS b, utf8_fix(?, '?') AS c, utf8ext_version() AS v")
    .get('café', bad, bad), { a: 1, b: 0, c: 'caf?', v: version },
    ['a', 'b', 'c', 'v']);
  db.exec('CREATE TABLE t(name TEXT CHECK (utf8_valid(name)))');
  let err = '';
  // A literal, not a bound Buffer: libsql 0.5.29 panics (statement.rs:396)
  // when a statement with a bound Buffer fails a constraint, any CHECK.
  try { db.exec("INSERT INTO t VALUES (CAST(x'63e9' AS TEXT))"); } catch (e) { err = String(e.message); }
  check(`${name}: CHECK refuses ill-formed text`, /CHECK constraint failed/.test(err), true);
  db.close();
}

const Libsql = require('libsql');
exercise('libsql', new Libsql(':memory:'));
if (process.argv[3]) {
  const Better = require(path.join(process.argv[3], 'node_modules', 'better-sqlite3'));
  exercise('better-sqlite3', new Better(':memory:'));
}
// Reading ill-formed TEXT through libsql: docs/install.md warns that
// libsql 0.5 aborts the whole process on it, and gives two reads that work
// (utf8_fix(col), CAST(col AS BLOB)). Each read runs in a child process, so
// an abort is seen, not suffered; argument 3 is the repository, whose
// docs/install.md must carry the warning for as long as libsql aborts.
const { spawnSync } = require('child_process');
function readInChild(sql) {
  const code = `const u = require('utf8ext'); const L = require('libsql');
    const db = u.load(new L(':memory:'));
    db.exec("CREATE TABLE t(name TEXT); INSERT INTO t VALUES (CAST(x'5A6FEB' AS TEXT))");
    const v = db.prepare(${JSON.stringify(sql)}).get();
    console.log(JSON.stringify([v.n].map(x => Buffer.isBuffer(x) ? x.toString('hex') : x)));`;
  const r = spawnSync(process.execPath, ['-e', code], { cwd: process.cwd(), encoding: 'utf8', timeout: 30000 });
  return { signal: r.signal, status: r.status, out: r.stdout.trim() };
}
const fixed = readInChild('SELECT utf8_fix(name) AS n FROM t');
check('libsql: utf8_fix(col) reads ill-formed text', [fixed.status, fixed.out], [0, '["Zo\ufffd"]']);
const blob = readInChild('SELECT CAST(name AS BLOB) AS n FROM t');
check('libsql: CAST(col AS BLOB) reads ill-formed text', [blob.status, blob.out], [0, '["5a6feb"]']);
const raw = readInChild('SELECT name AS n FROM t');
if (process.argv[4]) {
  const doc = fs.readFileSync(path.join(process.argv[4], 'docs', 'install.md'), 'utf8');
  const warned = /libsql[^]*aborts[^]*utf8_fix\(col\)[^]*CAST\(col AS BLOB\)/.test(doc);
  // libsql aborts (SIGABRT) today; should it stop, the warning can go.
  check('libsql: docs/install.md warns of the abort while libsql aborts',
    raw.signal === 'SIGABRT' || raw.status !== 0 ? warned : true, true);
}
let err = '';
try { utf8ext.load({}); } catch (e) { err = e.constructor.name; }
check('load({}) is a TypeError', err, 'TypeError');
console.log(`npm (node): ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
