package hpackcertlive;

import jakarta.servlet.http.HttpServlet;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.tomcat.util.http.MimeHeaders;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

/**
 * An embedded Tomcat 10 server whose connector takes HTTP/2 through
 * Http2Protocol (h2c with prior knowledge, or TLS with ALPN h2), with one
 * servlet that answers every request with hpackcert's origin's response for
 * the same path: Tomcat's HPACK encoder writes the script's fields.
 */
public final class TomcatServer {
    private TomcatServer() {}

    /**
     * Relays the origin's response for the request's path. A valve, not a
     * servlet: it writes the fields into the coyote response as they came,
     * where the servlet API's setContentType would rewrite a content-type's
     * parameters.
     */
    private static final class Relay extends ValveBase {
        private final String origin;

        Relay(String origin) {
            this.origin = origin;
        }

        @Override
        public void invoke(Request req, Response resp) throws IOException {
            String path = req.getRequestURI();
            if (req.getQueryString() != null) {
                path += "?" + req.getQueryString();
            }
            List<String[]> seen = new ArrayList<>();
            seen.add(new String[] {":method", req.getMethod()});
            String raw = req.getCoyoteRequest().requestURI().toString();
            String query = req.getCoyoteRequest().queryString().toString();
            seen.add(new String[] {":path", query == null || query.isEmpty() ? raw : raw + "?" + query});
            MimeHeaders in = req.getCoyoteRequest().getMimeHeaders();
            for (int i = 0; i < in.size(); i++) {
                seen.add(new String[] {in.getName(i).toString(), in.getValue(i).toString()});
            }
            Origin.Response r = Origin.fetch(origin, path, seen);
            resp.setStatus(r.status());
            MimeHeaders headers = resp.getCoyoteResponse().getMimeHeaders();
            for (String[] f : r.fields()) {
                if (f[0].equals("content-length")) {
                    resp.setContentLengthLong(Long.parseLong(f[1]));
                } else {
                    headers.addValue(f[0]).setString(f[1]);
                }
            }
            resp.getOutputStream().write(r.body());
        }
    }

    /** Answers nothing: the context needs a servlet to map requests to. */
    private static final class Unused extends HttpServlet {}

    public static void main(String[] argv) throws Exception {
        Args a = Args.parse(argv);
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("hpackcert-tomcat").toString());
        Connector connector = new Connector("HTTP/1.1");
        connector.setProperty("address", a.host);
        connector.setPort(a.port);
        // The script's requests and responses reach 48 KiB of fields.
        connector.setProperty("maxHttpHeaderSize", String.valueOf(64 << 10));
        Http2Protocol h2 = new Http2Protocol();
        // Tomcat counts a WINDOW_UPDATE frame of less than 1024 octets of
        // credit as overhead, more the smaller it is, and closes the
        // connection (GOAWAY ENHANCE_YOUR_CALM) past a threshold: the
        // script's short bodies, each credited back by hpackcert, reach it.
        // That check is off.
        h2.setOverheadWindowUpdateThreshold(0);
        connector.addUpgradeProtocol(h2);
        if (a.tls()) {
            connector.setSecure(true);
            connector.setScheme("https");
            connector.setProperty("SSLEnabled", "true");
            SSLHostConfig host = new SSLHostConfig();
            SSLHostConfigCertificate cert = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.EC);
            cert.setCertificateKeystore(Tls.keyStore(a.cert, a.key));
            cert.setCertificateKeyPassword(new String(Tls.PASSWORD));
            host.addCertificate(cert);
            connector.addSslHostConfig(host);
        }
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        Context ctx = tomcat.addContext("", null);
        Tomcat.addServlet(ctx, "unused", new Unused()).addMapping("/*");
        ctx.getPipeline().addValve(new Relay(a.origin));
        try {
            tomcat.start();
        } catch (Exception e) {
            e.printStackTrace();
            // Its connector's threads would keep the JVM running.
            System.exit(1);
        }
        tomcat.getServer().await();
    }
}
