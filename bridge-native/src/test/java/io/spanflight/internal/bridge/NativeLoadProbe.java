package io.spanflight.internal.bridge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * A JVM of its own for {@link NativeLibraryPlantingTest} (the library loads once per JVM): creates
 * the bridge with the directory given as argument (none: java.io.tmpdir), then prints the bridge,
 * the file loaded and the mapped files whose names contain "spanflight" (the name, not the folders:
 * a JDK may live under a folder so named).
 */
public final class NativeLoadProbe {
  private NativeLoadProbe() {}

  public static void main(String[] args) throws IOException {
    ContextBridge bridge = ContextBridges.create(1024, args.length > 0 ? Path.of(args[0]) : null, false);
    System.out.println("bridge=" + bridge.implementation());
    System.out.println("loaded=" + NativeLibrary.loadedFile());
    System.out.println("mapped=" + Files.readAllLines(Path.of("/proc/self/maps")).stream()
        .filter(line -> line.indexOf('/') >= 0)
        .map(line -> line.substring(line.indexOf('/')))
        .filter(file -> Path.of(file).getFileName().toString().contains("spanflight"))
        .distinct()
        .collect(Collectors.joining(",")));
  }
}
