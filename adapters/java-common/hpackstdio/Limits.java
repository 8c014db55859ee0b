package hpackstdio;

/** Checks the Java adapters make before handing a block to a library that cannot encode it as asked. */
public final class Limits {
    private Limits() {
    }

    /** Reports whether any octet of b is below min or above max. */
    public static boolean anyOutside(byte[] b, int min, int max) {
        for (byte x : b) {
            if ((x & 0xff) < min || (x & 0xff) > max) {
                return true;
            }
        }
        return false;
    }

    /** Reports whether b holds an ASCII uppercase letter. */
    public static boolean anyUpper(byte[] b) {
        for (byte x : b) {
            if (x >= 'A' && x <= 'Z') {
                return true;
            }
        }
        return false;
    }
}
