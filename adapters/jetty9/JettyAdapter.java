import hpackstdio.Stdio;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.hpack.HpackEncoder;

/**
 * hpack-stdio adapter for Jetty 9.4's org.eclipse.jetty.http2.hpack.HpackEncoder
 * (public API): a fresh encoder per "new"; each acknowledged size n, in order,
 * through setMaxTableCapacity(n) and setTableCapacity(min(n, 4096)), the two
 * calls HTTP2Session makes for each SETTINGS_HEADER_TABLE_SIZE it receives
 * (4096 being its default maxEncoderTableCapacity). A block is what Jetty's
 * encode(ByteBuffer, MetaData) writes: its size-update check, run here on a
 * MetaData without fields, then each field through encode(ByteBuffer,
 * HttpField), the call encode(MetaData) makes for each field (encode(MetaData)
 * itself would drop connection-specific fields such as "connection" and
 * "keep-alive", which HTTP/2 forbids but HPACK does not). The answer to hello
 * declares what Jetty cannot express: no per-field never-index API (it
 * decides by name: a sensitive field goes through encode(HttpField) like any
 * other), names lowercased, and the octets below 0x20 and above 0x7f, which
 * its encoder refuses (IllegalArgumentException). Octets travel as chars
 * 0-255.
 */
public final class JettyAdapter {
    public static void main(String[] args) throws Exception {
        String[] lacks = {"never-index", "uppercase-names"};
        int[][] refuses = {{0x00, 0x1f}, {0x80, 0xff}};
        Stdio.serve("jetty-http2-hpack " + args[0] + " (no per-field never-index API)", true, lacks, refuses, () -> {
            HpackEncoder enc = new HpackEncoder();
            return block -> {
                for (long size : block.tableSizes) {
                    enc.setMaxTableCapacity((int) size);
                    enc.setTableCapacity((int) Math.min(size, 4096));
                }
                int room = 1024;
                for (int i = 0; i < block.names.length; i++) {
                    room += 4 * (block.names[i].length + block.values[i].length) + 16;
                }
                ByteBuffer buf = ByteBuffer.allocate(room);
                enc.encode(buf, new MetaData(HttpVersion.HTTP_2, new HttpFields()));
                for (int i = 0; i < block.names.length; i++) {
                    enc.encode(buf, new HttpField(Stdio.latin1(block.names[i]), Stdio.latin1(block.values[i])));
                }
                return Arrays.copyOf(buf.array(), buf.position());
            };
        });
    }
}
