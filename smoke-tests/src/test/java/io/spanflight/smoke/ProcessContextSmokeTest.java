package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.resource.v1.Resource;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.outside.ProcessContextReader;
import io.spanflight.smoke.outside.ProcessContextReader.Snapshot;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The OTEP-4719 process context read from another process, as an outside profiler reads it: the
 * test JVM follows the reading protocol over the app's {@code /proc/PID/maps} and {@code
 * /proc/PID/mem} ({@link ProcessContextReader}) and decodes the payload with the generated class
 * of the released {@code process_context.proto} (opentelemetry-proto 1.11.0). It must find:
 *
 * <ul>
 *   <li>the resource the agent exports with its spans (service name and instance id, process id,
 *       {@code deployment.environment.name} set through {@code otel.resource.attributes}): the
 *       same attributes with the same values;
 *   <li>the thread-record schema ({@code threadlocal.schema_version = tlsdesc_v1_dev}) and the
 *       key map, the configured context attributes first;
 *   <li>an update: a key the app adds at run time (its first {@code SpanflightContext} entry,
 *       {@code tenant}) is republished, and a reader that reads again as the protocol says sees
 *       the new key map under a later publication time, the indexes of the old keys unchanged.
 * </ul>
 * No setting changed at run time changes what is published (the context attributes and the
 * resource are read at start): after the control MBean's {@code applySettings} and profiling
 * switched off and on, the same payload under the same publication time. The key map growing is
 * the one update.
 */
class ProcessContextSmokeTest extends SmokeTestBase {
  private static final String ENVIRONMENT = "outside-reader";

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void anOutsideReaderFindsTheExportedResourceTheKeyMapAndItsUpdate() throws Exception {
    Snapshot first;
    Snapshot afterSettings;
    Snapshot updated;
    Resource exported;
    AppJvm app;
    try (OtlpCollector collector = OtlpCollector.start()) {
      Jdk jdk = newestJdk();
      app = app(jdk, collector, "process-context")
          .systemProperty("otel.resource.attributes", "deployment.environment.name=" + ENVIRONMENT)
          .systemProperty("otel.bsp.schedule.delay", "200")
          .start();
      try (app; AppControl control = new AppControl(app.baseUri(), jdk.home())) {
        URI base = app.baseUri();
        first = ProcessContextReader.read(app.pid(), 3);
        // settings changed at run time, profiling off and on: nothing they change is published
        control.jmx().invoke(new ObjectName(AppControl.SPANFLIGHT), "applySettings",
            new Object[] {"otel.spanflight.cpu.period=40ms"}, new String[] {String.class.getName()});
        assertThat(control.spanflight("stop")).as(withLog(app, "profiling switched off")).isTrue();
        assertThat(control.spanflight("start")).as(withLog(app, "profiling switched on")).isTrue();
        afterSettings = ProcessContextReader.read(app.pid(), 3);
        assertThat(OutsideReads.getNow(base, "/burn?ms=5").statusCode()).isEqualTo(200);
        assertThat(collector.await(c -> OutsideReads.exportedResource(c).isPresent(), Duration.ofSeconds(30)))
            .as(withLog(app, "spans exported; " + received(collector))).isTrue();
        exported = OutsideReads.exportedResource(collector).orElseThrow();

        assertThat(OutsideReads.getNow(base, "/tenant-a?ms=5").statusCode()).isEqualTo(200);
        Snapshot[] latest = {first};
        boolean seen = ThreadRecordGdbSmokeTest.pollUntil(() -> {
          try {
            latest[0] = ProcessContextReader.read(app.pid(), 3);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          return keyMap(latest[0]).contains("tenant");
        }, Duration.ofSeconds(20));
        updated = latest[0];
        assertThat(seen).as(withLog(app, "the key map with tenant republished; last read " + describe(updated))).isTrue();
      }
    }
    String found = "first read: " + describe(first) + "\nafter the update: " + describe(updated)
        + "\nexported resource: " + OutsideReads.asMap(exported.getAttributesList());
    System.out.println(found);

    assertThat(ProcessContextReader.MAPPING_NAMES).as(found).contains(first.mappingName());
    Map<String, String> resource = OutsideReads.asMap(first.context().getResource().getAttributesList());
    assertThat(resource).as(found)
        .containsEntry("service.name", "process-context")
        .containsEntry("process.pid", Long.toString(app.pid()))
        .containsEntry("deployment.environment.name", ENVIRONMENT)
        .containsKey("service.instance.id")
        .isEqualTo(OutsideReads.asMap(exported.getAttributesList()));
    Map<String, String> attributes = OutsideReads.asMap(first.context().getAttributesList());
    assertThat(attributes).as(found).containsEntry("threadlocal.schema_version", "tlsdesc_v1_dev");
    assertThat(keyMap(first)).as(found).containsExactly("http.route", "http.request.method");

    assertThat(afterSettings.publishedAtNs()).as("not republished by applySettings, stop, start; " + found)
        .isEqualTo(first.publishedAtNs());
    assertThat(afterSettings.context()).as(found).isEqualTo(first.context());
    assertThat(updated.publishedAtNs()).as(found).isGreaterThan(first.publishedAtNs());
    assertThat(keyMap(updated)).as(found).containsExactly("http.route", "http.request.method", "tenant");
    assertThat(updated.context().getResource()).as(found).isEqualTo(first.context().getResource());
  }

  private static List<String> keyMap(Snapshot snapshot) {
    return OutsideReads.stringArray(snapshot.context().getAttributesList(), "threadlocal.attribute_key_map");
  }

  private static String describe(Snapshot snapshot) {
    return snapshot.mappingName() + ", published at " + snapshot.publishedAtNs() + " ns, " + snapshot.payloadSize()
        + " bytes, " + snapshot.attempts() + " attempt(s): resource "
        + OutsideReads.asMap(snapshot.context().getResource().getAttributesList()) + ", attributes "
        + OutsideReads.asMap(snapshot.context().getAttributesList());
  }
}
