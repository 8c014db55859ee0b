# Varnish (HTTP/2 with its own HPACK encoder, -p feature=+http2) as a
# reverse proxy in front of hpackcert's origin, for hpackcert live
# --target varnish. Filled in by source/live/targets: the origin. Varnish
# reaches it over HTTP/1.1; every request is passed, nothing cached.
vcl 4.1;

backend origin {
	.host = "127.0.0.1";
	.port = "{{.OriginPort}}";
}

sub vcl_recv {
	return (pass);
}
