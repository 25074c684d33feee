package io.spanflight.internal.config;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * The PEM files of the OTLP certificate keys ({@code certificate}, {@code client.certificate},
 * {@code client.key}, each profiles-specific or generic), read at startup into a {@link ClientTls}
 * so that a bad file is refused with its key. A message never includes what the parser said about
 * a file's content (the file may hold a key): only the file's path, and the kind of failure.
 *
 * <p>Not API: internal to Spanflight.
 */
final class TlsFiles {
  private TlsFiles() {}

  /** The TLS setup the keys ask for; null when none is set (the JVM's defaults). */
  static ClientTls read(Settings s) {
    return read(s, OtlpSettings.keyInUse(s, "certificate"), OtlpSettings.keyInUse(s, "client.certificate"),
        OtlpSettings.keyInUse(s, "client.key"));
  }

  /** As {@link #read(Settings)}, from the three keys given: trusted certificates, client certificate and key. */
  static ClientTls read(Settings s, String caKey, String certKey, String keyKey) {
    String ca = s.string(caKey, null);
    String cert = s.string(certKey, null);
    String key = s.string(keyKey, null);
    if (ca == null && cert == null && key == null) {
      return null;
    }
    List<X509Certificate> trusted = ca == null ? null : certificates(caKey, ca);
    List<X509Certificate> chain = cert == null ? null : certificates(certKey, cert);
    PrivateKey privateKey = key == null ? null : privateKey(keyKey, key);
    if ((cert == null) != (key == null)) {
      String missing = cert == null ? certKey : keyKey;
      String given = cert == null ? keyKey : certKey;
      throw new ConfigError(missing, "", "a PEM file, because " + given + " is set");
    }
    try {
      return ClientTls.create(trusted, chain, privateKey);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new ConfigError(
          certKey, String.valueOf(cert), "a certificate matching " + keyKey + " (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static PrivateKey privateKey(String key, String file) {
    return pem(key, file, "a readable PEM file with a PKCS#8 private key (RSA or EC)", ClientTls::privateKey);
  }

  private static List<X509Certificate> certificates(String key, String file) {
    return pem(key, file, "a readable PEM file with X.509 certificates", ClientTls::certificates);
  }

  /** Reads one PEM file of {@code key}'s kind (the parsers of {@link ClientTls}). */
  private interface PemParser<T> {
    T parse(Path pem) throws IOException, GeneralSecurityException;
  }

  private static <T> T pem(String key, String file, String expected, PemParser<T> parser) {
    Path path = pemFile(key, file);
    try {
      return parser.parse(path);
    } catch (IOException e) {
      throw new ConfigError(key, file, expected + ": cannot read it (" + e.getClass().getSimpleName() + ")");
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new ConfigError(key, file, expected + ": its content is not one (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static Path pemFile(String key, String file) {
    try {
      return Paths.get(file);
    } catch (RuntimeException e) {
      throw new ConfigError(key, file, "a file path");
    }
  }
}
