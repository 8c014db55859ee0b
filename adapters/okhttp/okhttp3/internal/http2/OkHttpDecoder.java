package okhttp3.internal.http2;

import hpackstdio.DecoderStdio;
import java.io.IOException;
import okio.Buffer;

/**
 * hpack-stdio decoder adapter for OkHttp 3's Hpack.Reader, which is
 * package-private: this class sits in its package, okhttp3.internal.http2,
 * as the encoder adapter does (Http2Reader, in the same package, is OkHttp's
 * own caller). A Reader takes SETTINGS_HEADER_TABLE_SIZE only when it is
 * made (Http2Reader makes its Reader with the setting it advertises, never
 * changed), so each context's Reader is made as Http2Reader makes it, with
 * Reader(setting, source), at the context's first block, with that block's
 * table_size as the setting; a later block with another table_size is
 * answered {"error":"setting unsupported: ..."}. Each block
 * is written to the Reader's source, then readHeaders and
 * getAndResetHeaderList decode it. OkHttp refuses a block with an
 * IOException. It has no header-list limit and reads never-indexed literals
 * as literals without indexing (both declared); the table is the Reader's
 * dynamicTable array, newest first from nextHeaderIndex + 1.
 */
public final class OkHttpDecoder {
    public static void main(String[] args) throws Exception {
        String[] lacks = {"never-indexed", "max-header-list"};
        DecoderStdio.serve("okhttp " + args[0] + " decoder", lacks, IOException.class, () -> {
            Buffer source = new Buffer();
            Hpack.Reader[] reader = {null};
            long[] setting = {0};
            return (wire, tableSize, maxList, out) -> {
                if (reader[0] == null) {
                    reader[0] = new Hpack.Reader(Math.toIntExact(tableSize), source);
                    setting[0] = tableSize;
                } else if (tableSize != setting[0]) {
                    throw new DecoderStdio.SettingUnsupported("OkHttp's Hpack.Reader takes SETTINGS_HEADER_TABLE_SIZE only when made ("
                            + setting[0] + "), not a change to " + tableSize);
                }
                Hpack.Reader r = reader[0];
                source.write(wire);
                r.readHeaders();
                for (Header h : r.getAndResetHeaderList()) {
                    out.field(h.name.toByteArray(), h.value.toByteArray(), false);
                }
                out.showTable();
                for (int i = 0; i < r.headerCount; i++) {
                    Header h = r.dynamicTable[r.nextHeaderIndex + 1 + i];
                    out.tableEntry(h.name.toByteArray(), h.value.toByteArray());
                }
            };
        });
    }
}
