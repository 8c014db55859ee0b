package org.apache.coyote.http2;

import hpackstdio.DecoderStdio;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * hpack-stdio decoder adapter for Tomcat's org.apache.coyote.http2.HpackDecoder
 * (Tomcat 9 and 10.1: this one source is compiled against each). The class
 * and its constructor are package-private, so this class sits in their
 * package (Http2Parser and Http2UpgradeHandler, in the same package, are
 * Tomcat's own callers). The decoder takes SETTINGS_HEADER_TABLE_SIZE only
 * when made (Http2UpgradeHandler makes it with its local setting, never
 * changed), so each context's decoder is made at its first block, with that
 * block's table_size; a later block with another table_size is answered
 * {"error":"setting unsupported: ..."}.
 *
 * The fields reach a HeaderEmitter that records them, in order, without the
 * HTTP checks of Tomcat's Stream; it is set again before each block, as
 * Tomcat sets one for each header block (which restarts the decoder's
 * per-block field count and size). Around decode the adapter does what
 * Http2Parser does around it: the header-list limit is setMaxHeaderSize
 * (max_header_list; 0, no limit, is -1) and is asked after the block through
 * isHeaderSizeExceeded(0), a refusal (Tomcat counts name + value, without the
 * 32 octets of RFC 7541, and stops handing fields over once over, decoding
 * on); octets left in the buffer after decode (a block ending inside a
 * representation, which decode keeps for a CONTINUATION frame) are refused as
 * Http2Parser refuses them at the end of the headers, COMPRESSION_ERROR.
 * Tomcat's count limit (100 fields by default) is not an HPACK setting and
 * is lifted (setMaxHeaderCount(-1)). Tomcat's decoding error is
 * HpackException. It does not tell never-indexed literals apart; the table is
 * its ring buffer, newest first.
 */
public final class TomcatDecoder {
    /** A refusal Tomcat's Http2Parser makes from what the decoder tells it after the block. */
    static final class ParserRefusal extends HpackException {
        private static final long serialVersionUID = 1L;

        ParserRefusal(String what) {
            super(what);
        }
    }

    /** Records the fields the decoder hands over and the stream error it may set. */
    static final class Recorder implements HpackDecoder.HeaderEmitter {
        final List<String[]> fields = new ArrayList<>();
        StreamException streamError;

        @Override
        public void emitHeader(String name, String value) {
            fields.add(new String[] {name, value});
        }

        @Override
        public void setHeaderException(StreamException streamException) {
            streamError = streamException;
        }

        @Override
        public void validateHeaders() {
        }
    }

    public static void main(String[] args) throws Exception {
        String[] lacks = {"never-indexed"};
        DecoderStdio.serve("tomcat-coyote " + args[0] + " decoder", lacks, HpackException.class, () -> {
            HpackDecoder[] made = {null};
            long[] setting = {0};
            Recorder rec = new Recorder();
            return (wire, tableSize, maxList, out) -> {
                if (made[0] == null) {
                    made[0] = new HpackDecoder(Math.toIntExact(tableSize));
                    made[0].setMaxHeaderCount(-1);
                    setting[0] = tableSize;
                } else if (tableSize != setting[0]) {
                    throw new DecoderStdio.SettingUnsupported("Tomcat's HpackDecoder takes SETTINGS_HEADER_TABLE_SIZE only when made ("
                            + setting[0] + "), not a change to " + tableSize);
                }
                HpackDecoder dec = made[0];
                dec.setMaxHeaderSize(maxList == 0 ? -1 : (int) Math.min(maxList, Integer.MAX_VALUE));
                rec.fields.clear();
                rec.streamError = null;
                // As for each header block in Tomcat: setting the emitter starts
                // the block's field count and size (and "update at the start").
                dec.setHeaderEmitter(rec);
                ByteBuffer buf = ByteBuffer.wrap(wire);
                dec.decode(buf);
                if (buf.hasRemaining()) {
                    throw new ParserRefusal("the block ends inside a representation: " + buf.remaining()
                            + " octets left undecoded (Http2Parser: decodingDataLeft, COMPRESSION_ERROR)");
                }
                if (dec.isHeaderSizeExceeded(0)) {
                    throw new ParserRefusal("header list over max_header_list " + maxList
                            + " (isHeaderSizeExceeded, Http2Parser: headerLimitSize)");
                }
                if (rec.streamError != null) {
                    throw new ParserRefusal("stream error set by the decoder: " + rec.streamError.getMessage());
                }
                for (String[] f : rec.fields) {
                    out.field(f[0], f[1], false);
                }
                out.showTable();
                Hpack.HeaderField[] table = dec.getHeaderTable();
                int first = dec.getFirstSlotPosition();
                int filled = dec.getFilledTableSlots();
                for (int i = 1; i <= filled; i++) {
                    Hpack.HeaderField f = table[(first + filled - i) % table.length];
                    out.tableEntry(f.name, f.value);
                }
            };
        });
    }
}
