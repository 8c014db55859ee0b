#!/usr/bin/python3
"""hpack-stdio decoder adapter for python-hpack (Debian python3-hpack).

One hpack.Decoder per "new". A block's acknowledged table size is assigned
to Decoder.max_allowed_table_size, the library's API for the setting, and its
header-list limit to Decoder.max_header_list_size (0, no limit, assigns
sys.maxsize: the library's default would be 64 KiB). Decoder.decode(raw=True)
gives the raw octets (binary form); a never-indexed literal comes back as
hpack.NeverIndexedHeaderTuple (indexable false). The table is the library's
HeaderTable.dynamic_entries, newest first.
"""
import json
import sys

import hpack


class RequestError(Exception):
    """A request the adapter cannot serve (not the library's refusal)."""


def field(req, name, kind):
    """Returns the request member name, of type kind, or raises RequestError."""
    value = req.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RequestError("decode needs %s (%s)" % (name, kind.__name__))
    return value


def main():
    name = "python-hpack %s decoder" % hpack.__version__
    dec = None
    for line in sys.stdin:
        try:
            try:
                req = json.loads(line)
            except ValueError as e:
                raise RequestError("request is not JSON: %s" % e)
            if not isinstance(req, dict):
                raise RequestError("request is not a JSON object")
            op = req.get("op")
            if op == "hello":
                ans = {"name": name, "decoder": True, "binary": True}
            elif op == "new":
                dec, ans = hpack.Decoder(), {}
            elif op == "decode":
                if dec is None:
                    raise RequestError("decode before new (or after a refused block)")
                # Raw strings come back as bytes or as memoryviews into the block.
                if True:  # the decoder side answers in hex (docs/STDIO.md)
                    def text(octets):
                        return bytes(octets).hex()
                else:
                    def text(octets):
                        return bytes(octets).decode()
                try:
                    wire = bytes.fromhex(field(req, "wire", str))
                except ValueError:
                    raise RequestError("wire is not hex")
                dec.max_allowed_table_size = field(req, "table_size", int)
                dec.max_header_list_size = req.get("max_header_list") or sys.maxsize
                fields = dec.decode(wire, raw=True)
                ans = {
                    "headers": [[text(n), text(v)] for n, v in fields],
                    "never_indexed": [not f.indexable for f in fields],
                    "table": [[text(n), text(v)] for n, v in dec.header_table.dynamic_entries],
                }
                if True:  # the decoder side answers in hex (docs/STDIO.md)
                    ans["hex"] = True
            else:
                ans = {"error": "unknown op %r" % (op,)}
        # The library's refusals; any other exception is a crash and ends
        # the adapter (the certifier grades it).
        except (hpack.HPACKError, RequestError) as e:
            dec = None
            ans = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(ans) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
