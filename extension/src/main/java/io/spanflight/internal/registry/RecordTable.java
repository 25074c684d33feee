package io.spanflight.internal.registry;

import io.spanflight.internal.bridge.ContextIds;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The record of each slot ({@link ContextIds#index}), in pages of {@value #PAGE_SIZE} allocated
 * as slots come into use: an array index instead of a map entry and a boxed key per record. A
 * slot keeps its record while in use and while among the free slots that keep theirs (see {@link
 * IdRecycler#MAX_IDLE_RECORDS}); the record is current while it stands for a span and retired
 * in between (see {@link ContextRecord}). Written by the thread that first uses a slot; read by
 * the join, pruning and the threads that reuse a slot.
 *
 * <p>Beside each page of records, a page of references, two per slot, where a record keeps the
 * references that change with every span it stands for (see {@link ContextRecord}).
 */
final class RecordTable {
  private static final int PAGE_BITS = 12;
  static final int PAGE_SIZE = 1 << PAGE_BITS;

  private final AtomicReferenceArray<AtomicReferenceArray<ContextRecord>> pages =
      new AtomicReferenceArray<>((ContextIds.MAX_INDEX >>> PAGE_BITS) + 1);
  private final AtomicReferenceArray<AtomicReferenceArray<Object>> refPages =
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

  /** The slot's record if it is retired (waiting to be defined anew), else null. */
  ContextRecord retired(int index) {
    AtomicReferenceArray<ContextRecord> page = pages.get(index >>> PAGE_BITS);
    ContextRecord record = page == null ? null : page.get(index & (PAGE_SIZE - 1));
    return record != null && record.id() == ContextRegistry.NO_CONTEXT ? record : null;
  }

  /** A new record for slot {@code index}, using the slot's two references. Not yet in the table: see {@link #put}. */
  ContextRecord newRecord(int index, ContextAttributes attributes) {
    return new ContextRecord(attributes, page(refPages, index >>> PAGE_BITS, 2 * PAGE_SIZE), 2 * (index & (PAGE_SIZE - 1)));
  }

  /** A slot's first record, once defined. */
  void put(ContextRecord record) {
    int index = ContextIds.index(record.id());
    page(pages, index >>> PAGE_BITS, PAGE_SIZE).set(index & (PAGE_SIZE - 1), record);
  }

  /** Empties slot {@code index} if it holds {@code retired}: the slot's next span gets a new object. */
  void drop(int index, ContextRecord retired) {
    AtomicReferenceArray<ContextRecord> page = pages.get(index >>> PAGE_BITS);
    if (page != null) {
      page.compareAndSet(index & (PAGE_SIZE - 1), retired, null);
    }
  }

  /** Every current (not retired) record in slots below {@code slotLimit}. */
  void forEach(int slotLimit, Consumer<ContextRecord> action) {
    for (int p = 0; p <= (slotLimit - 1) >>> PAGE_BITS && p < pages.length(); p++) {
      AtomicReferenceArray<ContextRecord> page = pages.get(p);
      if (page == null) {
        continue;
      }
      for (int i = 0; i < PAGE_SIZE; i++) {
        ContextRecord record = page.get(i);
        if (record != null && record.id() != ContextRegistry.NO_CONTEXT) {
          action.accept(record);
        }
      }
    }
  }

  private static <T> AtomicReferenceArray<T> page(AtomicReferenceArray<AtomicReferenceArray<T>> of, int p, int length) {
    AtomicReferenceArray<T> page = of.get(p);
    if (page == null) {
      of.compareAndSet(p, null, new AtomicReferenceArray<>(length));
      page = of.get(p);
    }
    return page;
  }
}
