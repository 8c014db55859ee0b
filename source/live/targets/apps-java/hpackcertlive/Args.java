package hpackcertlive;

/** The command line of a live server app: --listen HOST:PORT --origin HOST:PORT [--cert PEM --key PEM]. */
final class Args {
    String host;
    int port;
    String origin;
    String cert;
    String key;

    private Args() {}

    static Args parse(String[] argv) {
        Args a = new Args();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            switch (argv[i]) {
                case "--listen" -> {
                    int colon = argv[i + 1].lastIndexOf(':');
                    a.host = argv[i + 1].substring(0, colon);
                    a.port = Integer.parseInt(argv[i + 1].substring(colon + 1));
                }
                case "--origin" -> a.origin = argv[i + 1];
                case "--cert" -> a.cert = argv[i + 1];
                case "--key" -> a.key = argv[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + argv[i]);
            }
        }
        if (a.host == null || a.origin == null || (a.cert == null) != (a.key == null)) {
            throw new IllegalArgumentException("usage: --listen HOST:PORT --origin HOST:PORT [--cert PEM --key PEM]");
        }
        return a;
    }

    boolean tls() {
        return cert != null;
    }
}
