package io.spanflight.internal.registry;

import static io.spanflight.internal.registry.ContextRegistry.NO_CONTEXT;

import io.spanflight.internal.bridge.ContextIds;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * The {@link ContextRegistry}'s slot ids: hands out the next one when a record is created, and at
 * each prune removes the records nothing uses any more and makes their slots free again once no
 * reader can still see them.
 *
 * <p>Data flow. Capture threads take an id with {@link #nextId} (once per new record, not per
 * switch): a free slot's next generation, else a never-used slot. The pruning thread calls {@link
 * #prune} about once a second, with the set of slots still referenced by timelines: records that
 * are neither referenced nor used by the capture path in the current or previous epoch are retired
 * (their id resolves to nothing from then on) and their ids go to quarantine. The epoch guard
 * covers a switch whose id was interned but whose ring entry was not yet drained. A quarantined
 * slot becomes free at a later prune that finds no timeline referring to it and no {@link
 * ReadWindow} open that was open when it was retired: a join reads a record it resolved without
 * ever seeing it change under it.
 *
 * <p>Each slot keeps its {@link ContextRecord} object, which is defined anew for the next span the
 * slot is handed to (so that young collections do not copy a new record per span), up to {@link
 * #idleBound} free slots; slots freed beyond it let theirs go (bare slots, in {@link RecordTable}
 * an empty entry).
 *
 * <p>Ids carry a generation ({@link ContextIds}): a slot handed out again gets the next
 * generation, so an id is never handed out twice while its slot's generations have not wrapped.
 * A capture thread that got an id, was preempted while its record was removed and its slot
 * reused, and wrote the old id afterwards leaves an entry that resolves to nothing (the join
 * counts it unknown), never one that resolves to somebody else's span; the native record of
 * that thread shows no context.
 *
 * <p>The epoch itself stays in the registry, which the capture path reads at every switch.
 *
 * <p>Not API: internal to Spanflight.
 */
final class IdRecycler {
  /**
   * Free slots that keep their record object for the next span (about 80 bytes each): this many,
   * or as many as were in use at the recent peak if more (see {@link #idleBound}). Slots freed
   * beyond it let theirs go. A busy service frees about as many slots each second as it interns
   * (Spring PetClinic: 15 000 a second, 55 000 current): with a fixed bound below that, it let
   * record objects go each second and made new ones the next, which young collections then copied.
   */
  static final int MAX_IDLE_RECORDS = 16_384;

  /**
   * The recent peak forgets 1/64 of itself per prune (one a second): after a burst, idle slots keep
   * their records for about a minute before the bound comes down (halved in about 44 s).
   */
  static final int PEAK_DECAY = 64;

  private final RecordTable byId;
  private final int maxIndex;
  /**
   * The last ids of free slots that kept their record (at most {@link #idleBound}), first freed
   * first: a slot is reused as late as possible.
   */
  private final IntQueue freeIds = new IntQueue();
  /**
   * Free slots whose record was let go (beyond {@link #idleBound}), taken only when {@link #freeIds}
   * is empty: a service that is quieter after a burst cycles through the slots that kept their
   * record, instead of reaching the bare ones and making a record for each (which, living seconds,
   * would be old garbage once dropped again).
   */
  private final IntQueue bareIds = new IntQueue();
  /** Ids removed by earlier prunes whose slot is not yet known to be unreferenced. */
  private final IntQueue quarantine = new IntQueue();
  private final AtomicInteger nextIndex = new AtomicInteger(1);
  /** Slots in use (current or in quarantine) at the recent peak, decaying; pruning thread only. */
  private int peakInUse;
  /**
   * How many free slots keep their record: at least {@value #MAX_IDLE_RECORDS}, else the recent
   * peak of slots in use. Not the number in use now: on PetClinic that swings between 16 000 and
   * 76 000 within a minute, and a bound that followed it let tens of thousands of records go on
   * each downswing and made as many on each upswing, each one old by then (records live for
   * seconds, past G1's tenuring): 3.6-5.5 MB a minute of old-generation garbage (2026-11-30, heap
   * dumps). Pruning thread only.
   */
  private int idleBound = MAX_IDLE_RECORDS;
  private final CopyOnWriteArrayList<ReadWindow> windows = new CopyOnWriteArrayList<>();

