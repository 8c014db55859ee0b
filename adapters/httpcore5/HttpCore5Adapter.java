import hpackstdio.Stdio;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.apache.hc.core5.http2.hpack.HPackEncoder;
import org.apache.hc.core5.util.ByteArrayBuffer;

/**
 * hpack-stdio adapter for Apache HttpCore 5's org.apache.hc.core5.http2.hpack.HPackEncoder
 * (public API): a fresh encoder per "new" with the charset HttpCore's own
 * HTTP/2 code passes by default (US-ASCII: each char written as one octet, so
 * octets travel as chars 0-255) and set to the initial table size, 4096,
 * as its HTTP/2 multiplexer does on creating it; each acknowledged size through
 * setMaxTableSize in order, as its HTTP/2 multiplexer calls it on the peer's
 * SETTINGS; each field as a BasicHeader whose sensitive flag is the request's
 * (HttpCore's never-index API), the block through
 * encodeHeaders(ByteArrayBuffer, List, true), the call its HTTP/2
 * multiplexer makes. encodeHeaders refuses an empty list, so the answer to
 * hello declares that a block without fields cannot be written.
 */
public final class HttpCore5Adapter {
    public static void main(String[] args) throws Exception {
        Stdio.serve("httpcore5-h2 " + args[0], true, new String[] {"empty-block"}, new int[0][], () -> {
            HPackEncoder enc = new HPackEncoder(StandardCharsets.US_ASCII);
            // The encoder's table starts unbounded; AbstractH2StreamMultiplexer
            // sets it to the initial SETTINGS_HEADER_TABLE_SIZE at once.
            enc.setMaxTableSize(4096);
            return block -> {
                for (long size : block.tableSizes) {
                    enc.setMaxTableSize((int) size);
                }
                List<Header> headers = new ArrayList<>();
                for (int i = 0; i < block.names.length; i++) {
                    headers.add(new BasicHeader(Stdio.latin1(block.names[i]), Stdio.latin1(block.values[i]), block.sensitive[i]));
                }
                ByteArrayBuffer out = new ByteArrayBuffer(256);
                enc.encodeHeaders(out, headers, true);
                return Arrays.copyOf(out.array(), out.length());
            };
        });
    }
}
