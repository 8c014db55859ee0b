#!/usr/bin/python3
"""hpack-stdio adapter for python-hpack (Debian python3-hpack).

One hpack.Encoder per "new"; each acknowledged table size is assigned, in
order, to Encoder.header_table_size, the library's API for it; a sensitive
field is passed as hpack.NeverIndexedHeaderTuple, its never-index API.
Names and values are bytes (binary form).
"""
import json
import sys

import hpack


def main():
    name = "python-hpack %s" % hpack.__version__
    enc = None
    for line in sys.stdin:
        req = json.loads(line)
        try:
            op = req.get("op")
            if op == "hello":
                ans = {"name": name, "binary": True}
            elif op == "new":
                enc, ans = hpack.Encoder(), {}
            elif op == "encode":
                if enc is None:
                    raise ValueError("encode before new")
                if req.get("binary"):
                    octets = bytes.fromhex
                else:
                    octets = str.encode
                for size in req["table_sizes"]:
                    enc.header_table_size = size
                fields = []
                for (n, v), sensitive in zip(req["headers"], req["sensitive"]):
                    if sensitive:
                        fields.append(hpack.NeverIndexedHeaderTuple(octets(n), octets(v)))
                    else:
                        fields.append(hpack.HeaderTuple(octets(n), octets(v)))
                ans = {"wire": enc.encode(fields).hex()}
            else:
                ans = {"error": "unknown op %r" % (op,)}
        except Exception as e:  # the library's refusal, reported to the certifier
            ans = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(ans) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
