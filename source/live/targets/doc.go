// Package targets is the catalogue of hpackcert live: the HTTP/2 servers,
// proxies and clients it knows by name, how to start each on loopback,
// what each does to header lists (its Transform), whose HPACK encoder
// each holds and what that library sends never-indexed of its own accord
// (neverindex.go): everything particular to a library lives here, and
// package live keeps the generic capture.
// Go's own server, reverse proxy and client run in process; Debian's
// nginx, h2o, HAProxy, nghttpx, Apache httpd with mod_http2 and Caddy are
// started from the minimal configurations embedded from conf/ on
// loopback ports, and the clients curl and nghttp from command lines. A
// program that can take an inherited listening socket (nginx, h2o,
// HAProxy, nghttpx, lighttpd, the Node apps, hypercorn) is handed one
// hpackcert opened on a port the kernel chose, so that no other program
// can take the port first; any other is told a port that was free, and
// started again on a new one when another program took it before it
// could bind it (startListening).
//
// Capture starts a target, drives it with package live's capture engine
// and stops it.
//
// DecoderTarget and DecoderTargets make the servers and proxies decoder
// targets of the dec/ cases (live.DecoderTarget), each started on first
// use and stopped by Close; the command in decsurvey sends a handful of
// crafted blocks to every one and prints what each did.
//
// The files: targets.go (TargetSpec and the catalogue), gotargets.go
// (Go's server, reverse proxy and client, in process), debian.go (the
// Debian servers, proxies and clients started from conf/, and their
// versions), proxies2.go (the later proxies: lighttpd, Varnish, Traffic
// Server), apps.go (the apps of apps/ written out and started: Node, Bun,
// Python), servers2.go (the apps ci/live-apps.sh builds: Java, Haskell),
// clientruns.go (the runs of a client target), process.go and listen.go
// (starting a program on a loopback port, and killing it), neverindex.go
// (each library's never-index policy), decoder.go (the decoder targets)
// and decoderviews.go (how each shows the fields it decoded, and the
// cases its role cannot show).
package targets
