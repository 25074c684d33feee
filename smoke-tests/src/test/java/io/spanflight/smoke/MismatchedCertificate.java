package io.spanflight.smoke;

import io.spanflight.smoke.harness.Jdk;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@value #HOST} (made with the JDK's keytool): a server that
 * presents it on 127.0.0.1 is trusted (the client is given the certificate) but does not match
 * the name the client connected to.
 */
record MismatchedCertificate(Path keyStore, Path certificatePem) {
  static final String HOST = "wrong-host.invalid";
  static final String PASSWORD = "changeit";

  static MismatchedCertificate create(Jdk jdk, Path directory) throws IOException, InterruptedException {
    Path keyStore = directory.resolve("collector.p12");
    Path pem = directory.resolve("collector.pem");
    keytool(jdk, "-genkeypair", "-alias", "collector", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=" + HOST, "-ext", "SAN=dns:" + HOST, "-validity", "2", "-storetype", "PKCS12",
        "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
    keytool(jdk, "-exportcert", "-rfc", "-alias", "collector", "-keystore", keyStore.toString(),
        "-storepass", PASSWORD, "-file", pem.toString());
    return new MismatchedCertificate(keyStore, pem);
  }

  private static void keytool(Jdk jdk, String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(jdk.java().resolveSibling("keytool").toString()));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException("keytool failed: " + command + "\n" + output);
    }
  }
}
