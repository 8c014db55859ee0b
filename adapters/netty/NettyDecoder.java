import hpackstdio.DecoderStdio;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import java.util.ArrayList;
import java.util.List;

/**
 * hpack-stdio decoder adapter for Netty's HPACK decoder through its public
 * API, DefaultHttp2HeadersDecoder, without HTTP/2 header validation (the
 * certifier grades HPACK, not header names): a fresh one per "new", each
 * block's table_size through configuration().maxHeaderTableSize when it
 * differs from the last, max_header_list through
 * configuration().maxHeaderListSize (0, no limit, is Netty's largest,
 * 2^32-1). The fields are taken in the order the decoder adds them, from the
 * Http2Headers that newHeaders() makes (DefaultHttp2Headers would move
 * pseudo-header fields first). Netty does not tell never-indexed literals
 * apart and does not show its dynamic table.
 */
public final class NettyDecoder {
    /** A DefaultHttp2HeadersDecoder whose headers record each field the HPACK decoder adds, in order. */
    static final class Recording extends DefaultHttp2HeadersDecoder {
        final List<CharSequence[]> added = new ArrayList<>();

        Recording() {
            super(false);
        }

        @Override
        protected Http2Headers newHeaders() {
            return new DefaultHttp2Headers(false) {
                @Override
                public Http2Headers add(CharSequence name, CharSequence value) {
                    added.add(new CharSequence[] {name, value});
                    return this;
                }
            };
        }
    }

    public static void main(String[] args) throws Exception {
        DecoderStdio.serve("netty " + args[0] + " decoder", new String[] {"never-indexed"}, Http2Exception.class, () -> {
            Recording dec = new Recording();
            long[] last = {Http2CodecUtil.DEFAULT_HEADER_TABLE_SIZE, -1};
            return (wire, tableSize, maxList, out) -> {
                if (tableSize != last[0]) {
                    dec.configuration().maxHeaderTableSize(tableSize);
                    last[0] = tableSize;
                }
                long list = maxList == 0 ? Http2CodecUtil.MAX_HEADER_LIST_SIZE : maxList;
                if (list != last[1]) {
                    dec.configuration().maxHeaderListSize(list, list);
                    last[1] = list;
                }
                dec.added.clear();
                dec.decodeHeaders(3, Unpooled.wrappedBuffer(wire));
                for (CharSequence[] f : dec.added) {
                    out.field(octets(f[0]), octets(f[1]), false);
                }
            };
        });
    }

    private static byte[] octets(CharSequence s) {
        return AsciiString.of(s).toByteArray();
    }
}
