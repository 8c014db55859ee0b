#!/usr/bin/env node
// hpack-stdio adapter for the npm package hpack.js (the HPACK of spdy and
// spdy-transport). A fresh compressor per "new", made as spdy-transport makes
// it (table maxSize 4096); each acknowledged size through updateTableSize in
// order, which spdy-transport calls for the peer's SETTINGS_HEADER_TABLE_SIZE;
// the fields through write() as {name, value, neverIndex}, neverIndex being
// hpack.js's never-index flag. Octets travel as strings of chars 0-255,
// which hpack.js writes one octet each (binary form).
'use strict';
const readline = require('readline');
const hpack = require('hpack.js');
const version = require('hpack.js/package.json').version;

let comp = null;

function octets(s, binary) {
  return binary ? Buffer.from(s, 'hex').toString('latin1') : Buffer.from(s, 'utf8').toString('latin1');
}

function drain() {
  const chunks = [];
  let chunk;
  while ((chunk = comp.read()) !== null) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function encode(req) {
  if (comp === null) throw new Error('encode before new');
  drain();
  for (const size of req.table_sizes) comp.updateTableSize(size);
  const fields = req.headers.map(([n, v], i) => ({
    name: octets(n, req.binary),
    value: octets(v, req.binary),
    neverIndex: req.sensitive[i],
  }));
  comp.write(fields);
  return drain().toString('hex');
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  let ans;
  try {
    const req = JSON.parse(line);
    if (req.op === 'hello') ans = { name: 'hpack.js ' + version, binary: true };
    else if (req.op === 'new') {
      comp = hpack.compressor.create({ table: { maxSize: 4096 } });
      ans = {};
    } else if (req.op === 'encode') ans = { wire: encode(req) };
    else ans = { error: 'unknown op ' + JSON.stringify(req.op) };
  } catch (e) {
    ans = { error: String(e && e.stack ? e.message : e) };
  }
  process.stdout.write(JSON.stringify(ans) + '\n');
});
