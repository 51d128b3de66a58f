// test/node_test.js - utf8ext from Node.js through better-sqlite3.
//
// Loads the module with Database.loadExtension and checks how values cross
// the binding: a Buffer arrives as a BLOB, a string as TEXT, SQL errors
// become exceptions carrying the message. Run by test/node_test.sh, which
// installs better-sqlite3; UTF8EXT_LIB names the module (default:
// ./utf8ext at the top of the source tree). Prints "node: N passed, N failed".
'use strict';
const path = require('path');
const assert = require('assert');
const Database = require('better-sqlite3');

const ext = process.env.UTF8EXT_LIB || path.join(__dirname, '..', 'utf8ext');
let passed = 0, failed = 0;

function check(name, got, expected) {
  try {
    assert.deepStrictEqual(got, expected);
    passed++;
  } catch (e) {
    failed++;
    console.log(`${name} FAILED\n  expected: ${JSON.stringify(expected)}\n  got:      ${JSON.stringify(got)}`);
  }
}

function errorOf(fn) {
  try { fn(); } catch (e) { return e.message; }
  return null;
}

const db = new Database(':memory:');
db.loadExtension(ext);
const one = (sql, ...p) => db.prepare(sql).raw().get(...p);
const bad = Buffer.from('caf\xe9', 'latin1');

check('valid', one('SELECT utf8_valid(?), utf8_valid(?), utf8_valid(?)', 'café', bad, null), [1, 0, null]);
check('fix', one("SELECT utf8_fix(?), utf8_fix(?, '?'), utf8_fix(?, '?', 'run')",
                 bad, bad, Buffer.from([0x61, 0x80, 0x80, 0x62])), ['caf\ufffd', 'caf?', 'a?b']);
const raw = Buffer.from('61F18080E180C262806380BF64', 'hex');
// Node's own decoder (WHATWG) cuts ill-formed input the same way.
check('fix-matches-node', one('SELECT utf8_fix(?)', raw)[0], raw.toString('utf8'));
check('length', one('SELECT utf8_length(?)', raw), [10]);
check('error', one('SELECT utf8_error_offset(?), utf8_error(?)', Buffer.from('41E4BD', 'hex'),
                   Buffer.from('41E4BD', 'hex')), [1, 'truncated at byte 1: E4BD']);
check('check', one('SELECT utf8_check(?)', Buffer.from('41', 'hex')), [Buffer.from('A')]);
check('check-bad', errorOf(() => one('SELECT utf8_check(?)', Buffer.from('41E4BD', 'hex'))),
      'utf8_check: truncated at byte 1: E4BD');
check('encode', one('SELECT utf8_encode(72, 105, 128512)'), ['Hi\u{1F600}']);
// better-sqlite3 binds a JS number as REAL, which utf8_encode refuses as
// strictly as SQL's 65.0: code points go in as BigInt (bound as INTEGER).
check('encode-bigint', one('SELECT utf8_encode(?, ?)', 72n, 0x1F600n), ['H\u{1F600}']);
check('encode-number', errorOf(() => one('SELECT utf8_encode(?)', 72)),
      "utf8_encode: argument 1 is not an integer: '72.0'");
check('encode-bad', errorOf(() => one('SELECT utf8_encode(?)', 0xD800n)),
      'utf8_encode: argument 1 is a surrogate: 0xD800');
check('recode', one("SELECT utf8_recode(?, 'cp1252')", Buffer.from([0x93, 0x68, 0x69, 0x94])), ['\u201chi\u201d']);
check('version', /^\d+\.\d+\.\d+$/.test(one('SELECT utf8ext_version()')[0]), true);
check('impl', ['scalar', 'sse4', 'avx2', 'avx512', 'neon'].includes(one('SELECT utf8ext_impl()')[0]), true);
check('codepoints', db.prepare('SELECT offset, length, codepoint, valid, error FROM utf8_codepoints(?)')
      .raw().all(Buffer.from('41E4BDC0', 'hex')),
      [[0, 1, 65, 1, null], [1, 2, null, 0, 'missing continuation'], [3, 1, null, 0, 'overlong']]);

db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT CHECK (utf8_valid(name)))");
check('constraint', errorOf(() => db.prepare('INSERT INTO t VALUES (1, CAST(? AS TEXT))').run(bad)),
      'CHECK constraint failed: utf8_valid(name)');
db.exec('CREATE TABLE imported(id INTEGER PRIMARY KEY, name TEXT)');
db.prepare('INSERT INTO imported VALUES (?, CAST(? AS TEXT))').run(1, bad);
check('audit', db.prepare("SELECT tbl, col, pk, error FROM utf8_audit('imported')").raw().all(),
      [['imported', 'name', '1', 'truncated']]);
const hexBefore = db.prepare('SELECT hex(name) FROM imported').raw().all();
check('repair', one("SELECT utf8_repair('imported')"), [1]);
check('repaired', one('SELECT hex(name) FROM imported'), ['636166EFBFBD']);
check('undo', one('SELECT utf8_undo()'), [1]);
check('undo-exact', db.prepare('SELECT hex(name) FROM imported').raw().all(), hexBefore);
check('sqlite', typeof one('SELECT sqlite_version()')[0], 'string');
db.close();

console.log(`node: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
