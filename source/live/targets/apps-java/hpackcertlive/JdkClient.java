package hpackcertlive;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * OpenJDK's java.net.http.HttpClient as an HTTP/2 client for hpackcert live:
 * it requests each URL in turn on one client, each request with the fields
 * of the --headers file (a hex-coded name and value a line, octets read as
 * ISO-8859-1), and discards the bodies.
 *
 * <p>Usage: JdkClient --headers FILE URL...
 */
public final class JdkClient {
    private JdkClient() {}

    /** Trusts every certificate: hpackcert's server has one of its own making. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    public static void main(String[] argv) throws Exception {
        if (argv.length < 3 || !argv[0].equals("--headers")) {
            System.err.println("usage: JdkClient --headers FILE URL...");
            System.exit(2);
        }
        List<String[]> fields = new ArrayList<>();
        HexFormat hex = HexFormat.of();
        for (String line : Files.readAllLines(Path.of(argv[1]), StandardCharsets.ISO_8859_1)) {
            String[] words = line.split(" ", -1);
            if (words.length != 2) {
                throw new IllegalArgumentException("headers file: bad line " + line);
            }
            fields.add(new String[] {
                new String(hex.parseHex(words[0]), StandardCharsets.ISO_8859_1),
                new String(hex.parseHex(words[1]), StandardCharsets.ISO_8859_1)
            });
        }
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(tls)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        for (int i = 2; i < argv.length; i++) {
            HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(argv[i])).timeout(Duration.ofSeconds(30)).GET();
            for (String[] f : fields) {
                req.header(f[0], f[1]);
            }
            HttpResponse<byte[]> resp = client.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (resp.version() != HttpClient.Version.HTTP_2) {
                throw new IllegalStateException(argv[i] + ": answered over " + resp.version() + ", not HTTP/2");
            }
        }
    }
}
