'use strict';
// utf8ext for Node.js: the path of the prebuilt SQLite module, which comes
// in a per-platform package (utf8ext-<platform>-<arch>, an optional
// dependency), and load(db) for better-sqlite3 and libsql databases.
const path = require('path');

const PLATFORM = `${process.platform}-${process.arch}`;
const PLATFORM_PACKAGE = `utf8ext-${PLATFORM}`;
const SUFFIX = process.platform === 'win32' ? '.dll'
  : process.platform === 'darwin' ? '.dylib' : '.so';

/** The absolute path of the utf8ext module for this platform. */
function getLoadablePath() {
  let manifest;
  try {
    manifest = require.resolve(`${PLATFORM_PACKAGE}/package.json`);
  } catch (e) {
    throw new Error(
      `utf8ext: the package ${PLATFORM_PACKAGE}, which holds the SQLite module ` +
      `for ${PLATFORM}, is not installed. Nothing of utf8ext is published in ` +
      `the npm registry: do not "npm install" these names from it. Build both ` +
      `packages from the utf8ext source (make npm) and install the two local ` +
      `tarballs together: npm install ./build/npm/${PLATFORM_PACKAGE}-*.tgz ` +
      `./build/npm/utf8ext-[0-9]*.tgz (without --omit=optional).`);
  }
  return path.join(path.dirname(manifest), 'utf8ext' + SUFFIX);
}

/** Load utf8ext into db (a better-sqlite3 or libsql Database); returns db. */
function load(db) {
  if (!db || typeof db.loadExtension !== 'function') {
    throw new TypeError('utf8ext.load(db): db has no loadExtension() method; ' +
      'pass a better-sqlite3 or libsql Database');
  }
  db.loadExtension(getLoadablePath());
  return db;
}

module.exports = { getLoadablePath, load };
