package hpackstdio;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The decoder side of hpack-stdio shared by the Java adapters: it reads one
 * JSON request per line (hello, new, decode), hands each decode request's
 * block, acknowledged table size and header-list limit to the adapter's
 * Decoder, and writes one JSON answer per line. It holds no HPACK logic.
 *
 * Hello offers the binary form, so every decode answer carries names and
 * values as lowercase hex with "hex":true, whether or not the request says
 * "binary":true: every octet survives. A request without table_size or
 * max_header_list takes a fresh context's values, 4096 and 0 (no limit).
 * An exception the library
 * throws while decoding is its refusal of the block, answered
 * {"error":"Class: message"}; the context is then dead until the next
 * "new". An exception that is not of the class the library refuses blocks
 * with (its decoding error, given by the adapter: a NullPointerException,
 * an IllegalArgumentException from a precondition) is answered the same
 * way, its text ending in " [not the library's decoding error CLASS]", so
 * the evidence shows it. A java.lang.Error (stack overflow, out of memory,
 * an adapter assertion) is not caught: the program dies, as the library
 * made it, and the certifier grades the crash.
 */
public final class DecoderStdio {
    /** What one block decoded to: the fields in order and, when the library shows them, their flags and the table. */
    public static final class Decoded {
        final List<byte[][]> fields = new ArrayList<>();
        final List<Boolean> neverIndexed = new ArrayList<>();
        List<byte[][]> table;
        long maxHeaderList;
        boolean enforced;
        long listSize;

        /**
         * Makes field enforce the block's max_header_list for a library with
         * no header-list limit of its own that hands over the fields one by
         * one: field then throws HeaderListTooLong as soon as the running
         * size (name + value + 32 per field) exceeds a nonzero limit.
         */
        public void enforceMaxHeaderList() {
            enforced = true;
        }

        /** Adds a decoded field with its never-indexed flag (false for a library that does not tell). */
        public void field(byte[] name, byte[] value, boolean never) {
            if (enforced && maxHeaderList > 0) {
                listSize += name.length + value.length + 32L;
                if (listSize > maxHeaderList) {
                    throw new HeaderListTooLong(listSize, maxHeaderList);
                }
            }
            fields.add(new byte[][] {name, value});
            neverIndexed.add(never);
        }

        /** Adds a decoded field the library gives as chars 0-255, one per octet. */
        public void field(CharSequence name, CharSequence value, boolean never) {
            field(octets(name), octets(value), never);
        }

        /** Adds the next entry of the dynamic table after the block, newest first. */
        public void tableEntry(byte[] name, byte[] value) {
            if (table == null) {
                table = new ArrayList<>();
            }
            table.add(new byte[][] {name, value});
        }

        /** Adds the next entry of the dynamic table, as chars 0-255, newest first. */
        public void tableEntry(CharSequence name, CharSequence value) {
            tableEntry(octets(name), octets(value));
        }

        /** Marks the table as shown and empty: an adapter whose library shows its table calls it before the entries. */
        public void showTable() {
            if (table == null) {
                table = new ArrayList<>();
            }
        }
    }

    /** The adapter's refusal of a header list over max_header_list, for a library with no limit of its own. */
    public static final class HeaderListTooLong extends RuntimeException {
        HeaderListTooLong(long size, long max) {
            super("header list over max_header_list " + max + " (" + size + " octets so far, name + value + 32 per field)");
        }
    }

    /**
     * Thrown by an adapter for a table_size its library cannot be given (one
     * that takes SETTINGS_HEADER_TABLE_SIZE only when made); answered
     * {"error":"setting unsupported: ..."}, a prefix no library message has.
     */
    public static final class SettingUnsupported extends RuntimeException {
        public SettingUnsupported(String what) {
            super("setting unsupported: " + what);
        }
    }

    /** An exception out of the library that is not its decoding error, answered with a mark saying so. */
    private static final class Unexpected extends Exception {
        Unexpected(Exception cause, Class<?> refusal) {
            super(cause.getClass().getName() + ": " + cause.getMessage() + " [not the library's decoding error "
                    + refusal.getName() + "]", cause);
        }
    }

    /** One decoding context of the library. */
    public interface Decoder {
        /**
         * Decodes one complete header block into out. tableSize is the
         * acknowledged SETTINGS_HEADER_TABLE_SIZE for this block and
         * maxHeaderList the SETTINGS_MAX_HEADER_LIST_SIZE (0: no limit).
         */
        void decode(byte[] wire, long tableSize, long maxHeaderList, Decoded out) throws Exception;
    }

    /** Makes a fresh library decoder for each "new". */
    public interface Factory {
        Decoder create() throws Exception;
    }

    private DecoderStdio() {
    }

