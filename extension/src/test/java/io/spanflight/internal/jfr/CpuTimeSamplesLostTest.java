package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.jfr.join.PlainJoiners;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.profile.ProfileCollector;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.Deflater;
import jdk.jfr.Recording;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The samples JFR's CPU-time sampler loses ({@code jdk.CPUTimeSamplesLost}) are counted by both
 * readers as the JDK's own parser reads them. Real losses: threads compressing in native code at a
 * 1 ms period fill their sample queues. Where the JVM has no CPU-time sampler (before JDK 25, not
 * Linux), no source loses samples and neither reader subscribes to the event.
 */
class CpuTimeSamplesLostTest {
  private static final int CPU_TIME = BlindSources.WATCHED.indexOf(SourceSettings.CPU_TIME);

  @TempDir Path dir;

  private final List<JfrSource> sources = JfrSources.of(
      SpanflightConfig.read(DefaultConfigProperties.createFromMap(
          Map.of("otel.spanflight.cputime.enabled", "true", "otel.spanflight.cputime.period", "1ms"))).sources(),
      JfrSources.availableEventTypes());

  @Test
  void bothReadersCountTheSamplesJfrLost() throws Exception {
    if (!JfrSources.availableEventTypes().contains(JfrSources.CPU_TIME_SAMPLE)) {
      assertThat(JfrSources.losingSamples(sources)).isNull();
      assertThat(ReaderEvents.Subscriptions.of(sources).samplesLost()).isEqualTo(-1);
      return;
    }
    Path file = null;
    long lost = 0;
    for (int attempt = 0; attempt < 3 && lost == 0; attempt++) {
      file = dir.resolve("lost-" + attempt + ".jfr");
      record(file);
      lost = lostByTheJdk(file);
    }
    assertThat(lost).as("samples the JDK's parser reads as lost in three recordings").isPositive();

    SampleJoiner ours = PlainJoiners.into(new ProfileCollector(), id -> false);
    new ReaderEvents(sources, ours, new MethodTimingDeltas(new ProfileCollector()), new EffectiveSettings(sources))
        .reader().read(file);
    SampleJoiner jdks = PlainJoiners.into(new ProfileCollector(), id -> false);
    try (EventStream stream = EventStream.openFile(file)) {
      new JdkStreamEvents(sources, jdks, new MethodTimingDeltas(new ProfileCollector()), new EffectiveSettings(sources),
          Long.MIN_VALUE).subscribe(stream);
      stream.start();
    }

    assertThat(ours.counts().lostSamples(CPU_TIME)).as("Spanflight's reader").isEqualTo(lost);
    assertThat(jdks.counts().lostSamples(CPU_TIME)).as("the JDK's event stream").isEqualTo(lost);
    assertThat(ours.counts().watchedEvents(CPU_TIME)).as("the samples it kept").isPositive();
  }

  private void record(Path file) throws Exception {
    try (Recording recording = new Recording()) {
      OurEvents.enable(recording::enable, recording::enable, sources, null);
      recording.start();
      byte[] input = new byte[50_000_000];
      new Random(1).nextBytes(input);
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Thread thread = new Thread(() -> compress(input), "compress-" + i);
        thread.start();
        threads.add(thread);
      }
      for (Thread thread : threads) {
        thread.join();
      }
      recording.stop();
      recording.dump(file);
    }
  }

  private static long sink;

  private static void compress(byte[] input) {
    Deflater deflater = new Deflater(9);
    deflater.setInput(input);
    deflater.finish();
    byte[] out = new byte[1 << 20];
    while (!deflater.finished()) {
      sink += deflater.deflate(out);
    }
    deflater.end();
  }

  private static long lostByTheJdk(Path file) throws Exception {
    long lost = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
      if (event.getEventType().getName().equals(JfrSources.CPU_TIME_SAMPLES_LOST)) {
        lost += event.getInt("lostSamples");
      }
    }
    return lost;
  }
}
