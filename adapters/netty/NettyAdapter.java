import hpackstdio.Stdio;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.ReadOnlyHttp2Headers;
import io.netty.util.AsciiString;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * hpack-stdio adapter for Netty's HPACK encoder through its public API,
 * DefaultHttp2HeadersEncoder: a fresh one per "new", each acknowledged size
 * through configuration().maxHeaderTableSize in order, sensitive fields
 * through its SensitivityDetector. The fields travel in a ReadOnlyHttp2Headers
 * built with trailers(false, ...), which iterates them in the order given
 * (DefaultHttp2Headers would move pseudo-header fields first).
 */
public final class NettyAdapter {
    public static void main(String[] args) throws Exception {
        Stdio.serve("netty " + args[0], true, () -> {
            Set<CharSequence> sensitiveValues = Collections.newSetFromMap(new IdentityHashMap<>());
            Http2HeadersEncoder.SensitivityDetector detector = (name, value) -> sensitiveValues.contains(value);
            DefaultHttp2HeadersEncoder enc = new DefaultHttp2HeadersEncoder(detector);
            return block -> {
                for (long size : block.tableSizes) {
                    enc.configuration().maxHeaderTableSize(size);
                }
                AsciiString[] pairs = new AsciiString[2 * block.names.length];
                sensitiveValues.clear();
                for (int i = 0; i < block.names.length; i++) {
                    pairs[2 * i] = new AsciiString(block.names[i], true);
                    pairs[2 * i + 1] = new AsciiString(block.values[i], true);
                    if (block.sensitive[i]) {
                        sensitiveValues.add(pairs[2 * i + 1]);
                    }
                }
                ByteBuf out = Unpooled.buffer();
                enc.encodeHeaders(3, ReadOnlyHttp2Headers.trailers(false, pairs), out);
                return ByteBufUtil.getBytes(out);
            };
        });
    }
}
