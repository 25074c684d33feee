/*
 * Timeline rings: one per OS thread, fixed capacity, written only by that thread and
 * drained by one drainer at a time (the Java facade serialises drains).
 *
 * Lifecycle: created on the thread's first switch and pushed on a lock-free list; marked
 * dead by the thread-exit destructor; unlinked and freed by the drainer right after the
 * drain that saw the mark, so a drain never touches freed memory and misses no entry.
 *
 * Switched off (profiling off at run time, sf_rings_switch_off): nothing drains, and no
 * thread polls. Switching off frees the rings already dead; from then on the destructor of
 * an exiting thread unlinks and frees its ring itself (what it wrote since the last drain
 * is never delivered: while off, no timeline is kept). Unlinking, by the drainer or by an
 * exiting thread, and the off flag are under one mutex, which a drain holds for a whole
 * drain0 call; a ring's first switch pushes it without the mutex (only the head moves).
 *
 * What a drain reports per ring, under the ring's number (never reused, so the facade can
 * keep a ring's order across drains): the lost entries, the delivered entries, the end of
 * the thread, and whether the ring is freed (reported once, even with nothing else). Lost
 * entries are charged to the Java thread of the last entry the ring delivered before the
 * gap, else of the first entry after it, else (the writer lapped the whole ring during one
 * copy) of the newest slot copied. A dead ring reports the end of the Java thread of its
 * last delivered entry only if that was a platform thread: a platform thread cannot outlive
 * its OS thread, but a virtual thread last seen on an exiting carrier may live on elsewhere.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct sf_ring {
  /* Written by the owning thread. */
  uint64_t published;  /* entries written so far (release) */
  uint32_t dead;       /* set once, by the thread-exit destructor (release) */
  uint32_t mask;
  uint64_t number;       /* SF_DRAIN_RING: set before the ring is pushed, then read-only */
  struct sf_ring *next;  /* written before the ring is pushed, later by the drainer only */
  /* Drainer-private, on its own cache line so drains do not slow the writer down. */
  uint64_t drained __attribute__((aligned(64)));  /* first sequence not yet delivered */
  int64_t last_thread_id;                          /* of the last delivered entry, or 0 */
  int32_t last_thread_kind;
  sf_timeline_entry entries[] __attribute__((aligned(64)));
};

static uint32_t capacity;      /* entries per ring: fixed by the first init */
static struct sf_ring *rings;  /* list head: pushed by new threads, unlinked under unlink_lock */
static int32_t ring_count;
static uint64_t rings_created; /* numbers the rings: 1, 2, ... */
static pthread_mutex_t unlink_lock = PTHREAD_MUTEX_INITIALIZER;
static int off;                /* switched off: exiting threads free their rings (unlink_lock) */

/* Drainer-private: where the current pass is, and the copy of one ring's entries. */
static struct { struct sf_ring *previous, *current; } pass;
static struct {
  int64_t *times, *thread_ids;
  int32_t *contexts;
  uint16_t *kinds;
  int8_t *clocks;
} copy;

/* Fixes the ring capacity (a power of two) once; returns the one in effect, 0 on failure. */
uint32_t sf_rings_init(uint32_t requested) {
  if (capacity != 0) {
    return capacity;
  }
  if (requested < 2 || (requested & (requested - 1)) != 0) {
    return 0;
  }
  copy.times = malloc(requested * sizeof(int64_t));
  copy.thread_ids = malloc(requested * sizeof(int64_t));
  copy.contexts = malloc(requested * sizeof(int32_t));
  copy.kinds = malloc(requested * sizeof(uint16_t));
  copy.clocks = malloc(requested * sizeof(int8_t));
  if (!copy.times || !copy.thread_ids || !copy.contexts || !copy.kinds || !copy.clocks) {
    return 0;  /* the facade falls back to Java; the few bytes stay allocated */
  }
  __atomic_store_n(&capacity, requested, __ATOMIC_RELEASE);
  return requested;
}

uint32_t sf_ring_capacity(void) {
  return __atomic_load_n(&capacity, __ATOMIC_ACQUIRE);
}

