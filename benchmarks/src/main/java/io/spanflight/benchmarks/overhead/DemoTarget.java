package io.spanflight.benchmarks.overhead;

import io.spanflight.demo.load.Route;
import io.spanflight.demo.run.ServiceJvm;
import io.spanflight.demo.service.DemoService;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The demo service from {@code demo/target/classes}, 256 MB of heap, its five endpoints. */
final class DemoTarget implements Target {
  static final List<Route> ROUTES = List.of(
      new Route("/checkout", 2),
      new Route("/search", 2),
      new Route("/recommend", 2),
      new Route("/inventory", 1),
      new Route("/report", 1));

  private final Path classes;

  DemoTarget(Path classes) {
    this.classes = classes;
  }

  @Override
  public String describe() {
    return "the demo service (-Xms256m -Xmx256m)";
  }

  @Override
  public List<Route> routes() {
    return ROUTES;
  }

  /** Starts the demo service with the arm's options and {@code extraArgs}; returns once it listens. */
  ServiceJvm startService(Arm arm, List<String> extraArgs, Path log, Placement placement) throws IOException {
    List<String> args = new ArrayList<>(List.of("-Xms256m", "-Xmx256m"));
    args.addAll(arm.jvmArgs());
    args.addAll(extraArgs);
    args.addAll(List.of("-cp", classes.toString(), DemoService.class.getName()));
    return ServiceJvm.start(placement.command(ServiceJvm.Command.currentJava().toString(), args), log);
  }

  @Override
  public Running start(Arm arm, Path log, Placement placement) throws IOException {
    ServiceJvm service = startService(arm, List.of(), log, placement);
    return new Running() {
      @Override
      public long pid() {
        return service.pid();
      }

      @Override
      public int port() {
        return service.port();
      }

      @Override
      public void close() {
        service.stop();
      }
    };
  }
}
