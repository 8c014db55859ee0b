package hpackcertlive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.AbstractHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * An embedded Jetty 9 server, HTTP/2 only (h2c with prior knowledge, or TLS
 * with ALPN h2), whose handler answers every request with hpackcert's
 * origin's response for the same path: Jetty's HPACK encoder writes the
 * script's fields.
 */
public final class JettyServer {
    private JettyServer() {}

    public static void main(String[] argv) throws Exception {
        Args a = Args.parse(argv);
        Server server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        // The script's responses reach 48 KiB of fields.
        config.setResponseHeaderSize(256 << 10);
        config.setRequestHeaderSize(64 << 10);
        // The script's own date and server go through, not Jetty's.
        config.setSendServerVersion(false);
        config.setSendDateHeader(false);
        ServerConnector connector;
        if (a.tls()) {
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStore(Tls.keyStore(a.cert, a.key));
            ssl.setKeyStorePassword(new String(Tls.PASSWORD));
            ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            secure.setSniHostCheck(false);
            config.addCustomizer(secure);
            ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2");
            alpn.setDefaultProtocol("h2");
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                    new HTTP2ServerConnectionFactory(config));
        } else {
            connector = new ServerConnector(server, new HTTP2CServerConnectionFactory(config));
        }
        connector.setHost(a.host);
        connector.setPort(a.port);
        server.addConnector(connector);
        server.setHandler(new AbstractHandler() {
            @Override
            public void handle(String target, Request base, HttpServletRequest req, HttpServletResponse resp)
                    throws IOException {
                base.setHandled(true);
                String path = req.getRequestURI();
                if (req.getQueryString() != null) {
                    path += "?" + req.getQueryString();
                }
                List<String[]> seen = new ArrayList<>();
                seen.add(new String[] {":method", base.getMethod()});
                seen.add(new String[] {":path", base.getHttpURI().getPathQuery()});
                for (HttpField f : base.getHttpFields()) {
                    seen.add(new String[] {f.getName(), f.getValue()});
                }
                Origin.Response r = Origin.fetch(a.origin, path, seen);
                resp.setStatus(r.status());
                for (String[] f : r.fields()) {
                    // Jetty 9.4 fails the connection on a value with HTAB
                    // (its Huffman coder throws): the app sends SP instead,
                    // as the target declares.
                    f[1] = f[1].replace('\t', ' ');
                    if (f[0].equals("content-length")) {
                        resp.setContentLengthLong(Long.parseLong(f[1]));
                    } else {
                        // Raw, not through addHeader: setContentType would
                        // rewrite a content-type's parameters.
                        base.getResponse().getHttpFields().add(f[0], f[1]);
                    }
                }
                resp.getOutputStream().write(r.body());
            }
        });
        server.start();
        server.join();
    }
}
