package okhttp3.internal.http2;

import hpackstdio.Limits;
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
 * calls it; the fields through writeHeaders. OkHttp has no never-index API,
 * so a block with a sensitive field is answered "unsupported", and so is a
 * block with an uppercase letter in a name, which writeHeaders lowercases.
 */
public final class OkHttpAdapter {
    public static void main(String[] args) throws Exception {
        Stdio.serve("okhttp " + args[0] + " (no never-index API)", true, () -> {
            Buffer out = new Buffer();
            Hpack.Writer writer = new Hpack.Writer(out);
            return block -> {
                if (block.anySensitive()) {
                    throw new Stdio.Unsupported("OkHttp's Hpack.Writer has no never-index API");
                }
                for (byte[] name : block.names) {
                    if (Limits.anyUpper(name)) {
                        throw new Stdio.Unsupported("OkHttp's Hpack.Writer lowercases header names");
                    }
                }
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