int32_t sf_ring_count(void) {
  return __atomic_load_n(&ring_count, __ATOMIC_RELAXED);
}

struct sf_ring *sf_ring_create(void) {
  uint32_t entries = sf_ring_capacity();
  size_t size = sizeof(struct sf_ring) + entries * sizeof(sf_timeline_entry);
  void *memory;
  if (entries == 0 || posix_memalign(&memory, 64, size) != 0) {
    return NULL;
  }
  struct sf_ring *ring = memset(memory, 0, size);
  ring->mask = entries - 1;
  ring->number = __atomic_add_fetch(&rings_created, 1, __ATOMIC_RELAXED);
  ring->next = __atomic_load_n(&rings, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(&rings, &ring->next, ring, 1, __ATOMIC_RELEASE,
                                      __ATOMIC_RELAXED)) {
  }
  __atomic_fetch_add(&ring_count, 1, __ATOMIC_RELAXED);
  return ring;
}

void sf_ring_append(struct sf_ring *ring, int32_t context_id, int64_t java_thread_id,
                    int32_t thread_kind) {
  uint64_t seq = ring->published;
  sf_timeline_entry *entry = &ring->entries[seq & ring->mask];
  uint16_t clock;
  int64_t time = sf_switch_time(&clock);
  __atomic_store_n(&entry->time, time, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->java_thread_id, java_thread_id, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->context_id, context_id, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->thread_kind, (uint16_t)thread_kind, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->clock, clock, __ATOMIC_RELAXED);
  __atomic_store_n(&ring->published, seq + 1, __ATOMIC_RELEASE);
  /* The next entry's stores must not become visible before this count, or a drain could
     see a slot rewritten while the count still says it is intact. */
  __atomic_thread_fence(__ATOMIC_RELEASE);
}

static struct sf_ring *unlink_ring(struct sf_ring *ring, struct sf_ring *previous);

/* The ring's thread is exiting: the drainer frees the ring after its last drain, or, while
   switched off, the thread frees it now. */
