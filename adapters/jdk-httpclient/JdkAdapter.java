import hpackstdio.Stdio;
import java.nio.ByteBuffer;
import java.util.Arrays;
import jdk.internal.net.http.hpack.Encoder;

/**
 * hpack-stdio adapter for OpenJDK's own HPACK encoder,
 * jdk.internal.net.http.hpack.Encoder of the java.net.http module: the
 * encoder java.net.http.HttpClient writes its HTTP/2 requests with. The
 * package is not exported; the adapter is compiled and run with
 * --add-exports java.net.http/jdk.internal.net.http.hpack=ALL-UNNAMED. A
 * fresh encoder per "new", made as Http2Connection makes it: new
 * Encoder(4096), the peer's SETTINGS_HEADER_TABLE_SIZE before its SETTINGS
 * arrive. Each acknowledged size through setMaxCapacity, in order; each field
 * through header(name, value, sensitive), the sensitive flag being the
 * encoder's own never-index API; then encode(ByteBuffer), as
 * Http2Connection.encodeHeadersImpl does, into a buffer large enough that
 * it writes each field in one call. Octets travel as chars
 * 0-255, the form the encoder writes back one octet each. The answer to
 * hello declares what the API cannot express: a block without fields
 * (encode throws IllegalStateException unless a header was set up first).
 * Its name carries the JDK's feature release (17); the update release is in
 * the matrix's version column.
 */
public final class JdkAdapter {
    public static void main(String[] args) throws Exception {
        String[] lacks = {"empty-block"};
        // The feature release only: the JDK a machine has preinstalled, not
        // the project, decides its update release, and adapters/declared.txt
        // names this encoder.
        String name = "openjdk java.net.http hpack " + Runtime.version().feature();
        Stdio.serve(name, true, lacks, new int[0][], () -> {
            Encoder enc = new Encoder(4096);
            return block -> {
                if (block.names.length == 0) {
                    throw new Stdio.Unsupported("a block without fields (encode needs a field set up: empty-block)");
                }
                for (long size : block.tableSizes) {
                    if (size > Integer.MAX_VALUE) {
                        throw new Stdio.Unsupported("a table size above 2^31-1 (setMaxCapacity takes an int)");
                    }
                }
                for (long size : block.tableSizes) {
                    enc.setMaxCapacity((int) size);
                }
                int room = 1024;
                for (int i = 0; i < block.names.length; i++) {
                    room += 2 * (block.names[i].length + block.values[i].length) + 32;
                }
                ByteBuffer buf = ByteBuffer.allocate(room);
                for (int i = 0; i < block.names.length; i++) {
                    enc.header(Stdio.latin1(block.names[i]), Stdio.latin1(block.values[i]), block.sensitive[i]);
                    if (!enc.encode(buf)) {
                        throw new IllegalStateException("Encoder stopped half-way in a buffer of " + room + " octets");
                    }
                }
                return Arrays.copyOf(buf.array(), buf.position());
            };
        });
    }
}
