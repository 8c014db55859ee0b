package org.apache.coyote.http2;

import hpackstdio.Stdio;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.tomcat.util.http.MimeHeaders;

/**
 * hpack-stdio adapter for Tomcat 10.1's org.apache.coyote.http2.HpackEncoder.
 * The class and its constructor are package-private, so this class sits in
 * their package (Http2UpgradeHandler, in the same package, is Tomcat's own
 * caller). A fresh encoder per "new"; each acknowledged size through
 * setMaxTableSize in order, as Tomcat does for the peer's
 * SETTINGS_HEADER_TABLE_SIZE; the fields as a MimeHeaders (values as chars
 * 0-255, one per octet) through encode(MimeHeaders, ByteBuffer), the call
 * Tomcat's HTTP/2 code makes (it lowercases names; the three-argument form
 * that can leave them alone is, in Tomcat's words, for tests of invalid
 * input), with a buffer large enough that it never stops half-way. The
 * answer to hello declares what Tomcat cannot express: no per-field
 * never-index API (a sensitive field is written like any other), the
 * pseudo-header fields (names starting with ':') written before the others,
 * names lowercased, and no field with an empty name (Tomcat reads the first
 * character of every name: an empty name throws).
 */
public final class Tomcat10Adapter {
    public static void main(String[] args) throws Exception {
        String[] lacks = {"never-index", "pseudo-first", "uppercase-names", "empty-name"};
        Stdio.serve("tomcat-coyote " + args[0] + " (no per-field never-index API)", true, lacks, new int[0][], () -> {
            HpackEncoder enc = new HpackEncoder();
            return block -> {
                for (long size : block.tableSizes) {
                    if (size > Integer.MAX_VALUE) {
                        throw new Stdio.Unsupported("a table size above 2^31-1 (setMaxTableSize takes an int)");
                    }
                }
                for (long size : block.tableSizes) {
                    enc.setMaxTableSize((int) size);
                }
                MimeHeaders headers = new MimeHeaders();
                int room = 1024;
                for (int i = 0; i < block.names.length; i++) {
                    headers.addValue(Stdio.latin1(block.names[i])).setString(Stdio.latin1(block.values[i]));
                    room += 4 * (block.names[i].length + block.values[i].length) + 32;
                }
                ByteBuffer buf = ByteBuffer.allocate(room);
                if (enc.encode(headers, buf) != HpackEncoder.State.COMPLETE) {
                    throw new IllegalStateException("HpackEncoder stopped half-way in a buffer of " + room + " octets");
                }
                return Arrays.copyOf(buf.array(), buf.position());
            };
        });
    }
}
