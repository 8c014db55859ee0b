package hpackcertlive;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Fetches hpackcert's scripted response for a path from its origin over
 * HTTP/1.1, octet for octet: the live server apps answer each request with
 * the origin's status, fields (in order, repeats kept, every octet a char of
 * ISO-8859-1) and body.
 */
final class Origin {
    /** Bounds what one response may hold, head and body. */
    private static final int MAX_RESPONSE = 1 << 20;

    /** One HTTP/1.1 response as the origin wrote it. */
    record Response(int status, List<String[]> fields, byte[] body) {}

    private Origin() {}

    /**
     * Fetches path from the origin at host:port, on a connection of its
     * own, echoing to it the fields the app was given (the origin's echo,
     * source/live/decoderorigin.go): each as hex(name)=hex(value), separated
     * by commas, every char an octet of ISO-8859-1.
     */
    static Response fetch(String addr, String path, List<String[]> seen) throws IOException {
        int colon = addr.lastIndexOf(':');
        String host = addr.substring(0, colon);
        int port = Integer.parseInt(addr.substring(colon + 1));
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 10_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            String request = "GET " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nConnection: close\r\n"
                    + "x-hpackcert-echo: " + echo(seen) + "\r\n\r\n";
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] all = in.readNBytes(MAX_RESPONSE);
            return parse(all);
        }
    }

    private static String echo(List<String[]> seen) {
        StringBuilder b = new StringBuilder();
        for (String[] f : seen) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(hex(f[0])).append('=').append(hex(f[1]));
        }
        return b.toString();
    }

    private static String hex(String s) {
        StringBuilder b = new StringBuilder();
        for (byte o : s.getBytes(StandardCharsets.ISO_8859_1)) {
            b.append(String.format("%02x", o & 0xff));
        }
        return b.toString();
    }

    private static Response parse(byte[] all) throws IOException {
        int end = -1;
        for (int i = 0; i + 3 < all.length; i++) {
            if (all[i] == '\r' && all[i + 1] == '\n' && all[i + 2] == '\r' && all[i + 3] == '\n') {
                end = i;
                break;
            }
        }
        if (end < 0) {
            throw new IOException("origin: no end of the response head in " + all.length + " octets");
        }
        String[] lines = new String(all, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
            throw new IOException("origin: bad status line " + lines[0]);
        }
        int status = Integer.parseInt(statusLine[1]);
        List<String[]> fields = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                throw new IOException("origin: bad field line " + lines[i]);
            }
            String name = lines[i].substring(0, colon).toLowerCase(java.util.Locale.ROOT);
            String value = lines[i].substring(colon + 1).strip();
            fields.add(new String[] {name, value});
        }
        byte[] body = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        return new Response(status, fields, body);
    }
}
