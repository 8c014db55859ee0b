"""A user's encoder for the gate's test (gate_user_test.go): a tiny
hpack-stdio/1 encoder in Python, every field a literal without indexing
(never indexed when sensitive), no Huffman, the dynamic table unused.
With --bug it sends sensitive fields as literals that may be indexed,
which fails enc/7.1.3/1; with --no-never-index its hello declares it has
no never-index API (the lack "never-index"), which leaves enc/7.1.3/1 not
graded."""
import json
import sys

BUG = "--bug" in sys.argv
NO_NEVER_INDEX = "--no-never-index" in sys.argv

def integer(value, prefix, first):
    limit = (1 << prefix) - 1
    if value < limit:
        return bytes([first | value])
    out = [first | limit]
    value -= limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)

def string(s):
    data = s.encode("utf-8")
    return integer(len(data), 7, 0) + data

for line in sys.stdin:
    req = json.loads(line)
    op = req.get("op")
    if op == "hello":
        ans = {"name": "enc.py"}
        if NO_NEVER_INDEX:
            ans["lacks"] = ["never-index"]
    elif op == "new":
        ans = {}
    elif op == "encode":
        wire = b""
        sizes = req["table_sizes"]
        if sizes:
            wire += integer(min(sizes), 5, 0x20)
            if sizes[-1] != min(sizes):
                wire += integer(sizes[-1], 5, 0x20)
        for (name, value), sensitive in zip(req["headers"], req["sensitive"]):
            first = 0x10 if sensitive and not BUG else 0x00
            wire += bytes([first]) + string(name) + string(value)
        ans = {"wire": wire.hex()}
    else:
        ans = {"error": "unknown op %r" % op}
    sys.stdout.write(json.dumps(ans) + "\n")
    sys.stdout.flush()
