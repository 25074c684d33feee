package io.spanflight.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Aggregation: samples to endpoints, traces and spans, merged call paths, and the summary. */
class ReportModelTest {
  private static final String TRACE_1 = "11111111111111111111111111111111";
  private static final String TRACE_2 = "22222222222222222222222222222222";

  @Test
  void groupsSamplesByEndpointTraceAndSpan() throws Exception {
    RequestFixture f = new RequestFixture("shop");
    int checkout = f.stack("app.Prices.compute", "app.Checkout.handle", "java.lang.Thread.run");
    int search = f.stack("java.util.ArrayList.grow", "app.Search.handle", "java.lang.Thread.run");
    int root1 = f.link(TRACE_1, "aaaaaaaaaaaaaaaa");
    int child1 = f.link(TRACE_1, "bbbbbbbbbbbbbbbb");
    int root2 = f.link(TRACE_2, "cccccccccccccccc");
    f.cpu(checkout, root1, 3, f.endpoint("POST", "/checkout"));
    f.cpu(checkout, child1, 2, f.endpoint("POST", "/checkout"));
    f.cpu(checkout, child1, 1, f.endpoint("POST", "/checkout")); // three samples: the busiest endpoint
    f.cpu(search, root2, 1, f.endpoint("GET", "/search"));
    f.cpu(search, 0, 4); // no span, no endpoint
    f.sample("alloc_space", "bytes", search, root2, 4096, f.endpoint("GET", "/search"));

    ReportModel model = model(f);

    assertThat(names(model.endpoints())).containsExactly("POST /checkout", "GET /search", ReportModel.NO_ENDPOINT);
    int cpu = typeSlot(model, "samples");
    int alloc = typeSlot(model, "alloc_space");
    SampleGroup post = model.endpoints().get(0);
    assertThat(post.total(cpu)).isEqualTo(6);
    assertThat(post.samples(cpu)).isEqualTo(3);
    assertThat(model.endpoints().get(1).total(alloc)).isEqualTo(4096);
    assertThat(model.endpoints().get(2).total(cpu)).isEqualTo(4);

    List<ReportModel.Trace> traces = model.traces();
    assertThat(traces).extracting(t -> t.traceId).containsExactly(TRACE_1, TRACE_2);
    assertThat(traces.get(0).spans.keySet()).containsExactly("aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb");
    assertThat(traces.get(0).spans.get("bbbbbbbbbbbbbbbb").total(cpu)).isEqualTo(3);
    assertThat(traces.get(0).endpoints).containsExactly("POST /checkout");
    assertThat(traces.get(1).spans.get("cccccccccccccccc").total(alloc)).isEqualTo(4096);
    assertThat(model.samples()).isEqualTo(6);
    assertThat(model.services).containsExactly("shop");
  }

  @Test
  void mergesCallPathsAcrossRequestsIntoOneTrieRootFirst() throws Exception {
    ReportModel model = new ReportModel();
    for (int i = 0; i < 2; i++) { // two files with their own dictionaries
      RequestFixture f = new RequestFixture("shop");
      f.cpu(f.stack("app.A.leaf", "app.A.mid", "app.Main.main"), 0, 1);
      f.cpu(f.stack("app.B.leaf", "app.A.mid", "app.Main.main"), 0, 1);
      model.add(RequestDecoder.decode(f.build().toByteArray()));
    }

    NodeWeights weights = model.endpoints().get(0).weights(typeSlot(model, "samples"));
    List<String> paths = new ArrayList<>();
    for (int slot = 0; slot < weights.capacity(); slot++) {
      if (weights.nodeAt(slot) >= 0) {
        paths.add(path(model.trie, weights.nodeAt(slot)) + "=" + weights.valueAt(slot));
      }
    }
    assertThat(paths).containsExactlyInAnyOrder(
        "app.Main.main;app.A.mid;app.A.leaf=2", "app.Main.main;app.A.mid;app.B.leaf=2");
    assertThat(model.trie.size()).as("root + main + mid + two leaves").isEqualTo(5);
  }

