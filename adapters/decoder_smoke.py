#!/usr/bin/python3
"""Smoke test of one decoder adapter over the decoder side of hpack-stdio/1.

    python3 adapters/decoder_smoke.py COMMAND [ARG...]
    python3 adapters/decoder_smoke.py 'node adapters/hpack-js/decoder.js'

It starts COMMAND (one argument is split as shell words), sends hello and
new, decodes the header block sequences of RFC 7541 C.3 and C.4 (requests,
table size 4096) and C.5 and C.6 (responses, table size 256), and checks every
header list, and every dynamic table the adapter shows, against the RFC's. It
then checks that the never-indexed literal of C.2.3 is marked as such (unless
hello declares "lacks":["never-indexed"]), that three invalid blocks are each
refused with {"error"} (index 0, an index past both tables, a dynamic table
size update above the acknowledged setting), and that a valid block decodes
again after "new".

A decoder may refuse C.5.1 and C.6.1 for lacking a dynamic table size update
after the setting was lowered from 4096 to 256: RFC 9113 section 4.3.1 makes
an HTTP/2 endpoint do so, RFC 7541 alone does not. That is printed as a note,
and the sequence is decoded again with the update (to 256) in front.

Exit status: 0 when every check passed; 1 when a check failed, naming each
failure and the first one last; 2 when the adapter broke the protocol
(exited, answered something that is not one JSON object, or took longer than
the timeout, 30 s by default, --timeout SECONDS to change it).
"""
import json
import os
import select
import shlex
import subprocess
import sys

# RFC 7541 C.3 and C.4: the requests, and the tables after each block
# (newest first).
AUTHORITY = (":authority", "www.example.com")
NO_CACHE = ("cache-control", "no-cache")
CUSTOM_KEY = ("custom-key", "custom-value")
REQUESTS = [
    ([(":method", "GET"), (":scheme", "http"), (":path", "/"), AUTHORITY], [AUTHORITY]),
    ([(":method", "GET"), (":scheme", "http"), (":path", "/"), AUTHORITY, NO_CACHE], [NO_CACHE, AUTHORITY]),
    ([(":method", "GET"), (":scheme", "https"), (":path", "/index.html"), AUTHORITY, CUSTOM_KEY],
     [CUSTOM_KEY, NO_CACHE, AUTHORITY]),
]

# RFC 7541 C.5 and C.6: the responses, with a table of 256 octets.
PRIVATE = ("cache-control", "private")
DATE21 = ("date", "Mon, 21 Oct 2013 20:13:21 GMT")
DATE22 = ("date", "Mon, 21 Oct 2013 20:13:22 GMT")
LOCATION = ("location", "https://www.example.com")
GZIP = ("content-encoding", "gzip")
SET_COOKIE = ("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1")
RESPONSES = [
    ([(":status", "302"), PRIVATE, DATE21, LOCATION], [LOCATION, DATE21, PRIVATE, (":status", "302")]),
    ([(":status", "307"), PRIVATE, DATE21, LOCATION], [(":status", "307"), LOCATION, DATE21, PRIVATE]),
    ([(":status", "200"), PRIVATE, DATE22, LOCATION, GZIP, SET_COOKIE], [SET_COOKIE, GZIP, DATE22]),
]

# (section, table size, expected blocks, wire of each block)
SEQUENCES = [
    ("C.3", 4096, REQUESTS, [
        "828684410f7777772e6578616d706c652e636f6d",
        "828684be58086e6f2d6361636865",
        "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565",
    ]),
    ("C.4", 4096, REQUESTS, [
        "828684418cf1e3c2e5f23a6ba0ab90f4ff",
        "828684be5886a8eb10649cbf",
        "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf",
    ]),
    ("C.5", 256, RESPONSES, [
        "4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d54"
        "6e1768747470733a2f2f7777772e6578616d706c652e636f6d",
        "4803333037c1c0bf",
        "88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f"
        "3d4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b2076"
        "657273696f6e3d31",
    ]),
    ("C.6", 256, RESPONSES, [
        "488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f"
        "0b97c8e9ae82ae43d3",
        "4883640effc1c0bf",
        "88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335df"
        "dfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007",
    ]),
]

