"""The gRPC client of hpackcert live (target grpc-client): gRPC C-core
through grpcio, over h2c. It opens one channel to the URLs' host and calls
each URL's path as a unary method, one after the other, with the fields of
the headers file (a JSON array of [name, value] pairs) as metadata.
hpackcert's server answers with HTTP, not gRPC, so each call ends in an
error, which is expected and not reported: what is graded is the header
blocks the client wrote. Each call has a deadline of 10 s, which gRPC
writes as grpc-timeout, the time left when the request is written: its
value (10S, 10100m) differs from one run to the next.

Usage: python3 grpc_client.py --headers FILE URL..."""

import json
import sys
import urllib.parse

import grpc


def main():
    if len(sys.argv) < 4 or sys.argv[1] != "--headers":
        sys.exit("usage: python3 grpc_client.py --headers FILE URL...")
    with open(sys.argv[2], encoding="utf-8") as f:
        md = [(n, v) for n, v in json.load(f)]
    urls = [urllib.parse.urlsplit(u) for u in sys.argv[3:]]
    if any(u.scheme != "http" for u in urls):
        sys.exit("grpc_client.py: h2c (http URLs) only")
    with grpc.insecure_channel(urls[0].netloc) as channel:
        for u in urls:
            call = channel.unary_unary(u.path, request_serializer=None, response_deserializer=None)
            try:
                call(b"hpackcert", metadata=md, timeout=10)
            except grpc.RpcError as err:
                if err.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                    sys.exit(f"grpc_client.py: {u.geturl()}: {err.code()}: {err.details()}")


if __name__ == "__main__":
    main()