  @Test
  void summaryListsTheTopThreeLeafMethodsPerCategoryAsTime() throws Exception {
    RequestFixture f = new RequestFixture("shop");
    int[] endpoint = f.endpoint("GET", "/report");
    for (int i = 1; i <= 5; i++) {
      f.cpu(f.stack("app.Cpu.m" + i, "app.Handler.handle"), 0, i, endpoint);
    }
    f.sample("socket_read", "nanoseconds", f.stack("java.net.Socket.read", "app.Handler.handle"), 0, 3_000_000_000L, endpoint);
    ReportModel model = model(f);

    SampleGroup group = model.endpoints().get(0);
    List<TerminalSummary.Entry> cpu = TerminalSummary.top(model, group, ReportSampleType.Category.CPU);
    assertThat(cpu).extracting(e -> e.method + "=" + e.value).containsExactly(
        "app.Cpu.m5=" + 5 * RequestFixture.CPU_PERIOD, "app.Cpu.m4=" + 4 * RequestFixture.CPU_PERIOD,
        "app.Cpu.m3=" + 3 * RequestFixture.CPU_PERIOD);
    assertThat(TerminalSummary.top(model, group, ReportSampleType.Category.LOCK)).isEmpty();

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TerminalSummary.print(model, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("GET /report", "CPU", "100.0 ms  app.Cpu.m5", "I/O", "3.00 s  java.net.Socket.read")
        .doesNotContain("lock", "allocation", "app.Cpu.m2");
  }

  @Test
  void costTableSumsLinkedSamplesPerEndpointAndDividesByTracesSeen() throws Exception {
    RequestFixture f = new RequestFixture("shop");
    int handle = f.stack("app.Checkout.handle");
    int[] checkout = f.endpoint("POST", "/checkout");
    int[] search = f.endpoint("GET", "/search");
    int root1 = f.link(TRACE_1, "aaaaaaaaaaaaaaaa");
    int child1 = f.link(TRACE_1, "bbbbbbbbbbbbbbbb");
    int root2 = f.link(TRACE_2, "cccccccccccccccc");
    int root3 = f.link("33333333333333333333333333333333", "dddddddddddddddd");
    f.cpu(handle, root1, 3, checkout);
    f.cpu(handle, child1, 2, checkout); // the same request: one trace, two spans
    f.cpu(handle, root3, 1, checkout);
    f.cpu(handle, 0, 100, checkout); // linked to no span: no request to divide by, left out
    f.cpu(handle, 0, 4); // the JVM's own threads
    f.sample("alloc_space", "bytes", handle, root1, 1000, checkout);
    f.sample("alloc_space", "bytes", handle, root3, 3000, checkout);
    f.sample("lock_contention", "nanoseconds", handle, child1, 30_000_000, checkout);
    f.sample("lock_wait", "nanoseconds", handle, root3, 10_000_000, checkout); // monitor wait is lock wait too
    f.sample("socket_read", "nanoseconds", handle, root2, 50_000_000, search);
    f.sample("native_samples", "count", handle, root2, 7, search); // not a cost

    EndpointCostTable table = model(f).costTable();

    assertThat(table.header).containsExactly("endpoint", "requests seen", "CPU samples", "CPU (est.)",
        "CPU / request (est.)", "allocated / request", "lock wait / request", "socket wait / request");
    assertThat(table.rows).containsExactly(
        List.of("POST /checkout", "2", "6", "120.0 ms", "60.0 ms", "2.0 KB", "20.0 ms", "0 ns"),
        List.of("GET /search", "1", "0", "0 ns", "0 ns", "0 B", "0 ns", "50.0 ms"));
  }

  @Test
  void costTableTakesCpuTimeSamplesOverExecutionSamplesAsTheSpanAttributesDo() throws Exception {
    RequestFixture f = new RequestFixture("shop");
    int handle = f.stack("app.Checkout.handle");
    int[] checkout = f.endpoint("POST", "/checkout");
    int root1 = f.link(TRACE_1, "aaaaaaaaaaaaaaaa");
    f.cpu(handle, root1, 5, checkout);
    f.sample("cpu", "nanoseconds", handle, root1, 7_000_000, checkout);
    f.sample("cpu", "nanoseconds", handle, root1, 5_000_000, checkout);

    EndpointCostTable table = model(f).costTable();

    assertThat(table.header).containsExactly("endpoint", "requests seen", "CPU-time samples", "CPU (est.)",
        "CPU / request (est.)");
    assertThat(table.rows).containsExactly(List.of("POST /checkout", "1", "2", "12.0 ms", "12.0 ms"));
  }

  @Test
  void summaryPrintsTheCostTableBeforeTheTopMethods() throws Exception {
    RequestFixture f = new RequestFixture("shop");
    int handle = f.stack("app.Checkout.handle");
    for (int i = 0; i < 12; i++) { // more endpoints than the summary shows
      String trace = String.format("%032x", i + 1);
      f.cpu(handle, f.link(trace, "aaaaaaaaaaaaaaaa"), i + 1, f.endpoint("GET", "/e" + i));
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TerminalSummary.print(model(f), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String all = bytes.toString(StandardCharsets.UTF_8);
    assertThat(all.indexOf("What each request cost")).isGreaterThanOrEqualTo(0);
    String text = all.substring(0, all.indexOf("Top methods per endpoint"));

    assertThat(text).contains("What each request cost, per endpoint (10 of 12, the most CPU first):",
        "  endpoint  requests seen  CPU samples  CPU (est.)  CPU / request (est.)",
        "  GET /e11              1           12    240.0 ms              240.0 ms",
        "  GET /e2               1            3     60.0 ms               60.0 ms", "  Estimates from the profiles")
        .doesNotContain("  GET /e1  ", "  GET /e0  ");
  }

  private static ReportModel model(RequestFixture f) throws Exception {
    ReportModel model = new ReportModel();
    model.add(RequestDecoder.decode(f.build().toByteArray()));
    return model;
  }

  private static int typeSlot(ReportModel model, String type) {
    for (Map.Entry<Integer, ReportSampleType> entry : model.typesInOrder()) {
      if (entry.getValue().type.equals(type)) {
        return entry.getKey();
      }
    }
    throw new AssertionError("no type " + type);
  }

  private static List<String> names(List<SampleGroup> groups) {
    List<String> names = new ArrayList<>();
    groups.forEach(g -> names.add(g.name));
    return names;
  }

  private static String path(FrameTrie trie, int node) {
    StringBuilder path = new StringBuilder();
    for (int n = node; n != FrameTrie.ROOT; n = trie.parent(n)) {
      path.insert(0, path.length() == 0 ? trie.frameName(n) : trie.frameName(n) + ";");
    }
    return path.toString();
  }
}
