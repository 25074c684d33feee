package io.spanflight.internal.registry;

import io.spanflight.internal.bridge.ContextIds;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The current record of each slot ({@link ContextIds#index}), in pages of {@value #PAGE_SIZE}
 * allocated as slots come into use: an array index instead of a map entry and a boxed key per
 * record, since records live some seconds and every byte of them is copied by each young
 * collection they survive. Written by the thread that creates a record and by pruning; read by
 * the join.
 */
final class RecordTable {
  private static final int PAGE_BITS = 12;
  static final int PAGE_SIZE = 1 << PAGE_BITS;

  private final AtomicReferenceArray<AtomicReferenceArray<ContextRecord>> pages =
      new AtomicReferenceArray<>((ContextIds.MAX_INDEX >>> PAGE_BITS) + 1);

  /** The record of {@code id} if it is current (same slot and generation), else null. */
  ContextRecord get(int id) {
    int index = ContextIds.index(id);
    AtomicReferenceArray<ContextRecord> page = pages.get(index >>> PAGE_BITS);
    if (page == null) {
      return null;
    }
    ContextRecord record = page.get(index & (PAGE_SIZE - 1));
    return record != null && record.id() == id ? record : null;
  }

  void put(ContextRecord record) {
    int index = ContextIds.index(record.id());
    page(index >>> PAGE_BITS).set(index & (PAGE_SIZE - 1), record);
  }

  /** Empties the record's slot, if it still holds this record. */
  void remove(ContextRecord record) {
    int index = ContextIds.index(record.id());
    AtomicReferenceArray<ContextRecord> page = pages.get(index >>> PAGE_BITS);
    if (page != null) {
      page.compareAndSet(index & (PAGE_SIZE - 1), record, null);
    }
  }

  /** Every record in slots below {@code slotLimit}. */
  void forEach(int slotLimit, Consumer<ContextRecord> action) {
    for (int p = 0; p <= (slotLimit - 1) >>> PAGE_BITS && p < pages.length(); p++) {
      AtomicReferenceArray<ContextRecord> page = pages.get(p);
      if (page == null) {
        continue;
      }
      for (int i = 0; i < PAGE_SIZE; i++) {
        ContextRecord record = page.get(i);
        if (record != null) {
          action.accept(record);
        }
      }
    }
  }

  private AtomicReferenceArray<ContextRecord> page(int p) {
    AtomicReferenceArray<ContextRecord> page = pages.get(p);
    if (page == null) {
      pages.compareAndSet(p, null, new AtomicReferenceArray<>(PAGE_SIZE));
      page = pages.get(p);
    }
    return page;
  }
}
