package io.spanflight.internal.costs;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.spanflight.internal.format.CostKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code spanflight.cost.*} span attributes (no semantic convention covers per-span resource
 * cost): the status, and for the span itself and for its subtree in this JVM the estimated CPU
 * time, the samples behind it, allocated bytes and the wait by kind. Only the kinds whose JFR
 * source is on are written: an absent attribute is unknown, a zero is "none seen".
 *
 * <p>Not API: internal to Spanflight.
 */
final class CostAttributes {
  static final AttributeKey<String> STATUS = AttributeKey.stringKey("spanflight.cost.status");
  static final String PREFIX = "spanflight.cost.";
  static final String SUBTREE = "spanflight.cost.subtree.";

  private final int cpuKind;
  private final boolean allocation;
  private final boolean[] waits = new boolean[CostKind.waitCount()];
  private final Keys self = new Keys(PREFIX);
  private final Keys subtree = new Keys(SUBTREE);

  /** The attribute keys under one prefix. */
  private static final class Keys {
    final AttributeKey<Long> cpuTime;
    final AttributeKey<Long> cpuSamples;
    final AttributeKey<Long> allocBytes;
    final List<AttributeKey<Long>> waits = new ArrayList<>();

    Keys(String prefix) {
      cpuTime = AttributeKey.longKey(prefix + "cpu.time_ns");
      cpuSamples = AttributeKey.longKey(prefix + "cpu.samples");
      allocBytes = AttributeKey.longKey(prefix + "alloc.bytes");
      for (int i = 0; i < CostKind.waitCount(); i++) {
        waits.add(AttributeKey.longKey(prefix + "wait." + CostKind.waitName(i) + "_ns"));
      }
    }
  }

  /** @param enabled per {@link CostKind}, whether its JFR source is on */
  CostAttributes(boolean[] enabled) {
    this.cpuKind = cpuKind(enabled);
    this.allocation = enabled[CostKind.ALLOCATION];
    for (int i = 0; i < waits.length; i++) {
      waits[i] = enabled[CostKind.waitKind(i)];
    }
  }

  /** CPU time samples (JDK 25, exact per sample) when on, else execution samples, else none. */
  static int cpuKind(boolean[] enabled) {
    return CostKind.cpuKind(enabled);
  }

  int cpuKind() {
    return cpuKind;
  }

  /** Only the status: the costs are unknown. */
  static Attributes status(String status) {
    return Attributes.of(STATUS, status);
  }

  /** Status ok with the span's own costs and, unless null (unknown), its subtree's. */
  Attributes of(long[] self, long[] subtree) {
    AttributesBuilder b = Attributes.builder().put(STATUS, CostStatus.OK);
    put(b, this.self, self);
    if (subtree != null) {
      put(b, this.subtree, subtree);
    }
    return b.build();
  }

  private void put(AttributesBuilder b, Keys keys, long[] costs) {
    if (cpuKind != CostKind.NONE) {
      b.put(keys.cpuTime, total(costs, cpuKind));
      b.put(keys.cpuSamples, count(costs, cpuKind));
    }
    if (allocation) {
      b.put(keys.allocBytes, total(costs, CostKind.ALLOCATION));
    }
    for (int i = 0; i < waits.length; i++) {
      if (waits[i]) {
        b.put(keys.waits.get(i), total(costs, CostKind.waitKind(i)));
      }
    }
  }

  static long count(long[] costs, int kind) {
    return costs[2 * kind];
  }

  static long total(long[] costs, int kind) {
    return costs[2 * kind + 1];
  }
}
