package okhttp3.internal.http2;

import hpackstdio.Stdio;
import java.util.ArrayList;
import java.util.List;
import okio.Buffer;
import okio.ByteString;

/**
 * hpack-stdio adapter for OkHttp 3's Hpack.Writer. Hpack and its Writer are
 * package-private, so this class sits in their package,
 * okhttp3.internal.http2 (Http2Writer, in the same package, is OkHttp's own
 * caller). A fresh Writer per "new"; each acknowledged size through
 * setHeaderTableSizeSetting in order, as Http2Writer.applyAndAckSettings
 * calls it; the fields through writeHeaders. The answer to hello declares
 * what OkHttp cannot express: no never-index API (a sensitive field is
 * written like any other), and names lowercased by writeHeaders.
 */
public final class OkHttpAdapter {
    public static void main(String[] args) throws Exception {
        String[] lacks = {"never-index", "uppercase-names"};
        Stdio.serve("okhttp " + args[0] + " (no never-index API)", true, lacks, new int[0][], () -> {
            Buffer out = new Buffer();
            Hpack.Writer writer = new Hpack.Writer(out);
            return block -> {
                for (long size : block.tableSizes) {
                    writer.setHeaderTableSizeSetting((int) size);
                }
                List<Header> fields = new ArrayList<>();
                for (int i = 0; i < block.names.length; i++) {
                    fields.add(new Header(ByteString.of(block.names[i]), ByteString.of(block.values[i])));
                }
                writer.writeHeaders(fields);
                return out.readByteArray();
            };
        });
    }
}
