package io.spanflight.smoke.traces;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * One trace as a tracing backend returned it: its spans (in the order the answer listed them), with
 * the look-ups the smoke tests check traces with (spans by name, kind or attribute; a span's parent
 * and children; parents that do not resolve; children outside their parent's time).
 */
public record StoredTrace(String traceId, List<StoredSpan> spans) {
  private static final int DESCRIBED_SPANS = 40;

  public StoredTrace {
    spans = List.copyOf(spans);
  }

  /** The spans that {@code which} accepts. */
  public List<StoredSpan> spans(Predicate<StoredSpan> which) {
    return spans.stream().filter(which).toList();
  }

  public List<StoredSpan> spansByName(String name) {
    return spans(span -> span.name().equals(name));
  }

  public List<StoredSpan> spansOfKind(StoredSpan.Kind kind) {
    return spans(span -> span.kind() == kind);
  }

  /** The spans that carry attribute {@code key}, whatever its value. */
  public List<StoredSpan> spansWithAttribute(String key) {
    return spans(span -> span.hasAttribute(key));
  }

  /** The spans whose attribute {@code key} equals {@code value} (a {@code Long} for integers). */
  public List<StoredSpan> spansWithAttribute(String key, Object value) {
    return spans(span -> Objects.equals(span.attributes().get(key), value));
  }

  /** The span with this id (hex, any case), if the trace has it. */
  public Optional<StoredSpan> span(String spanId) {
    return byId().values().stream().filter(span -> span.spanId().equalsIgnoreCase(spanId)).findFirst();
  }

  /** {@code child}'s parent, if it has one and the trace holds it. */
  public Optional<StoredSpan> parentOf(StoredSpan child) {
    return child.hasParent() ? Optional.ofNullable(byId().get(child.parentSpanId())) : Optional.empty();
  }

  /** The spans whose parent is {@code parent}. */
  public List<StoredSpan> childrenOf(StoredSpan parent) {
    return spans(span -> span.parentSpanId().equals(parent.spanId()));
  }

  /** The spans below {@code ancestor}: its children, their children and so on (parents before children). */
  public List<StoredSpan> descendantsOf(StoredSpan ancestor) {
    List<StoredSpan> found = new ArrayList<>(childrenOf(ancestor));
    for (int i = 0; i < found.size() && found.size() <= spans.size(); i++) {
      found.addAll(childrenOf(found.get(i)));
    }
    return found;
  }

  /** The spans that name a parent the trace does not hold (a root continued from elsewhere is one). */
  public List<StoredSpan> unresolvedParents() {
    Map<String, StoredSpan> byId = byId();
    return spans(span -> span.hasParent() && !byId.containsKey(span.parentSpanId()));
  }

  /**
   * The spans among {@code children} whose parent is in the trace but that do not lie inside the
   * parent's start and end widened by {@code toleranceNanos}.
   */
  public List<StoredSpan> outsideTheirParent(List<StoredSpan> children, long toleranceNanos) {
    return children.stream()
        .filter(child -> parentOf(child).map(parent -> !child.liesWithin(parent, toleranceNanos)).orElse(false))
        .toList();
  }

  /** The trace for failure messages: its id and one line per span (the first 40). */
  public String describe() {
    String lines = spans.stream().limit(DESCRIBED_SPANS).map(span -> "  " + span.describe())
        .collect(Collectors.joining("\n"));
    String more = spans.size() > DESCRIBED_SPANS ? "\n  ... " + (spans.size() - DESCRIBED_SPANS) + " more" : "";
    return "trace " + traceId + " with " + spans.size() + " spans:\n" + lines + more;
  }

  private Map<String, StoredSpan> byId() {
    Map<String, StoredSpan> byId = new LinkedHashMap<>();
    spans.forEach(span -> byId.putIfAbsent(span.spanId(), span));
    return byId;
  }
}
