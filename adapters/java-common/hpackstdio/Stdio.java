package hpackstdio;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hpack-stdio loop shared by the Java adapters: it reads one JSON request
 * per line, hands an encode request to the adapter's Encoder as octets, and
 * writes one JSON answer per line. It holds no HPACK logic.
 */
public final class Stdio {
    /** One block's request: acknowledged sizes, fields as octets, sensitivity flags. */
    public static final class Block {
        public final long[] tableSizes;
        public final byte[][] names;
        public final byte[][] values;
        public final boolean[] sensitive;

        Block(long[] tableSizes, byte[][] names, byte[][] values, boolean[] sensitive) {
            this.tableSizes = tableSizes;
            this.names = names;
            this.values = values;
            this.sensitive = sensitive;
        }

        public boolean anySensitive() {
            for (boolean s : sensitive) {
                if (s) {
                    return true;
                }
            }
            return false;
        }

        /** The smallest acknowledged size, or -1 when none was acknowledged. */
        public long smallestSize() {
            long min = -1;
            for (long n : tableSizes) {
                if (min < 0 || n < min) {
                    min = n;
                }
            }
            return min;
        }
    }

    /** One encoding context of the library. */
    public interface Encoder {
        byte[] encode(Block block) throws Exception;
    }

    /** Makes a fresh library encoder for each "new". */
    public interface Factory {
        Encoder create() throws Exception;
    }

    /**
     * Thrown for a request the library's API cannot express in a way that
     * could not be declared in advance; answered as "unsupported: ...".
     */
    public static final class Unsupported extends Exception {
        public Unsupported(String what) {
            super(what);
        }
    }

    private Stdio() {
    }

    /** Serves hpack-stdio on standard input and output until the input ends, declaring no lacks. */
    public static void serve(String name, boolean binary, Factory factory) throws IOException {
        serve(name, binary, new String[0], new int[0][], factory);
    }

    /**
     * Serves hpack-stdio on standard input and output until the input ends,
     * declaring in the answer to hello what the library cannot express: the
     * lacks by name ("never-index", "pseudo-first", ...) and the octet ranges
     * {lo, hi} it refuses.
     */
    public static void serve(String name, boolean binary, String[] lacks, int[][] refuses, Factory factory) throws IOException {
        String hello = hello(name, binary, lacks, refuses);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Encoder enc = null;
        String line;
        while ((line = in.readLine()) != null) {
            String answer;
            try {
                Map<String, Object> req = Json.object(line);
                Object op = req.get("op");
                if ("hello".equals(op)) {
                    answer = hello;
                } else if ("new".equals(op)) {
                    enc = factory.create();
                    answer = "{}";
                } else if ("encode".equals(op)) {
                    if (enc == null) {
                        throw new IllegalStateException("encode before new");
                    }
                    answer = "{\"wire\":\"" + hex(enc.encode(block(req))) + "\"}";
                } else {
                    answer = error("unknown op " + op);
                }
            } catch (Unsupported e) {
                answer = "{\"unsupported\":" + Json.quote(e.getMessage()) + "}";
            } catch (Exception e) {
                answer = error(e.toString());
            }
            out.print(answer);
            out.print('\n');
            out.flush();
        }
    }

    private static String hello(String name, boolean binary, String[] lacks, int[][] refuses) {
        StringBuilder sb = new StringBuilder("{\"name\":").append(Json.quote(name));
        if (binary) {
            sb.append(",\"binary\":true");
        }
        if (lacks.length > 0) {
            sb.append(",\"lacks\":[");
            for (int i = 0; i < lacks.length; i++) {
                sb.append(i > 0 ? "," : "").append(Json.quote(lacks[i]));
            }
            sb.append(']');
        }
        if (refuses.length > 0) {
            sb.append(",\"refuses\":[");
            for (int i = 0; i < refuses.length; i++) {
                sb.append(i > 0 ? "," : "").append('[').append(refuses[i][0]).append(',').append(refuses[i][1]).append(']');
            }
            sb.append(']');
        }
        return sb.append('}').toString();
    }