  /**
   * @param byId the registry's slot table
   * @param maxIndex the highest slot index handed out
   */
  IdRecycler(RecordTable byId, int maxIndex) {
    this.byId = byId;
    this.maxIndex = maxIndex;
  }

  /**
   * The next generation of the slot freed first (one that kept its record first, then a bare
   * one), or a never-used slot, or 0 when none is left.
   */
  int nextId() {
    int freed = freeIds.poll(NO_CONTEXT);
    if (freed == NO_CONTEXT) {
      freed = bareIds.poll(NO_CONTEXT);
    }
    if (freed != NO_CONTEXT) {
      return ContextIds.next(freed);
    }
    int index = nextIndex.get();
    while (index <= maxIndex) {
      if (nextIndex.compareAndSet(index, index + 1)) {
        return ContextIds.first(index);
      }
      index = nextIndex.get();
    }
    return NO_CONTEXT;
  }

  /** Keeps {@code window} from seeing a slot redefined while it is open. */
  void watch(ReadWindow window) {
    windows.add(window);
  }

  /**
   * Removes the records of {@code registry} whose slot no timeline references and that the capture
   * path has not used in epoch {@code current} or the one before, and frees the quarantined slots
   * no timeline and no read window can still see (see the class comment). Returns how many records
   * were removed. The caller ends epoch {@code current} afterwards.
   */
  int prune(ContextRegistry registry, IntPredicate referenced, int current) {
    boolean windowsClear = windowsClearOfEpochsBefore(current);
    int waiting = quarantine.size();
    lowerIdleBound(registry.size() + waiting);
    // Each waiting id leaves the queue's head once and goes back to its tail while still needed:
    // no copy of the queue, which holds about a second's spans (thousands of ids) at each prune.
    for (int i = 0; i < waiting; i++) {
      int id = quarantine.poll(NO_CONTEXT);
      if (!windowsClear || referenced.test(ContextIds.index(id))) {
        quarantine.add(id);
      } else {
        ContextRecord free = byId.retired(ContextIds.index(id));
        if (free != null) {
          free.clear(); // no reader left: let go of its span's objects
        }
        if (free != null && freeIds.size() < idleBound) {
          freeIds.add(id);
        } else {
          makeBare(id, free); // beyond the bound: the slot keeps no object
        }
      }
    }
    int[] removed = {0};
    byId.forEach(nextIndex.get(), record -> {
      registry.forgetKey(record); // the key map keeps no record across a prune: a later use interns anew
      boolean unused = record.lastEpoch < current - 1;
      if (unused && !referenced.test(ContextIds.index(record.id()))) {
        int id = record.id();
        record.retire();
        quarantine.add(id);
        registry.countRetired();
        removed[0]++;
      } else {
        record.releaseEndedSource();
      }
    });
    return removed[0];
  }

  /**
   * Follows the peak of slots in use, and when the bound comes down, lets go of the records of the
   * free slots beyond it (those that would be reused last), which become bare. A slot taken off the
   * free queue is in no queue until it is added to the bare one: no capture thread can take it
   * meanwhile.
   */
  private void lowerIdleBound(int inUse) {
    peakInUse = Math.max(inUse, peakInUse - peakInUse / PEAK_DECAY);
    idleBound = Math.max(MAX_IDLE_RECORDS, peakInUse);
    int id;
    while ((id = freeIds.pollNewestBeyond(idleBound, NO_CONTEXT)) != NO_CONTEXT) {
      makeBare(id, byId.retired(ContextIds.index(id)));
    }
  }

  /** Lets go of free slot {@code id}'s record, if it has one, and queues the slot as bare. */
  private void makeBare(int id, ContextRecord record) {
    if (record != null) {
      byId.drop(ContextIds.index(id), record);
    }
    bareIds.add(id);
  }

  /** Whether no read window can hold a record retired before epoch {@code current}. */
  private boolean windowsClearOfEpochsBefore(int current) {
    for (ReadWindow window : windows) {
      if (!window.clearOfEpochsBefore(current)) {
        return false;
      }
    }
    return true;
  }
}
