#!/usr/bin/env node
// hpack-stdio adapter for the npm package hpack (maskit/hpack). A fresh HPACK
// object per "new"; each acknowledged size through setTableSize in order, its
// API for it; the fields through encode([[name, value], ...]). The package
// takes names and values as JavaScript strings, which it writes as UTF-8, so
// the adapter does not offer the binary form; it has no never-index API,
// which the answer to hello declares (a sensitive field is encoded like any
// other).
'use strict';
const readline = require('readline');
const HPACK = require('hpack');
const version = require('hpack/package.json').version;

let codec = null;

function encode(req) {
  if (codec === null) throw new Error('encode before new');
  for (const size of req.table_sizes) codec.setTableSize(size);
  return codec.encode(req.headers.map(([n, v]) => [n, v])).toString('hex');
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  let ans;
  try {
    const req = JSON.parse(line);
    if (req.op === 'hello') ans = { name: 'hpack (npm) ' + version + ' (no never-index API)', lacks: ['never-index'] };
    else if (req.op === 'new') {
      codec = new HPACK();
      ans = {};
    } else if (req.op === 'encode') ans = { wire: encode(req) };
    else ans = { error: 'unknown op ' + JSON.stringify(req.op) };
  } catch (e) {
    ans = { error: String(e && e.message ? e.message : e) };
  }
  process.stdout.write(JSON.stringify(ans) + '\n');
});
