"""Shared by the Python apps of hpackcert live: asks hpackcert's origin
for the scripted answer of a path over HTTP/1.1 (http.client), keeping its
fields in order, repeats included, as octets."""

import http.client


class Origin:
    """One kept-alive HTTP/1.1 connection to the origin at HOST:PORT,
    opened again when the origin closed it."""

    def __init__(self, addr):
        host, _, port = addr.rpartition(":")
        self.host, self.port = host, int(port)
        self.conn = None

    def fetch(self, path, extra=None):
        """Returns (status, [(name, value)], body), names in lower case and
        names and values as bytes (http.client reads them as Latin-1).
        extra, when given, holds request fields to send besides (an echo:
        see echo_fields)."""
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
            try:
                self.conn.request("GET", path, headers=extra or {})
                resp = self.conn.getresponse()
                body = resp.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
                continue
            fields = [(n.lower().encode("latin-1"), v.encode("latin-1")) for n, v in resp.getheaders()]
            return resp.status, fields, body
        raise AssertionError("unreachable")


# Fields HTTP/2 forbids (RFC 9113 §8.2.2).
CONNECTION_SPECIFIC = {b"connection", b"keep-alive", b"proxy-connection", b"transfer-encoding", b"upgrade"}


# The origin's echo (source/live/decoderorigin.go): a request with
# ECHO_HEADER shows the origin the fields the app was given, each as
# hex(name)=hex(value), separated by commas, every octet kept.
ECHO_HEADER = "x-hpackcert-echo"


def echo_fields(fields):
    """Returns the request fields to send the origin to echo fields, a
    list of (name, value) as bytes, in the order the app was given them."""
    return {ECHO_HEADER: ",".join(n.hex() + "=" + v.hex() for n, v in fields)}
