package io.spanflight.benchmarks.overhead;

import java.util.List;

/**
 * One configuration of the service JVM under test.
 *
 * @param name short name for tables
 * @param baseline the arm it is compared with (null for a baseline itself)
 * @param description what it is, for the report
 * @param jvmArgs the options that make it this arm (agents, extensions, properties)
 * @param missing why it cannot run here (a jar that is not there), or null
 */
record Arm(String name, String baseline, String description, List<String> jvmArgs, String missing) {

  boolean runnable() {
    return missing == null;
  }
}
