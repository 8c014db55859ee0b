'use strict';
// The node:http2 client of hpackcert live (target node-client): one
// session to the URLs' origin, h2c with prior knowledge for http URLs, TLS
// with ALPN h2 for https ones (the certificate hpackcert made is not
// checked), and one GET after the other, each with the fields of the
// headers file: a JSON array of [name, value] pairs, each value's octets
// written as the code points below 256 of the same numbers (Latin-1), or
// an object of those pairs ("headers") and the names to mark never-indexed
// ("sensitive"), which each request lists in http2.sensitiveHeaders.
//
// Usage: node node-client.js --headers FILE URL...

const fs = require('node:fs');
const http2 = require('node:http2');

const argv = process.argv.slice(2);
if (argv[0] !== '--headers' || argv.length < 3) throw new Error('usage: node node-client.js --headers FILE URL...');
const file = JSON.parse(fs.readFileSync(argv[1], 'utf8'));
const pairs = Array.isArray(file) ? file : file.headers;
const sensitive = Array.isArray(file) ? [] : file.sensitive;
const urls = argv.slice(2).map((u) => new URL(u));

const headers = {};
for (const [name, value] of pairs) {
  headers[name] = name in headers ? [].concat(headers[name], value) : value;
}

const session = http2.connect(urls[0].origin, { rejectUnauthorized: false, maxHeaderListPairs: 4096, maxSendHeaderBlockLength: 1 << 20 });
session.on('error', (err) => {
  console.error(`node-client: session: ${err.message}`);
  process.exitCode = 1;
});

function next(i) {
  if (i === urls.length) {
    session.close();
    return;
  }
  const u = urls[i];
  const h = { ':method': 'GET', ':path': u.pathname + u.search, ...headers };
  if (sensitive.length > 0) h[http2.sensitiveHeaders] = sensitive;
  const req = session.request(h, { endStream: true });
  req.on('response', () => {});
  req.on('data', () => {});
  req.on('end', () => next(i + 1));
  req.on('error', (err) => {
    console.error(`node-client: ${u.href}: ${err.message}`);
    process.exitCode = 1;
    next(i + 1);
  });
}
session.on('connect', () => next(0));
