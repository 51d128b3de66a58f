// bench/node_peer.js - simdutf as Node ships it, timed on the benchmark's
// own bytes: bench/bench.c writes a buffer to a file and runs
//
//     node bench/node_peer.js MODE FILE LEN COUNT
//
// FILE holds COUNT strings of LEN bytes back to back (COUNT 1: one value).
// MODE is "valid" (buffer.isUtf8 on each string: simdutf's validator) or
// "repair" (TextDecoder, fatal: false, on each string: simdutf's
// transcoder, which replaces ill-formed input with U+FFFD; it produces
// UTF-16, so it does more than utf8_fix, which writes UTF-8).
//
// Prints one number: the median nanoseconds per pass over all COUNT
// strings, of ROUNDS rounds, each round a batch of passes lasting about
// 1.5 ms (as bench.c does). Nothing is asserted.
'use strict';
const fs = require('fs');
const { isUtf8 } = require('buffer');

const [mode, file, lenArg, countArg] = process.argv.slice(2);
const len = Number(lenArg), count = Number(countArg);
const data = fs.readFileSync(file);
// Views, made once: the timed loop only calls the function under test.
const views = [];
for (let k = 0; k < count; k++) views.push(data.subarray(k * len, (k + 1) * len));

const decoder = new TextDecoder('utf-8', { fatal: false });
let sink = 0;
const fns = {
  valid: () => { for (let k = 0; k < count; k++) sink += isUtf8(views[k]) ? 1 : 0; },
  repair: () => { for (let k = 0; k < count; k++) sink += decoder.decode(views[k]).length; },
};
const fn = fns[mode];
if (!fn || typeof isUtf8 !== 'function') { console.log('-1'); process.exit(0); }

const ROUNDS = 21, BATCH_NS = 1.5e6;
const now = () => Number(process.hrtime.bigint());
// Warm up (and let the JIT settle), then calibrate the batch.
for (let w = 0; w < 5; w++) fn();
let t0 = now(); fn(); let one = now() - t0;
const passes = one >= BATCH_NS ? 1 : Math.ceil(BATCH_NS / Math.max(one, 1));
const samples = [];
for (let r = 0; r < ROUNDS; r++) {
  t0 = now();
  for (let p = 0; p < passes; p++) fn();
  samples.push((now() - t0) / passes);
}
samples.sort((a, b) => a - b);
if (sink === 0.5) console.error('');  // keeps sink alive
console.log(samples[ROUNDS >> 1].toFixed(1));
