package org.apache.coyote.http2;

import hpackstdio.Limits;
import hpackstdio.Stdio;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.tomcat.util.http.MimeHeaders;

/**
 * hpack-stdio adapter for Tomcat 9's org.apache.coyote.http2.HpackEncoder.
 * The class and its constructor are package-private, so this class sits in
 * their package (Http2UpgradeHandler, in the same package, is Tomcat's own
 * caller). A fresh encoder per "new"; each acknowledged size through
 * setMaxTableSize in order, as Tomcat does for the peer's
 * SETTINGS_HEADER_TABLE_SIZE; the fields as a MimeHeaders (values as chars
 * 0-255, one per octet) through encode(MimeHeaders, ByteBuffer), with a
 * buffer large enough that it never stops half-way. Tomcat has no per-field
 * never-index API, so a block with a sensitive field is answered
 * "unsupported"; so is a block it cannot write as asked: it writes the
 * pseudo-header fields (names starting with ':') before the others, it
 * lowercases names, and it reads the first character of every name (an
 * empty name throws).
 */
public final class TomcatAdapter {
    public static void main(String[] args) throws Exception {
        Stdio.serve("tomcat-coyote " + args[0] + " (no per-field never-index API)", true, () -> {
            HpackEncoder enc = new HpackEncoder();
            return block -> {
                if (block.anySensitive()) {
                    throw new Stdio.Unsupported("Tomcat's HpackEncoder has no per-field never-index API");
                }
                boolean regularSeen = false;
                for (byte[] name : block.names) {
                    if (name.length == 0) {
                        throw new Stdio.Unsupported("Tomcat's HpackEncoder cannot encode an empty name");
                    }
                    if (Limits.anyUpper(name)) {
                        throw new Stdio.Unsupported("Tomcat's HpackEncoder lowercases header names");
                    }
                    boolean pseudo = name[0] == ':';
                    if (pseudo && regularSeen) {
                        throw new Stdio.Unsupported("Tomcat's HpackEncoder writes pseudo-header fields first");
                    }
                    regularSeen |= !pseudo;
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
