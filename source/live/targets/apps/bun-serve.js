'use strict';
// The Bun.serve server of hpackcert live (target bun-serve): Bun's own
// HTTP server with http2: true (h2c for a connection that opens with the
// HTTP/2 preface, ALPN h2 over TLS), whose HPACK encoder is ls-hpack. It
// answers each request with the status, fields and body hpackcert's
// origin gives for its path over HTTP/1.1 (node:http under Bun), through
// a Fetch API Response, whose Headers join a repeated field's values into
// one (set-cookie excepted). It echoes to the origin the request it was
// given (method, path and query, its Headers as the Fetch API iterates
// them), for hpackcert to compare with the block it sent.
//
// Usage: bun bun-serve.js --port PORT --origin HOST:PORT [--cert F --key F]

const { fetchOrigin, headerObject, options, echoFields } = require('./origin.js');

const o = options(process.argv.slice(2));

function answer(req) {
  const url = new URL(req.url);
  const path = url.pathname;
  const seen = [':method', req.method, ':path', url.pathname + url.search];
  for (const [name, value] of req.headers) seen.push(name, value);
  return new Promise((resolve) => {
    fetchOrigin(o.origin, path, (err, status, raw, body) => {
      if (err) {
        resolve(new Response('', { status: 502, headers: { 'x-origin-error': String(err.code || err) } }));
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(headerObject(status, raw))) {
        if (name === ':status') continue;
        for (const v of [].concat(value)) headers.append(name, v);
      }
      const noBody = status === 204 || status === 304;
      resolve(new Response(noBody ? null : body, { status, headers }));
    }, echoFields(seen));
  });
}

Bun.serve({
  hostname: '127.0.0.1',
  port: Number(o.port),
  http2: true,
  tls: o.cert ? { cert: Bun.file(o.cert), key: Bun.file(o.key) } : undefined,
  fetch: answer,
});