    private static String error(String text) {
        return "{\"error\":" + Json.quote(text) + "}";
    }

    private static Block block(Map<String, Object> req) {
        boolean binary = Boolean.TRUE.equals(req.get("binary"));
        List<?> sizes = (List<?>) req.get("table_sizes");
        List<?> headers = (List<?>) req.get("headers");
        List<?> sensitive = (List<?>) req.get("sensitive");
        long[] ts = new long[sizes.size()];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = ((Number) sizes.get(i)).longValue();
        }
        byte[][] names = new byte[headers.size()][];
        byte[][] values = new byte[headers.size()][];
        boolean[] sens = new boolean[headers.size()];
        for (int i = 0; i < names.length; i++) {
            List<?> field = (List<?>) headers.get(i);
            names[i] = octets((String) field.get(0), binary);
            values[i] = octets((String) field.get(1), binary);
            sens[i] = Boolean.TRUE.equals(sensitive.get(i));
        }
        return new Block(ts, names, values, sens);
    }

    private static byte[] octets(String s, boolean binary) {
        if (!binary) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    /** Octets as a String of chars 0-255, one per octet: the form Java HPACK APIs taking Strings carry octets in. */
    public static String latin1(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return sb.toString();
    }

    /** The JSON the protocol needs: objects, arrays, strings, numbers, booleans, null. */
    static final class Json {
        private final String s;
        private int pos;

        private Json(String s) {
            this.s = s;
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> object(String line) {
            Json p = new Json(line);
            Object v = p.value();
            p.space();
            if (p.pos != line.length() || !(v instanceof Map)) {
                throw new IllegalArgumentException("not one JSON object");
            }
            return (Map<String, Object>) v;
        }

        static String quote(String text) {
            StringBuilder sb = new StringBuilder("\"");
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '"' || c == '\\') {
                    sb.append('\\').append(c);
                } else if (c < 0x20 || c > 0x7e) {
                    sb.append(String.format("\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
            return sb.append('"').toString();
        }

        private void space() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        private char next() {
            space();
            if (pos >= s.length()) {
                throw new IllegalArgumentException("JSON ends early");
            }
            return s.charAt(pos);
        }

        private void expect(char c) {
            if (next() != c) {
                throw new IllegalArgumentException("JSON: want " + c + " at " + pos);
            }
            pos++;
        }

        private Object value() {
            char c = next();
            switch (c) {
            case '{': {
                pos++;
                Map<String, Object> m = new LinkedHashMap<>();
                if (next() == '}') {
                    pos++;
                    return m;
                }
                while (true) {
                    String k = string();
                    expect(':');
                    m.put(k, value());
                    if (next() == ',') {
                        pos++;
                        continue;
                    }
                    expect('}');
                    return m;
                }
            }
            case '[': {
                pos++;
                List<Object> l = new ArrayList<>();
                if (next() == ']') {
                    pos++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    if (next() == ',') {
                        pos++;
                        continue;
                    }
                    expect(']');
                    return l;
                }
            }
            case '"':
                return string();
            default:
                return literal();
            }
        }

        private Object literal() {
            int start = pos;
            while (pos < s.length() && "{}[],: \t\r\n".indexOf(s.charAt(pos)) < 0) {
                pos++;
            }
            String w = s.substring(start, pos);
            switch (w) {
            case "true":
                return Boolean.TRUE;
            case "false":
                return Boolean.FALSE;
            case "null":
                return null;
            default:
                return Double.valueOf(w);
            }
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(pos++);
                switch (e) {
                case 'b':
                    sb.append('\b');
                    break;
                case 'f':
                    sb.append('\f');
                    break;
                case 'n':
                    sb.append('\n');
                    break;
                case 'r':
                    sb.append('\r');
                    break;
                case 't':
                    sb.append('\t');
                    break;
                case 'u':
                    sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                    pos += 4;
                    break;
                default:
                    sb.append(e);
                }
            }
        }
    }
}
