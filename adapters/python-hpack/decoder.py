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


def main():
    name = "python-hpack %s decoder" % hpack.__version__
    dec = None
    for line in sys.stdin:
        req = json.loads(line)
        try:
            op = req.get("op")
            if op == "hello":
                ans = {"name": name, "decoder": True, "binary": True}
            elif op == "new":
                dec, ans = hpack.Decoder(), {}
            elif op == "decode":
                if dec is None:
                    raise ValueError("decode before new")
                # Raw strings come back as bytes or as memoryviews into the block.
                if req.get("binary"):
                    def text(octets):
                        return bytes(octets).hex()
                else:
                    def text(octets):
                        return bytes(octets).decode()
                wire = bytes.fromhex(req["wire"])
                dec.max_allowed_table_size = req["table_size"]
                dec.max_header_list_size = req["max_header_list"] or sys.maxsize
                fields = dec.decode(wire, raw=True)
                ans = {
                    "headers": [[text(n), text(v)] for n, v in fields],
                    "never_indexed": [not f.indexable for f in fields],
                    "table": [[text(n), text(v)] for n, v in dec.header_table.dynamic_entries],
                }
                if req.get("binary"):
                    ans["hex"] = True
            else:
                ans = {"error": "unknown op %r" % (op,)}
        except Exception as e:  # the library's refusal, reported to the certifier
            dec = None
            ans = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(ans) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
