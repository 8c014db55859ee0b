'use strict';
// The node:http2 server of hpackcert live (node-server, node-proxy and,
// under Bun, bun-node-http2). It listens on 127.0.0.1:PORT, or on the
// listening socket it inherited as descriptor N (--fd N), h2c with prior
// knowledge or, given --cert and --key, TLS with ALPN h2, and answers each
// request with the status, fields and body that hpackcert's origin gives
// for its path over HTTP/1.1.
//
// --mode server answers on the core API (stream.respond); --mode proxy
// relays on the compatibility API (res.writeHead), as a node reverse
// proxy does. --marks by-name (server mode) asks the origin which names
// are sensitive and lists them in http2.sensitiveHeaders, so that
// node:http2 sends those fields never-indexed.
//
// Either mode echoes to the origin the fields of the request it was given,
// in the order node:http2 decoded them (echoHeader in origin.js), so that
// hpackcert can compare them with the block it sent.
//
// Usage: node node-server.js --port PORT|--fd N --origin HOST:PORT [--cert F --key F] [--mode server|proxy] [--marks by-name]

const fs = require('node:fs');
const http2 = require('node:http2');
const { fetchOrigin, headerObject, options, marksHeader, takeSensitiveNames, echoFields } = require('./origin.js');

const o = options(process.argv.slice(2));
const mode = o.mode || 'server';
if (mode !== 'server' && mode !== 'proxy') throw new Error(`--mode ${mode}: want server or proxy`);
if (o.marks !== undefined && (o.marks !== 'by-name' || mode !== 'server')) throw new Error(`--marks ${o.marks}: want by-name, in server mode`);
const marks = o.marks ? { [marksHeader]: o.marks } : {};

// Room for the script's response of 16 KiB strings.
const limits = { settings: { maxHeaderListSize: 1 << 20 }, maxSendHeaderBlockLength: 1 << 20, maxSessionMemory: 64 };
const server = o.cert
  ? http2.createSecureServer({ cert: fs.readFileSync(o.cert), key: fs.readFileSync(o.key), ...limits })
  : http2.createServer(limits);

function failed(err) {
  return { ':status': 502, 'content-type': 'text/plain', 'x-origin-error': String(err && err.code || err) };
}

if (mode === 'server') {
  server.on('stream', (stream, headers, flags, rawHeaders) => {
    // A stream the peer resets or a session that ends under it emits
    // 'error'; without a listener that would end the server.
    stream.on('error', (e) => console.error(`node-server.js: stream: ${e.code}: ${e.message}`));
    fetchOrigin(o.origin, headers[':path'], (err, status, raw, body) => {
      if (stream.destroyed) return;
      if (err) {
        stream.respond(failed(err), { endStream: true });
        return;
      }
      const { raw: fields, names } = takeSensitiveNames(raw);
      const h = headerObject(status, fields);
      if (names.length > 0) h[http2.sensitiveHeaders] = names;
      try {
        stream.respond(h, { endStream: body.length === 0 });
      } catch (e) {
        // node:http2 refuses the fields: say so, in the log and the answer.
        console.error(`node-server.js: ${headers[':path']}: ${e.code}: ${e.message}`);
        stream.respond(failed(e), { endStream: true });
        return;
      }
      if (body.length > 0) stream.end(body);
    }, { ...marks, ...echoFields(rawHeaders, headers) });
  });
} else {
  server.on('request', (req, res) => {
    req.on('error', (e) => console.error(`node-server.js: request: ${e.code}: ${e.message}`));
    res.on('error', (e) => console.error(`node-server.js: response: ${e.code}: ${e.message}`));
    fetchOrigin(o.origin, req.url, (err, status, raw, body) => {
      if (res.destroyed) return;
      if (err) {
        const h = failed(err);
        delete h[':status'];
        res.writeHead(502, h);
        res.end();
        return;
      }
      const h = headerObject(status, raw);
      delete h[':status'];
      try {
        res.writeHead(status, h);
      } catch (e) {
        console.error(`node-server.js: ${req.url}: ${e.code}: ${e.message}`);
        const f = failed(e);
        delete f[':status'];
        res.writeHead(502, f);
        res.end();
        return;
      }
      res.end(body);
    }, echoFields(req.rawHeaders, req.headers));
  });
}
server.on('sessionError', () => {});
if (o.fd !== undefined) {
  server.listen({ fd: Number(o.fd) });
} else {
  server.listen(Number(o.port), '127.0.0.1');
}
