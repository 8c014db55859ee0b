import hpackstdio.DecoderStdio;
import java.io.IOException;
import java.nio.ByteBuffer;
import jdk.internal.net.http.hpack.Decoder;
import jdk.internal.net.http.hpack.DecodingCallback;

/**
 * hpack-stdio decoder adapter for OpenJDK's own HPACK decoder,
 * jdk.internal.net.http.hpack.Decoder of the java.net.http module (the
 * decoder java.net.http.HttpClient reads HTTP/2 responses with; its package
 * is not exported: compiled and run with --add-exports, as the encoder
 * adapter is). The decoder takes its header-list limit only when made, as
 * Http2Connection makes it, so each context's decoder is made at its first
 * block: new Decoder(4096, max_header_list, 0) (4096, the initial setting;
 * 0 is the decoder's own "no limit", for the list and for the count of
 * literals with indexing per block, which is not an HPACK setting); a later
 * block with another max_header_list is answered {"error":"setting
 * unsupported: ..."}. Each block's table_size goes through setMaxCapacity
 * when it differs from the last, the block through decode(buffer, true,
 * callback) (the whole block, its end marked). The callback records
 * onDecoded(name, value, sensitive), sensitive being true for a never-indexed
 * literal. The decoder's decoding error is an IOException (a
 * ProtocolException for the header-list limit); its table is not public, so
 * it is not shown.
 */
public final class JdkDecoder {
    public static void main(String[] args) throws Exception {
        String name = "openjdk java.net.http hpack " + Runtime.version().feature() + " decoder";
        DecoderStdio.serve(name, new String[0], IOException.class, () -> {
            Decoder[] made = {null};
            long[] last = {4096, 0};
            return (wire, tableSize, maxList, out) -> {
                if (made[0] == null) {
                    made[0] = new Decoder(4096, (int) Math.min(maxList, Integer.MAX_VALUE), 0);
                    last[1] = maxList;
                } else if (maxList != last[1]) {
                    throw new DecoderStdio.SettingUnsupported("the JDK's Decoder takes its header-list limit only when made ("
                            + last[1] + "), not a change to " + maxList);
                }
                Decoder dec = made[0];
                if (tableSize != last[0]) {
                    dec.setMaxCapacity(Math.toIntExact(tableSize));
                    last[0] = tableSize;
                }
                dec.decode(ByteBuffer.wrap(wire), true, new DecodingCallback() {
                    @Override
                    public void onDecoded(CharSequence n, CharSequence v) {
                        out.field(n, v, false);
                    }

                    @Override
                    public void onDecoded(CharSequence n, CharSequence v, boolean sensitive) {
                        out.field(n, v, sensitive);
                    }
                });
            };
        });
    }
}
