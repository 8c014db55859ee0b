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
package targets
