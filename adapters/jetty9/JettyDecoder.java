import hpackstdio.DecoderStdio;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.hpack.HpackContext;
import org.eclipse.jetty.http2.hpack.HpackDecoder;
import org.eclipse.jetty.http2.hpack.HpackException;
import org.eclipse.jetty.http2.hpack.MetaDataBuilder;

/**
 * hpack-stdio decoder adapter for Jetty 9.4's
 * org.eclipse.jetty.http2.hpack.HpackDecoder (public API): a fresh decoder
 * per "new", each block's table_size through setMaxTableCapacity when
 * it differs from the last (the bound Jetty checks size updates against),
 * max_header_list through setMaxHeaderListSize (0, no limit, becomes
 * Integer.MAX_VALUE: Jetty's 0 would still refuse a block over 0 octets).
 *
 * decode returns a MetaData, which keeps the pseudo-header fields apart from
 * the others and loses their order; the fields are therefore taken, in
 * order, from the decoder's MetaDataBuilder, which the adapter replaces (by
 * reflection, its private field _builder) with a subclass that records each
 * field emit accepts and otherwise leaves Jetty's builder as it is. Jetty
 * refuses an HPACK decoding error with a SessionException (a connection
 * error), answered {"error"}; a StreamException is its HTTP/2 verdict on a
 * block it decoded (a pseudo-header after a field, a connection-specific or
 * uppercase name: the stream is reset, the connection and its table live
 * on), so the block's recorded fields are answered. Jetty does not tell
 * never-indexed literals apart; the table is read from its public
 * HpackContext (indices 62 on, newest first).
 */
public final class JettyDecoder {
    /** Jetty's MetaDataBuilder, recording each field it is given after its own checks accepted it. */
    static final class Recording extends MetaDataBuilder {
        final List<HttpField> emitted = new ArrayList<>();

        Recording(int maxSize) {
            super(maxSize);
        }

        @Override
        public void emit(HttpField field) throws HpackException.SessionException {
            super.emit(field);
            emitted.add(field);
        }
    }

    public static void main(String[] args) throws Exception {
        Field builderField = HpackDecoder.class.getDeclaredField("_builder");
        builderField.setAccessible(true);
        DecoderStdio.serve("jetty-http2-hpack " + args[0] + " decoder", new String[] {"never-indexed"}, HpackException.SessionException.class, () -> {
            HpackDecoder dec = new HpackDecoder(HpackContext.DEFAULT_MAX_TABLE_CAPACITY, Integer.MAX_VALUE);
            Recording rec = new Recording(Integer.MAX_VALUE);
            builderField.set(dec, rec);
            long[] last = {HpackContext.DEFAULT_MAX_TABLE_CAPACITY, -1};
            return (wire, tableSize, maxList, out) -> {
                if (tableSize != last[0]) {
                    dec.setMaxTableCapacity(Math.toIntExact(tableSize));
                    last[0] = tableSize;
                }
                long list = maxList == 0 ? Integer.MAX_VALUE : Math.min(maxList, Integer.MAX_VALUE);
                if (list != last[1]) {
                    dec.setMaxHeaderListSize((int) list);
                    last[1] = list;
                }
                rec.emitted.clear();
                try {
                    MetaData unused = dec.decode(ByteBuffer.wrap(wire));
                } catch (HpackException.StreamException e) {
                    System.err.println("jetty9 decoder: answering the decoded fields of a block Jetty reset the stream for: " + e.getMessage());
                }
                for (HttpField f : rec.emitted) {
                    out.field(f.getName(), f.getValue() == null ? "" : f.getValue(), false);
                }
                HpackContext ctx = dec.getHpackContext();
                out.showTable();
                for (int i = 0; i < ctx.size(); i++) {
                    HttpField f = ctx.get(HpackContext.STATIC_SIZE + 1 + i).getHttpField();
                    out.tableEntry(f.getName(), f.getValue() == null ? "" : f.getValue());
                }
            };
        });
    }
}
