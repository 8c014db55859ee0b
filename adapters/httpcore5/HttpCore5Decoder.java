import hpackstdio.DecoderStdio;
import java.nio.ByteBuffer;
import java.nio.charset.CharsetDecoder;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.http2.hpack.HPackDecoder;
import org.apache.hc.core5.http2.hpack.HPackException;

/**
 * hpack-stdio decoder adapter for Apache HttpCore 5's
 * org.apache.hc.core5.http2.hpack.HPackDecoder (public API): a fresh decoder
 * per "new", made as HttpCore's HTTP/2 multiplexer makes it by default (no
 * CharsetDecoder, the one CharCodingConfig.DEFAULT gives: each octet becomes
 * the char of its value, so octets travel as chars 0-255) and set, as the
 * multiplexer sets it on creating it, to H2Config.INIT's table size and
 * list size (4096, no limit); each block's table_size through setMaxTableSize and max_header_list through
 * setMaxListSize when they differ from the last, the calls the multiplexer
 * makes for its local settings (0, no limit, becomes Integer.MAX_VALUE,
 * HttpCore's own "no limit"); the block through decodeHeaders. A
 * never-indexed literal comes back as a Header whose isSensitive() is true.
 * HttpCore refuses a block with an HPackException; its dynamic table is not
 * public, so it is not shown.
 */
public final class HttpCore5Decoder {
    public static void main(String[] args) throws Exception {
        DecoderStdio.serve("httpcore5-h2 " + args[0] + " decoder", new String[0], HPackException.class, () -> {
            HPackDecoder dec = new HPackDecoder((CharsetDecoder) null);
            dec.setMaxTableSize(H2Config.INIT.getHeaderTableSize());
            dec.setMaxListSize(H2Config.INIT.getMaxHeaderListSize());
            long[] last = {dec.getMaxTableSize(), dec.getMaxListSize()};
            return (wire, tableSize, maxList, out) -> {
                if (tableSize != last[0]) {
                    dec.setMaxTableSize(Math.toIntExact(tableSize));
                    last[0] = tableSize;
                }
                long list = maxList == 0 ? Integer.MAX_VALUE : Math.min(maxList, Integer.MAX_VALUE);
                if (list != last[1]) {
                    dec.setMaxListSize((int) list);
                    last[1] = list;
                }
                for (Header h : dec.decodeHeaders(ByteBuffer.wrap(wire))) {
                    out.field(h.getName(), h.getValue() == null ? "" : h.getValue(), h.isSensitive());
                }
            };
        });
    }
}