void sf_ring_retire(struct sf_ring *ring) {
  pthread_mutex_lock(&unlink_lock);
  if (off) {
    unlink_ring(ring, NULL);
  } else {
    __atomic_store_n(&ring->dead, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&unlink_lock);
}

/* Switches off (1): ends any drain pass, frees the rings already dead, and from then on each
   exiting thread frees its own. Switches on (0): the drainer frees them again. */
void sf_rings_switch_off(int switched_off) {
  pthread_mutex_lock(&unlink_lock);
  off = switched_off;
  if (switched_off) {
    pass.previous = NULL;
    pass.current = NULL;
    struct sf_ring *previous = NULL;
    struct sf_ring *ring = __atomic_load_n(&rings, __ATOMIC_ACQUIRE);
    while (ring != NULL) {
      struct sf_ring *next = ring->next;
      if (__atomic_load_n(&ring->dead, __ATOMIC_ACQUIRE)) {
        previous = unlink_ring(ring, previous);
      } else {
        previous = ring;
      }
      ring = next;
    }
  }
  pthread_mutex_unlock(&unlink_lock);
}

/* Copies sequences [start, end) of the ring into copy. */
static void copy_entries(const struct sf_ring *ring, uint64_t start, uint64_t end) {
  for (uint64_t seq = start; seq < end; seq++) {
    const sf_timeline_entry *entry = &ring->entries[seq & ring->mask];
    size_t i = seq - start;
    copy.times[i] = __atomic_load_n(&entry->time, __ATOMIC_RELAXED);
    copy.clocks[i] = (int8_t)__atomic_load_n(&entry->clock, __ATOMIC_RELAXED);
    copy.thread_ids[i] = __atomic_load_n(&entry->java_thread_id, __ATOMIC_RELAXED);
    copy.contexts[i] = __atomic_load_n(&entry->context_id, __ATOMIC_RELAXED);
    copy.kinds[i] = __atomic_load_n(&entry->thread_kind, __ATOMIC_RELAXED);
  }
}

/* Drains one ring into out (which the caller zeroed). */
static void drain_ring(struct sf_ring *ring, struct sf_drained *out) {
  uint64_t end = __atomic_load_n(&ring->published, __ATOMIC_ACQUIRE);
  if (end == ring->drained) {
    return;
  }
  uint64_t size = (uint64_t)ring->mask + 1;
  uint64_t start = end - ring->drained > size ? end - size : ring->drained;
  copy_entries(ring, start, end);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  uint64_t end_after_copy = __atomic_load_n(&ring->published, __ATOMIC_ACQUIRE);
  /* The writer may be rewriting the slot of sequence (end_after_copy - size) right now:
     only the entries after it are certainly intact. */
  uint64_t first_intact = end_after_copy >= size ? end_after_copy - size + 1 : 0;
  first_intact = first_intact < start ? start : first_intact > end ? end : first_intact;
  size_t skip = first_intact - start, last = end - start - 1;
  out->delivered = (uint32_t)(end - first_intact);
  out->times = copy.times + skip;
  out->clocks = copy.clocks + skip;
  out->java_thread_ids = copy.thread_ids + skip;
  out->context_ids = copy.contexts + skip;
  out->lost = (int64_t)(first_intact - ring->drained);
  if (out->lost > 0) {
    out->lost_thread_id = ring->last_thread_id != 0 ? ring->last_thread_id
        : copy.thread_ids[out->delivered > 0 ? skip : last];
  }
  if (out->delivered > 0) {
    ring->last_thread_id = copy.thread_ids[last];
    ring->last_thread_kind = copy.kinds[last];
  }
  ring->drained = end;
}

void sf_drain_restart(void) {
  pass.previous = NULL;
  pass.current = __atomic_load_n(&rings, __ATOMIC_ACQUIRE);
}

/* Unlinks and frees a ring whose predecessor is previous (NULL: the ring was the head when
   last seen). Returns its predecessor now, NULL if it was the head. Under unlink_lock: new
   rings only ever replace the head, and only holders of the lock unlink, so only unlinking
   the head needs a compare-and-swap. */
static struct sf_ring *unlink_ring(struct sf_ring *ring, struct sf_ring *previous) {
  struct sf_ring *next = ring->next, *expected = ring;
  if (previous != NULL) {
    previous->next = next;
  } else if (!__atomic_compare_exchange_n(&rings, &expected, next, 0, __ATOMIC_ACQ_REL,
                                          __ATOMIC_ACQUIRE)) {
    /* Rings were pushed in front of this one since: find its predecessor. */
    previous = expected;
    while (previous->next != ring) {
      previous = previous->next;
    }
    previous->next = next;
  }
  __atomic_fetch_sub(&ring_count, 1, __ATOMIC_RELAXED);
  free(ring);
  return previous;
}

/* Unlinks and frees pass.current. */
static void unlink_current(void) {
  struct sf_ring *next = pass.current->next;
  pass.previous = unlink_ring(pass.current, pass.previous);
  pass.current = next;
}

/* A drain0 call holds the unlink lock throughout; 0 (and nothing held) while switched off. */
int sf_drain_enter(void) {
  pthread_mutex_lock(&unlink_lock);
  if (off) {
    pthread_mutex_unlock(&unlink_lock);
    return 0;
  }
  return 1;
}

void sf_drain_leave(void) {
  pthread_mutex_unlock(&unlink_lock);
}

/* Drains the pass's next ring that has something to report; 0 at the end of the pass. */
int sf_drain_next(struct sf_drained *out) {
  while (pass.current != NULL) {
    struct sf_ring *ring = pass.current;
    /* Read "dead" before draining, so every entry written before the end is delivered. */
    int dead = __atomic_load_n(&ring->dead, __ATOMIC_ACQUIRE);
    memset(out, 0, sizeof *out);
    drain_ring(ring, out);
    out->ring_number = ring->number;
    out->freed = dead;
    if (dead) {
      out->ended_thread_id =
          ring->last_thread_kind == SF_THREAD_PLATFORM ? ring->last_thread_id : 0;
      unlink_current();
    } else {
      pass.previous = ring;
      pass.current = ring->next;
    }
    if (out->delivered > 0 || out->lost > 0 || out->freed) {
      return 1;
    }
  }
  return 0;
}
