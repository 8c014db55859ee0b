package hpackcertlive;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/** Loads hpackcert's certificate and its PKCS#8 EC key into a key store. */
final class Tls {
    static final char[] PASSWORD = "hpackcert".toCharArray();

    private Tls() {}

    static KeyStore keyStore(String certPath, String keyPath) throws Exception {
        Certificate cert = CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(Path.of(certPath))));
        String pem = Files.readString(Path.of(keyPath))
                .replaceAll("-----[A-Z ]+-----", "")
                .replaceAll("\\s", "");
        PrivateKey key = KeyFactory.getInstance("EC")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("hpackcert", key, PASSWORD, new Certificate[] {cert});
        return ks;
    }
}
