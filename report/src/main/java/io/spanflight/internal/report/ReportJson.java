package io.spanflight.internal.report;

import io.spanflight.internal.format.JsonWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link ReportModel} as the JSON the report's script reads. Layout (arrays keep it
 * compact at 100 000 samples):
 *
 * <pre>
 * { "title", "generated", "requests", "samples", "start", "end" (epoch ms),
 *   "types":     [{"i": weight slot, "label", "type", "unit", "period", "periodType", "periodUnit"}],
 *   "names":     [frame name, ...],
 *   "parent":    [parent node of node i, ...],  "frame": [name index of node i, ...],
 *   "endpoints": [{"name", "data": [per weight slot: [leaf node, value, ...] or null]}],
 *   "traces":    [[trace id, first sample epoch ms, endpoints, [span index, ...]]],
 *   "spans":     [[span id, trace index, endpoint, data as above]],
 *   "costs":     {"note", "header": [column, ...], "rows": [[cell, ...], ...]} (EndpointCostTable) }
 * </pre>
 *
 * <p>Strings are escaped for an HTML {@code <script>} element ({@link JsonWriter#htmlSafe}).
 *
 * <p>Not API: internal to Spanflight.
 */
final class ReportJson {
  private ReportJson() {}

  static void write(ReportModel model, Writer writer) throws IOException {
    try {
      write(model, JsonWriter.htmlSafe(writer));
    } catch (UncheckedIOException e) { // the writer's, through JsonWriter
      throw e.getCause();
    }
  }

  private static void write(ReportModel model, JsonWriter out) {
    out.beginObject();
    out.name("title").value(model.services.isEmpty() ? "Spanflight report" : String.join(", ", model.services));
    out.name("generated").value(Instant.now().toString());
    out.name("requests").value(model.requests());
    out.name("samples").value(model.samples());
    out.name("start").value(model.startNanos() / 1_000_000);
    out.name("end").value(model.endNanos() / 1_000_000);
    out.name("types").beginArray();
    for (Map.Entry<Integer, ReportSampleType> entry : model.typesInOrder()) {
      ReportSampleType type = entry.getValue();
      out.beginObject().name("i").value(entry.getKey()).name("label").value(type.label)
          .name("type").value(type.type).name("unit").value(type.unit)
          .name("period").value(type.period).name("periodType").value(type.periodType)
          .name("periodUnit").value(type.periodUnit).endObject();
    }
    out.endArray();
    writeTrie(model.trie, out);
    out.name("endpoints").beginArray();
    for (SampleGroup endpoint : model.endpoints()) {
      out.beginObject().name("name").value(endpoint.name).name("data");
      writeData(endpoint, model.typeCount(), out);
      out.endObject();
    }
    out.endArray();
    List<ReportModel.Trace> traces = model.traces();
    out.name("traces").beginArray();
    int spanIndex = 0;
    for (ReportModel.Trace trace : traces) {
      out.beginArray().value(trace.traceId).value(trace.firstTimestamp() / 1_000_000)
          .value(String.join(", ", trace.endpoints)).beginArray();
      for (int i = 0; i < trace.spans.size(); i++) {
        out.value(spanIndex++);
      }
      out.endArray().endArray();
    }
    out.endArray();
    out.name("spans").beginArray();
    for (int t = 0; t < traces.size(); t++) {
      for (ReportModel.Span span : traces.get(t).spans.values()) {
        out.beginArray().value(span.name).value(t).value(span.endpoint);
        writeData(span, model.typeCount(), out);
        out.endArray();
      }
    }
    out.endArray();
    writeCosts(model.costTable(), out);
    out.endObject();
  }

  private static void writeCosts(EndpointCostTable table, JsonWriter out) {
    out.name("costs").beginObject().name("note").value(EndpointCostTable.NOTE).name("header").beginArray();
    for (String column : table.header) {
      out.value(column);
    }
    out.endArray().name("rows").beginArray();
    for (List<String> row : table.rows) {
      out.beginArray();
      for (String cell : row) {
        out.value(cell);
      }
      out.endArray();
    }
    out.endArray().endObject();
  }

  private static void writeTrie(FrameTrie trie, JsonWriter out) {
    out.name("names").beginArray();
    for (String name : trie.names()) {
      out.value(name);
    }
    out.endArray();
    out.name("parent").beginArray();
    for (int node = 0; node < trie.size(); node++) {
      out.value(trie.parent(node));
    }
    out.endArray();
    out.name("frame").beginArray();
    for (int node = 0; node < trie.size(); node++) {
      out.value(trie.frame(node));
    }
    out.endArray();
  }

  private static void writeData(SampleGroup group, int types, JsonWriter out) {
    out.beginArray();
    for (int type = 0; type < types; type++) {
      NodeWeights weights = group.weightsOrNull(type);
      if (weights == null) {
        out.nullValue();
        continue;
      }
      out.beginArray();
      for (int slot = 0; slot < weights.capacity(); slot++) {
        if (weights.nodeAt(slot) >= 0) {
          out.value(weights.nodeAt(slot)).value(weights.valueAt(slot));
        }
      }
      out.endArray();
    }
    out.endArray();
  }
}