# A dynamic table size update to 256 (RFC 7541 section 6.3: 001, 5-bit prefix).
UPDATE_TO_256 = "3fe101"

# RFC 7541 C.2.3: a Literal Header Field Never Indexed.
NEVER_INDEXED = ("C.2.3", "100870617373776f726406736563726574", [("password", "secret")])

# Blocks every decoder must refuse as a decoding error, with table size 4096.
INVALID = [
    ("index 0 (RFC 7541 section 6.1)", "80"),
    ("index 127, past both tables (section 2.3.3)", "ff00"),
    ("size update to 4097 above the setting 4096 (section 6.3)", "3fe21f82"),
]


class Breakdown(Exception):
    """The adapter broke hpack-stdio/1: exited, hung or answered garbage."""


class Adapter:
    """A started adapter, asked one request at a time."""

    def __init__(self, argv, timeout):
        self.timeout = timeout
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
        self.pending = b""
        self.count = 0

    def ask(self, request):
        """Sends request and returns the decoded answer line."""
        self.count += 1
        line = json.dumps(request)
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise Breakdown("request %d %s: the adapter closed its input (exit status %s)"
                            % (self.count, line, self.proc.poll()))
        while b"\n" not in self.pending:
            ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
            if not ready:
                raise Breakdown("request %d %s: no answer within %g s" % (self.count, line, self.timeout))
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise Breakdown("request %d %s: the adapter exited (status %s) without answering"
                                % (self.count, line, self.proc.wait()))
            self.pending += chunk
        answer, self.pending = self.pending.split(b"\n", 1)
        try:
            value = json.loads(answer)
        except ValueError as e:
            raise Breakdown("request %d %s: the answer is not JSON (%s): %r" % (self.count, line, e, answer[:200]))
        if not isinstance(value, dict):
            raise Breakdown("request %d %s: the answer is not a JSON object: %r" % (self.count, line, answer[:200]))
        return value

    def close(self):
        """Closes the adapter's input and waits for it, killing it after the timeout."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.proc.wait(self.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()


class Smoke:
    """The checks of one run, and the failures they found."""

    def __init__(self, adapter):
        self.adapter = adapter
        self.failures = []
        self.binary = False
        self.lacks = []
        self.tables_seen = 0

    def fail(self, what):
        self.failures.append(what)
        print("FAIL " + what)

    def hello(self):
        answer = self.adapter.ask({"op": "hello"})
        print("hello: %s" % json.dumps(answer))
        if answer.get("decoder") is not True:
            self.fail('hello: no "decoder":true in %s' % json.dumps(answer))
        if not isinstance(answer.get("name"), str) or not answer["name"]:
            self.fail('hello: no "name" in %s' % json.dumps(answer))
        self.binary = answer.get("binary") is True
        self.lacks = answer.get("lacks") or []

    def new(self):
        answer = self.adapter.ask({"op": "new"})
        if answer != {}:
            self.fail("new: answered %s, want {}" % json.dumps(answer))
            return False
        return True

    def decode(self, wire, table_size):
        request = {"op": "decode", "wire": wire, "table_size": table_size, "max_header_list": 0}
        if self.binary:
            request["binary"] = True
        return self.adapter.ask(request)

    def fields(self, where, answer, member):
        """Returns answer[member] as a list of (name, value) bytes pairs, or None after a failure."""
        value = answer.get(member)
        hexed = answer.get("hex") is True
        if self.binary and not hexed:
            self.fail('%s: binary was offered but the answer has no "hex":true: %s' % (where, json.dumps(answer)))
            return None
        if not isinstance(value, list):
            self.fail('%s: "%s" is not a list: %s' % (where, member, json.dumps(answer)))
            return None
        pairs = []
        for item in value:
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)):
                self.fail('%s: "%s" has %s, not a [name, value] pair' % (where, member, json.dumps(item)))
                return None
            try:
                pairs.append(tuple(bytes.fromhex(s) if hexed else s.encode() for s in item))
            except ValueError:
                self.fail('%s: "%s" has %s, not hex as "hex":true says' % (where, member, json.dumps(item)))
                return None
        return pairs

    def check(self, where, answer, headers, table, never_indexed):
        """Checks a decode answer against the RFC's; returns whether it matched."""
        if "error" in answer:
            self.fail("%s: refused a valid block: %s" % (where, answer["error"]))
            return False
        got = self.fields(where, answer, "headers")
        if got is None:
            return False
        want = [(n.encode(), v.encode()) for n, v in headers]
        if got != want:
            self.fail("%s: headers %s; want %s" % (where, show(got), show(want)))
            return False
        flags = answer.get("never_indexed")
        if flags is None:
            if "never-indexed" not in self.lacks:
                self.fail('%s: no "never_indexed", and hello does not declare "lacks":["never-indexed"]' % where)
                return False
        elif flags != never_indexed:
            self.fail("%s: never_indexed %s; want %s" % (where, json.dumps(flags), json.dumps(never_indexed)))
            return False
        if "table" in answer:
            self.tables_seen += 1
            got = self.fields(where, answer, "table")
            if got is None:
                return False
            want = [(n.encode(), v.encode()) for n, v in table]
            if got != want:
                self.fail("%s: table %s; want %s (newest first)" % (where, show(got), show(want)))
                return False
        return True

    def sequence(self, section, table_size, blocks, wires):
        """Decodes one of C.3 to C.6 in a fresh context, stopping at its first failure."""
        if not self.new():
            return
        update = ""
        for n, ((headers, table), wire) in enumerate(zip(blocks, wires), 1):
            where = "%s.%d" % (section, n)
            answer = self.decode(update + wire if n == 1 else wire, table_size)
            if n == 1 and table_size != 4096 and "error" in answer and not update:
                print("note %s: refused without a size update after the setting went from 4096 to %d "
                      "(as RFC 9113 section 4.3.1 makes an HTTP/2 endpoint do): %s; decoding %s again "
                      "with the update in front" % (where, table_size, answer["error"], section))
                if not self.new():
                    return
                update = UPDATE_TO_256
                answer = self.decode(update + wire, table_size)
            if not self.check(where, answer, headers, table, [False] * len(headers)):
                return
            print("ok %s" % where)

    def never_indexed(self):
        section, wire, headers = NEVER_INDEXED
        if not self.new():
            return
        answer = self.decode(wire, 4096)
        if "never-indexed" in self.lacks:
            ok = self.check(section, answer, headers, [], None)
            print("%s %s (never-indexed declared lacking, not checked)" % ("ok" if ok else "not ok", section))
        elif self.check(section, answer, headers, [], [True]):
            print("ok %s never-indexed" % section)

    def invalid(self):
        for what, wire in INVALID:
            if not self.new():
                return
            answer = self.decode(wire, 4096)
            if "error" in answer:
                print("ok refused %s (%s): %s" % (what, wire, answer["error"]))
            else:
                self.fail("%s (%s): accepted, answered %s; want {\"error\"}" % (what, wire, json.dumps(answer)))
        if not self.new():
            return
        headers, table = REQUESTS[0]
        if self.check("C.3.1 after new", self.decode(SEQUENCES[0][3][0], 4096), headers, table, [False] * 4):
            print("ok C.3.1 after new")


def show(pairs):
    return json.dumps([[n.decode("latin-1"), v.decode("latin-1")] for n, v in pairs])


def main(args):
    timeout = 30.0
    if args[:1] == ["--timeout"] and len(args) > 1:
        timeout, args = float(args[1]), args[2:]
    if not args:
        sys.stderr.write(__doc__)
        return 2
    argv = shlex.split(args[0]) if len(args) == 1 else args
    try:
        adapter = Adapter(argv, timeout)
    except OSError as e:
        print("BREAKDOWN cannot start %s: %s" % (argv, e))
        return 2
    smoke = Smoke(adapter)
    try:
        smoke.hello()
        for section, table_size, blocks, wires in SEQUENCES:
            smoke.sequence(section, table_size, blocks, wires)
        smoke.never_indexed()
        smoke.invalid()
    except Breakdown as e:
        print("BREAKDOWN " + str(e))
        adapter.close()
        return 2
    adapter.close()
    print("tables: %s" % ("checked in %d answers" % smoke.tables_seen if smoke.tables_seen else "not shown"))
    if smoke.failures:
        print("%d checks failed; the first: %s" % (len(smoke.failures), smoke.failures[0]))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
