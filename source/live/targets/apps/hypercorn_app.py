"""The ASGI app of hpackcert live's hypercorn target: it answers each
request with the status, fields and body hpackcert's origin gives for its
path over HTTP/1.1, so that hypercorn's HTTP/2 (python-h2, whose encoder is
python-hpack's) writes the script's lists. The origin is named by the
environment variable HPACKCERT_ORIGIN (HOST:PORT). It echoes to the origin
the request it was given: method, raw path and the ASGI headers, in order
(echo_fields), for hpackcert to compare with the block it sent.

Run: hypercorn --bind 127.0.0.1:PORT hypercorn_app:app"""

import asyncio
import os

from origin import CONNECTION_SPECIFIC, Origin, echo_fields

origin = Origin(os.environ["HPACKCERT_ORIGIN"])
# http.client blocks: one request to the origin at a time, off the loop.
lock = asyncio.Lock()


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    path = scope.get("raw_path") or scope["path"].encode("latin-1")
    if scope.get("query_string"):
        path += b"?" + scope["query_string"]
    seen = [(b":method", scope["method"].encode("latin-1")), (b":path", path)] + [(bytes(n), bytes(v)) for n, v in scope["headers"]]
    async with lock:
        try:
            status, fields, body = await asyncio.get_running_loop().run_in_executor(None, origin.fetch, scope["path"], echo_fields(seen))
        except Exception as err:  # the origin is hpackcert's: say what failed
            status, fields, body = 502, [(b"x-origin-error", repr(err).encode("ascii", "replace"))], b""
    headers = [(n, v) for n, v in fields if n not in CONNECTION_SPECIFIC]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
