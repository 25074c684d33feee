package io.spanflight.smoke;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 and its private key, as PEM files (made with
 * {@code openssl}, which the Collector's TLS settings read and the JDK's keytool cannot write):
 * the Collector serves it, and Spanflight trusts it through
 * {@code otel.exporter.otlp.profiles.certificate}.
 */
record CollectorCertificate(Path certificatePem, Path keyPem) {

  static CollectorCertificate create(Path directory) throws IOException, InterruptedException {
    CollectorCertificate made = new CollectorCertificate(directory.resolve("collector-cert.pem"),
        directory.resolve("collector-key.pem"));
    List<String> command = List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
        "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", made.keyPem().toString(),
        "-out", made.certificatePem().toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("openssl failed (Debian package openssl; .ci/run installs it): "
          + command + "\n" + output);
    }
    return made;
  }
}
