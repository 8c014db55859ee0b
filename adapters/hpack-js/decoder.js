#!/usr/bin/env node
// hpack-stdio decoder adapter for the npm package hpack.js (the HPACK of
// spdy and spdy-transport). A fresh decompressor per "new", made as
// spdy-transport makes it (table maxSize 4096, which hpack.js keeps as the
// bound of dynamic table size updates). hpack.js has no API to change that
// bound after creation (spdy-transport never does): a block's acknowledged
// table size, when it differs from the last, is assigned to the table's
// protocolMaxSize, the field the library checks size updates against. The
// block goes through write() and execute(callback); the fields come back as
// {name, value, neverIndex} objects from read(), neverIndex marking a
// never-indexed literal. Names and values are strings of chars 0-255, one
// octet each, answered as hex. hpack.js exposes neither its dynamic table
// nor a header-list limit: no "table" in the answers, and hello declares
// "max-header-list".
'use strict';
const readline = require('readline');
const hpack = require('hpack.js');
const version = require('hpack.js/package.json').version;

const SETTING_AT_START = 4096;

// A request the adapter cannot serve (not the library's refusal).
class RequestError extends Error {}

// The error execute() hands its callback: the decompressor catches every
// exception of its decoding and reports it there, its way of refusing a
// block.
class Refusal extends Error {}

let decomp = null;
let setting = SETTING_AT_START;

function hex(s) {
  return Buffer.from(s, 'latin1').toString('hex');
}

function text(s, binary) {
  return binary ? hex(s) : Buffer.from(s, 'latin1').toString('utf8');
}

// Decodes one block; resolves to the answer, rejects with the library's error.
function decode(req) {
  if (decomp === null) throw new RequestError('decode before new (or after a refused block)');
  if (typeof req.wire !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(req.wire)) {
    throw new RequestError('decode needs wire, an even number of hex digits');
  }
  if (!Number.isInteger(req.table_size) || req.table_size < 0) {
    throw new RequestError('decode needs table_size, an integer >= 0');
  }
  if (req.table_size !== setting) {
    decomp._table.protocolMaxSize = req.table_size;
    setting = req.table_size;
  }
  const d = decomp;
  return new Promise((resolve, reject) => {
    d.write(Buffer.from(req.wire, 'hex'));
    d.execute((err) => {
      if (err) return reject(new Refusal(String(err && err.message !== undefined ? err.message : err)));
      const fields = [];
      let f;
      while ((f = d.read()) !== null) fields.push(f);
      const ans = {
        headers: fields.map((x) => [text(x.name, true), text(x.value, true)]),
        never_indexed: fields.map((x) => x.neverIndex),
      };
      ans.hex = true; // the decoder side answers in hex (docs/STDIO.md)
      resolve(ans);
    });
  });
}

async function answer(line) {
  try {
    const req = JSON.parse(line);
    if (req.op === 'hello') {
      return {
        name: 'hpack.js ' + version + ' decoder',
        decoder: true,
        binary: true,
        lacks: ['max-header-list'],
      };
    }
    if (req.op === 'new') {
      decomp = hpack.decompressor.create({ table: { maxSize: SETTING_AT_START } });
      setting = SETTING_AT_START;
      return {};
    }
    if (req.op === 'decode') return await decode(req);
    return { error: 'unknown op ' + JSON.stringify(req.op) };
  } catch (e) {
    // Any other exception is a crash: it ends the adapter, and the
    // certifier grades it.
    if (!(e instanceof Refusal || e instanceof RequestError || e instanceof SyntaxError)) throw e;
    decomp = null;
    return { error: String(e.message) };
  }
}

async function main() {
  const rl = readline.createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
  for await (const line of rl) {
    process.stdout.write(JSON.stringify(await answer(line)) + '\n');
  }
}

main();
