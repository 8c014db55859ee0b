#!/usr/bin/env node
// hpack-stdio decoder adapter for the npm package hpack (maskit/hpack). A
// fresh HPACK object per "new"; each block through decode(buffer), which
// returns the fields as [name, value] pairs of JavaScript strings (raw
// string literals read as 'ascii', Huffman ones as UTF-8), so the adapter
// does not offer the binary form. The package has no API for the decoder's
// SETTINGS_HEADER_TABLE_SIZE (setTableSize is the encoder's), none for a
// header-list limit, does not tell never-indexed literals apart and does not
// expose its decoding table: table_size and max_header_list are not used,
// the answers have neither "never_indexed" nor "table", and hello declares
// "never-indexed" and "max-header-list".
'use strict';
const readline = require('readline');
const HPACK = require('hpack');
const version = require('hpack/package.json').version;

// A request the adapter cannot serve (not the library's refusal).
class RequestError extends Error {}

let codec = null;

function decode(req) {
  if (codec === null) throw new RequestError('decode before new (or after a refused block)');
  if (typeof req.wire !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(req.wire)) {
    throw new RequestError('decode needs wire, an even number of hex digits');
  }
  const fields = codec.decode(Buffer.from(req.wire, 'hex'));
  return { headers: fields.map(([n, v]) => [n, v]) };
}

const rl = readline.createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
rl.on('line', (line) => {
  let ans;
  try {
    const req = JSON.parse(line);
    if (req.op === 'hello') {
      ans = { name: 'hpack (npm) ' + version + ' decoder', decoder: true, lacks: ['never-indexed', 'max-header-list'] };
    } else if (req.op === 'new') {
      codec = new HPACK();
      ans = {};
    } else if (req.op === 'decode') ans = decode(req);
    else ans = { error: 'unknown op ' + JSON.stringify(req.op) };
  } catch (e) {
    // The package throws no error of its own on a bad block: an exception
    // from decode (a TypeError) is a crash, which ends the adapter.
    if (!(e instanceof RequestError || e instanceof SyntaxError)) throw e;
    codec = null;
    ans = { error: String(e.message) };
  }
  process.stdout.write(JSON.stringify(ans) + '\n');
});
