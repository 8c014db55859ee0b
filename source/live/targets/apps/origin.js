'use strict';
// Shared by the Node and Bun apps of hpackcert live: fetches the origin's
// scripted answer for a path over HTTP/1.1 with node's http module, and
// turns its raw header lines into the header object of node:http2.

const http = require('node:http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

// Fields HTTP/2 forbids (RFC 9113 §8.2.2); node:http2 throws on them.
const connectionSpecific = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

// Fields node:http2 takes one value of (its kSingleValueHeaders; it throws
// ERR_HTTP2_HEADER_SINGLE_VALUE on an array): the first is kept.
const singleValue = new Set(['access-control-allow-credentials', 'access-control-max-age', 'access-control-request-method',
  'age', 'authorization', 'content-encoding', 'content-language', 'content-length', 'content-location', 'content-md5',
  'content-range', 'content-type', 'date', 'dnt', 'etag', 'expires', 'from', 'host', 'if-match', 'if-modified-since',
  'if-none-match', 'if-range', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization',
  'range', 'referer', 'retry-after', 'tk', 'upgrade-insecure-requests', 'user-agent', 'x-content-type-options']);

// fetchOrigin asks origin (HOST:PORT) for path and calls done(err, status,
// rawHeaders, body), rawHeaders as node:http gives them: name, value,
// name, value, ... in the order and with the repeats of the response.
// A path node:http refuses (no path, or octets it will not send: a
// decoder certification sends such requests) is an error for done, not
// an exception that would end the server.
//
// extra, when given, holds request fields to send besides (a marks
// request: see sensitiveNames).
function fetchOrigin(origin, path, done, extra) {
  const [host, port] = splitHostPort(origin);
  let req;
  try {
    req = newRequest(host, port, path, done, extra);
  } catch (err) {
    process.nextTick(() => done(err));
    return;
  }
  req.on('error', (err) => done(err));
  req.end();
}

function newRequest(host, port, path, done, extra) {
  if (typeof path !== 'string') throw new TypeError('the request has no :path');
  return http.request({ host, port, path, method: 'GET', agent, maxHeaderSize: 1 << 20, headers: extra || {} }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => done(null, res.statusCode, res.rawHeaders, Buffer.concat(chunks)));
    res.on('error', (err) => done(err));
  });
}

// headerObject returns the fields of rawHeaders as node:http2 takes them:
// names in lower case, a repeated name as an array of its values in
// order (the first only of a field node:http2 takes once), the
// connection-specific fields left out.
function headerObject(status, rawHeaders) {
  const h = { ':status': status };
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    const value = rawHeaders[i + 1];
    if (connectionSpecific.has(name)) continue;
    if (name in h) {
      if (singleValue.has(name)) continue;
      h[name] = [].concat(h[name], value);
    } else {
      h[name] = value;
    }
  }
  return h;
}

// The origin's marks (source/live/origin.go): a request with marksHeader
// set to 'by-name' gets the field sensitiveHeader, the comma-separated
// names to mark never-indexed.
const marksHeader = 'x-hpackcert-marks';
const sensitiveHeader = 'x-hpackcert-sensitive';

// takeSensitiveNames returns rawHeaders without the origin's
// sensitiveHeader field, and the names it lists. (rawHeaders itself is
// left alone: node:http parses it again later, for the agent.)
function takeSensitiveNames(rawHeaders) {
  const raw = [];
  let names = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === sensitiveHeader) {
      names = names.concat(rawHeaders[i + 1].split(',').filter((n) => n !== ''));
    } else {
      raw.push(rawHeaders[i], rawHeaders[i + 1]);
    }
  }
  return { raw, names };
}

// The origin's echo (source/live/decoderorigin.go): a request with
// echoHeader shows the origin the fields the app was given, each as
// hex(name)=hex(value), separated by commas, every octet kept.
const echoHeader = 'x-hpackcert-echo';

// echoFields returns the request fields to send the origin to echo a
// request: rawHeaders (name, value, ... in the order decoded) when the
// runtime gives them, else the header object, in its order.
function echoFields(rawHeaders, headers) {
  let raw = rawHeaders;
  if (!Array.isArray(raw)) {
    raw = [];
    for (const [name, value] of Object.entries(headers || {})) {
      for (const v of [].concat(value)) raw.push(name, String(v));
    }
  }
  const hex = (s) => Buffer.from(String(s), 'latin1').toString('hex');
  const pairs = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push(`${hex(raw[i])}=${hex(raw[i + 1])}`);
  return { [echoHeader]: pairs.join(',') };
}

function splitHostPort(addr) {
  const i = addr.lastIndexOf(':');
  return [addr.slice(0, i), Number(addr.slice(i + 1))];
}

// options reads --port, --origin, --cert and --key from argv.
function options(argv) {
  const o = {};
  for (let i = 0; i + 1 < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!['port', 'fd', 'origin', 'cert', 'key', 'mode', 'marks'].includes(key)) {
      throw new Error(`unknown option ${argv[i]} (want --port, --fd, --origin, --cert, --key, --mode, --marks)`);
    }
    o[key] = argv[i + 1];
  }
  if (!(o.port || o.fd) || !o.origin) throw new Error('want --port PORT or --fd N, and --origin HOST:PORT');
  return o;
}

module.exports = { fetchOrigin, headerObject, options, marksHeader, takeSensitiveNames, echoFields };
