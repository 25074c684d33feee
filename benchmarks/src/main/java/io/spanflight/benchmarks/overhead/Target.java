package io.spanflight.benchmarks.overhead;

import io.spanflight.demo.load.Route;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The application the harness measures: the demo service, or any HTTP application jar. */
interface Target {
  /** One line for the report. */
  String describe();

  /** The closed-loop load: paths and clients per path. */
  List<Route> routes();

  /** Starts the application in a fresh JVM with the arm's options, placed; returns once it answers. */
  Running start(Arm arm, Path log, Placement placement) throws IOException;

  /** A started application JVM; closing it stops it (SIGTERM, then a kill). */
  interface Running extends AutoCloseable {
    long pid();

    int port();

    @Override
    void close();
  }
}
