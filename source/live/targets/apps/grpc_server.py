"""The gRPC server of hpackcert live (target grpc-server): gRPC C-core
through grpcio, whose HPACK encoder is C-core's own. Every method is served
by one generic handler, which asks hpackcert's origin for the scripted
answer of the request's path (the method name) over HTTP/1.1 and sends its
fields as the call's initial metadata, its body as the one response
message, and the fields again as trailing metadata. gRPC sets :status,
content-type and grpc-status itself; metadata it cannot carry (a value
outside printable ASCII, a reserved name) is left out, as the target's
Transform declares.

Usage: python3 grpc_server.py --port PORT --origin HOST:PORT [--cert F --key F]"""

import argparse
import concurrent.futures
import signal
import threading

import grpc

from origin import CONNECTION_SPECIFIC, Origin

# Names gRPC keeps for itself or refuses as metadata.
RESERVED = {"content-type", "te", "user-agent", "content-length", "host", "grpc-status", "grpc-message", "grpc-status-details-bin", "grpc-encoding", "grpc-accept-encoding", "grpc-timeout"}


def metadata(fields):
    """The fields gRPC can send as metadata: names that are not reserved,
    values of printable ASCII."""
    out = []
    for name, value in fields:
        n = name.decode("latin-1")
        if name in CONNECTION_SPECIFIC or n in RESERVED or n.startswith(":"):
            continue
        if n.endswith("-bin") or not all(0x20 <= b <= 0x7E for b in value):
            continue
        out.append((n, value.decode("ascii")))
    return out


class Handler(grpc.GenericRpcHandler):
    def __init__(self, origin):
        self.origin = origin
        self.lock = threading.Lock()

    def service(self, details):
        path = details.method

        def unary(request, context):
            with self.lock:
                status, fields, body = self.origin.fetch(path)
            md = metadata(fields)
            context.send_initial_metadata(md)
            context.set_trailing_metadata(md)
            return body

        return grpc.unary_unary_rpc_method_handler(unary, request_deserializer=None, response_serializer=None)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", required=True)
    p.add_argument("--origin", required=True)
    p.add_argument("--cert")
    p.add_argument("--key")
    a = p.parse_args()
    server = grpc.server(concurrent.futures.ThreadPoolExecutor(max_workers=4), handlers=[Handler(Origin(a.origin))])
    addr = "127.0.0.1:" + a.port
    if a.cert:
        with open(a.cert, "rb") as c, open(a.key, "rb") as k:
            creds = grpc.ssl_server_credentials([(k.read(), c.read())])
        server.add_secure_port(addr, creds)
    else:
        server.add_insecure_port(addr)
    server.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    server.stop(1).wait()


if __name__ == "__main__":
    main()
