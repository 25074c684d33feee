package io.spanflight.internal.threads;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class BackgroundCompilationTest {

  @Test
  void theJvmKeepsC2OffTheBackgroundPackagesOnly() throws Exception {
    assertThat(BackgroundCompilation.applyOnce(null)).isEqualTo("background code compiled by C1 only");
    assertThat(BackgroundCompilation.applyOnce(null)).as("once per JVM").isEqualTo("background code compiled by C1 only");

    String ours = Arrays.stream(printDirectives().split("Directive:"))
        .filter(directive -> directive.contains("io/spanflight/internal/jfr/"))
        .findFirst().orElseThrow();
    for (String pkg : BackgroundCompilation.BACKGROUND_PACKAGES) {
      assertThat(ours).contains(pkg + "*.*");
    }
    String c2 = ours.substring(ours.indexOf("c2 directives:"));
    assertThat(c2).contains("Exclude:true");
    String c1 = ours.substring(ours.indexOf("c1 directives:"), ours.indexOf("c2 directives:"));
    assertThat(c1).as("C1 keeps the default directive").contains("Enable:false").doesNotContain("Exclude:true");
    assertThat(ours).as("the application's threads' code is compiled as usual")
        .doesNotContain("io/spanflight/internal/capture/").doesNotContain("io/spanflight/internal/registry/")
        .doesNotContain("io/spanflight/internal/bridge/");
  }

  /** The JVM's compiler directive stack, as {@code jcmd <pid> Compiler.directives_print} prints it. */
  private static String printDirectives() throws Exception {
    return String.valueOf(ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesPrint",
        new Object[] {new String[0]}, new String[] {String[].class.getName()}));
  }
}