    /**
     * Serves the decoder side of hpack-stdio on standard input and output
     * until the input ends. name is the hello name ("LIBRARY VERSION
     * decoder"); lacks are declared in hello as they are given:
     * "never-indexed" (the library does not tell which fields were
     * never-indexed literals: answers then carry no "never_indexed") and
     * "max-header-list" (the library has no header-list limit). refusal is
     * the class of the library's decoding errors.
     */
    public static void serve(String name, String[] lacks, Class<? extends Exception> refusal, Factory factory) throws Exception {
        boolean showsNeverIndexed = true;
        StringBuilder hb = new StringBuilder("{\"name\":").append(Stdio.Json.quote(name)).append(",\"decoder\":true,\"binary\":true");
        if (lacks.length > 0) {
            hb.append(",\"lacks\":[");
            for (int i = 0; i < lacks.length; i++) {
                hb.append(i > 0 ? "," : "").append(Stdio.Json.quote(lacks[i]));
                if ("never-indexed".equals(lacks[i])) {
                    showsNeverIndexed = false;
                }
            }
            hb.append(']');
        }
        String hello = hb.append('}').toString();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Decoder dec = null;
        String line;
        while ((line = in.readLine()) != null) {
            String answer;
            try {
                Map<String, Object> req = Stdio.Json.object(line);
                Object op = req.get("op");
                if ("hello".equals(op)) {
                    answer = hello;
                } else if ("new".equals(op)) {
                    dec = factory.create();
                    answer = "{}";
                } else if ("decode".equals(op)) {
                    if (dec == null) {
                        throw new IllegalStateException("decode without a live context (before new, or after a refused block)");
                    }
                    byte[] wire = unhex(member(req, "wire", String.class));
                    long tableSize = setting(req, "table_size", 4096);
                    long maxList = setting(req, "max_header_list", 0);
                    Decoded d = new Decoded();
                    d.maxHeaderList = maxList;
                    try {
                        dec.decode(wire, tableSize, maxList, d);
                    } catch (Exception e) {
                        dec = null;
                        if (!refusal.isInstance(e) && !(e instanceof HeaderListTooLong) && !(e instanceof SettingUnsupported)) {
                            throw new Unexpected(e, refusal);
                        }
                        throw e;
                    }
                    answer = answer(d, showsNeverIndexed);
                } else {
                    answer = error("unknown op " + op);
                }
            } catch (HeaderListTooLong | SettingUnsupported | Unexpected e) {
                answer = error(e.getMessage());
            } catch (Exception e) {
                answer = error(e.getClass().getName() + ": " + e.getMessage());
            }
            out.print(answer);
            out.print('\n');
            out.flush();
        }
    }

    private static <T> T member(Map<String, Object> req, String key, Class<T> type) {
        Object v = req.get(key);
        if (!type.isInstance(v)) {
            throw new IllegalArgumentException("decode request: \"" + key + "\" is missing or not a " + type.getSimpleName());
        }
        return type.cast(v);
    }

    /** The integer member key of a decode request, 0 to 2^32-1, or absent of a fresh context's value. */
    private static long setting(Map<String, Object> req, String key, long absent) {
        if (!req.containsKey(key)) {
            return absent;
        }
        double v = member(req, key, Number.class).doubleValue();
        if (v < 0 || v > 0xffffffffL || v != Math.rint(v)) {
            throw new IllegalArgumentException("decode request: \"" + key + "\" is " + v + ", not an integer from 0 to 2^32-1");
        }
        return (long) v;
    }

    private static String answer(Decoded d, boolean showsNeverIndexed) {
        StringBuilder sb = new StringBuilder("{\"headers\":");
        pairs(sb, d.fields);
        if (showsNeverIndexed) {
            sb.append(",\"never_indexed\":[");
            for (int i = 0; i < d.neverIndexed.size(); i++) {
                sb.append(i > 0 ? "," : "").append(d.neverIndexed.get(i));
            }
            sb.append(']');
        }
        if (d.table != null) {
            sb.append(",\"table\":");
            pairs(sb, d.table);
        }
        sb.append(",\"hex\":true");
        return sb.append('}').toString();
    }

    private static void pairs(StringBuilder sb, List<byte[][]> list) {
        sb.append('[');
        for (int i = 0; i < list.size(); i++) {
            byte[][] p = list.get(i);
            sb.append(i > 0 ? "," : "").append('[').append(hex(p[0])).append(',').append(hex(p[1])).append(']');
        }
        sb.append(']');
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(2 + 2 * b.length).append('"');
        for (byte x : b) {
            sb.append(DIGITS.charAt((x >> 4) & 0xf)).append(DIGITS.charAt(x & 0xf));
        }
        return sb.append('"').toString();
    }

    private static final String DIGITS = "0123456789abcdef";

    private static byte[] unhex(String s) {
        if (s.length() % 2 != 0) {
            throw new IllegalArgumentException("decode request: \"wire\" has an odd number of hex digits (" + s.length() + ")");
        }
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            int hi = Character.digit(s.charAt(2 * i), 16);
            int lo = Character.digit(s.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("decode request: \"wire\" has a non-hex digit at offset " + (2 * i));
            }
            b[i] = (byte) (hi << 4 | lo);
        }
        return b;
    }

    /**
     * The octets of a name or value a library gives as chars 0-255, one per
     * octet. A char above 255 is not an octet the library decoded (Tomcat
     * sign-extends octets 0x80-0xff to U+FF80-U+FFFF): it is sent as its
     * UTF-8 octets, so the answer differs from the block's octets as the
     * library's string does, and is never mapped back onto one octet.
     */
    static byte[] octets(CharSequence s) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0xff) {
                b.write(c);
            } else {
                byte[] u = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                b.write(u, 0, u.length);
            }
        }
        return b.toByteArray();
    }

    private static String error(String text) {
        return "{\"error\":" + Stdio.Json.quote(text) + "}";
    }
}
