package io.spanflight.internal.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The TLS setup of the OTLP exporter from PEM files, as the OTLP exporter keys describe it: the CA
 * certificates to trust ({@code certificate}; the JVM's defaults when absent) and, for mutual
 * TLS, a client certificate chain with its PKCS#8 private key ({@code client.certificate},
 * {@code client.key}). The agent's senders take the resulting {@link SSLContext} and trust
 * manager.
 *
 * <p>It lives in {@code config} because it is born there: {@link OtlpSettings} reads the PEM files
 * and builds it at startup, so a bad file is refused with its key; the export stage only reads
 * {@link #sslContext()} and {@link #trustManager()}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ClientTls {
  private static final Pattern PRIVATE_KEY =
      Pattern.compile("-----BEGIN PRIVATE KEY-----([^-]+)-----END PRIVATE KEY-----");
  private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "EdDSA"};

  private final SSLContext sslContext;
  private final X509TrustManager trustManager;

  private ClientTls(SSLContext sslContext, X509TrustManager trustManager) {
    this.sslContext = sslContext;
    this.trustManager = trustManager;
  }

  /**
   * {@code trusted} null means the JVM's default trust store; {@code chain} and {@code key} are
   * both null (no client certificate) or both set.
   */
  static ClientTls create(
      List<X509Certificate> trusted, List<X509Certificate> chain, PrivateKey key)
      throws GeneralSecurityException {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    if (trusted == null) {
      tmf.init((KeyStore) null);
    } else {
      KeyStore store = emptyKeyStore();
      for (int i = 0; i < trusted.size(); i++) {
        store.setCertificateEntry("ca-" + i, trusted.get(i));
      }
      tmf.init(store);
    }
    X509TrustManager trustManager = null;
    for (TrustManager tm : tmf.getTrustManagers()) {
      if (tm instanceof X509TrustManager) {
        trustManager = (X509TrustManager) tm;
      }
    }
    if (trustManager == null) {
      throw new GeneralSecurityException("no X.509 trust manager available");
    }
    KeyManager[] keyManagers = null;
    if (chain != null && key != null) {
      char[] password = new char[0];
      KeyStore store = emptyKeyStore();
      store.setKeyEntry("client", key, password, chain.toArray(new Certificate[0]));
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(store, password);
      keyManagers = kmf.getKeyManagers();
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers, new TrustManager[] {trustManager}, null);
    return new ClientTls(context, trustManager);
  }

  /** Every X.509 certificate in a PEM file; at least one. */
  static List<X509Certificate> certificates(Path pem) throws IOException, GeneralSecurityException {
    byte[] bytes = Files.readAllBytes(pem);
    List<X509Certificate> certificates = new ArrayList<>();
    for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes))) {
      certificates.add((X509Certificate) c);
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException("no certificate in " + pem);
    }
    return certificates;
  }

  /** The PKCS#8 private key ({@code BEGIN PRIVATE KEY}) in a PEM file: RSA, EC or EdDSA. */
  static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
    Matcher m = PRIVATE_KEY.matcher(new String(Files.readAllBytes(pem), StandardCharsets.US_ASCII));
    if (!m.find()) {
      throw new IllegalArgumentException("no '-----BEGIN PRIVATE KEY-----' block in " + pem);
    }
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(m.group(1)));
    GeneralSecurityException last = null;
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw last;
  }

  private static KeyStore emptyKeyStore() throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot create an in-memory key store", e);
    }
    return store;
  }

  public SSLContext sslContext() {
    return sslContext;
  }

  public X509TrustManager trustManager() {
    return trustManager;
  }
}
