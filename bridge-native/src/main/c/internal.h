/*
 * internal.h - how the library's files call each other. Not ABI: nothing here is exported
 * (the library is built with -fvisibility=hidden); the ABI is spanflight.h.
 */
#ifndef SPANFLIGHT_INTERNAL_H
#define SPANFLIGHT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "spanflight.h"

/* The clock of System.nanoTime() on Linux. */
static inline int64_t sf_monotonic_nanos(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* switch_clock.c: the clock a switch stamps its ring entry with (see spanflight.h). */
extern int sf_ticks_on;

static inline int64_t sf_switch_time(uint16_t *clock) {
#if defined(__x86_64__)
  if (__atomic_load_n(&sf_ticks_on, __ATOMIC_RELAXED)) {
    *clock = SF_CLOCK_TICKS;
    return (int64_t)__builtin_ia32_rdtsc();
  }
#endif
  *clock = SF_CLOCK_MONOTONIC;
  return sf_monotonic_nanos();
}

int sf_ticks_invariant(void);
void sf_use_ticks(int on);
int sf_clock_pair(int64_t out[3]);

/* context_table.c: what each context id stands for. */
#define SF_TABLE_ENTRY_SIZE 40

/*
 * A shared attribute set: a number (0 .. SF_MAX_ATTRIBUTE_SETS - 1) that the Java side gives to
 * one packed set of attributes for the life of the process, so that the table keeps those bytes
 * once, however many contexts carry them. Any other number means "this context's own bytes".
 */
#define SF_MAX_ATTRIBUTE_SETS (1 << 16)

/* Attribute bytes, in a block of their own (private to context_table.c). */
struct sf_attrs_block;

/*
 * The content a switch copies into the thread's record. An entry is 40 bytes, not the
 * record's 640: every slot up to the most contexts ever alive at once stays resident, and a
 * context's attributes are usually one of a few sets (a route and a method), which the entry
 * points at instead of holding them.
 */
typedef struct sf_table_entry {
  int32_t context_id;         /* the whole id last defined in this slot; 0 while rewritten */
  uint8_t trace_id[16];
  uint8_t span_id[8];
  uint8_t trace_flags;
  const struct sf_attrs_block *attrs;  /* NULL = no attributes; a block is never freed */
} sf_table_entry;

/* What sf_table_define is asked to define. */
typedef struct sf_definition {
  uint8_t trace_id[16];
  uint8_t span_id[8];
  uint8_t trace_flags;
  int32_t attribute_set;    /* a shared set's number, or any other value for the context's own */
  const uint8_t *attrs;     /* the first `copied` attribute bytes; NULL when the set is known */
  size_t copied;            /* at most SF_ATTRS_CAPACITY */
  size_t requested_length;  /* all the attribute bytes the caller was given */
} sf_definition;

void sf_table_define(int32_t context_id, const sf_definition *definition);
/* The table is chunks of SF_TABLE_CHUNK_ENTRIES entries, never moved or freed. */
#define SF_TABLE_CHUNK_BITS 10
#define SF_TABLE_CHUNK_ENTRIES (1 << SF_TABLE_CHUNK_BITS)
/* Chunk number chunk_number (slots chunk_number << SF_TABLE_CHUNK_BITS ...), made if needed;
   NULL when out of range or out of memory. */
sf_table_entry *sf_table_chunk(int32_t chunk_number);
/* A known shared set's block: out = {its address, its dropped bytes}; 0 while not made yet. */
int sf_table_set_block(int32_t attribute_set, int64_t out[2]);
/* Whether a define with this set number needs no bytes: the set's are kept already. */
int sf_table_set_known(int32_t attribute_set);
const sf_table_entry *sf_table_lookup(int32_t context_id);
/* Copies the entry's attribute bytes into out (room for SF_ATTRS_CAPACITY); returns how many.
   A copy torn by a concurrent rewrite is refused afterwards by sf_table_still. */
uint16_t sf_table_copy_attrs(const sf_table_entry *entry, uint8_t *out);
int sf_table_still(const sf_table_entry *entry, int32_t context_id);
uint64_t sf_dropped_attribute_bytes(void);

/* thread_state.c: the calling OS thread's record and ring. */
int sf_threads_init(void);
void sf_thread_switch(int32_t context_id, int64_t java_thread_id, int32_t thread_kind);
void sf_thread_show(int32_t context_id);
void sf_records_clear(void);

/* timeline_ring.c: the rings, written by their thread, drained by one drainer. */
struct sf_ring;

/* What one ring yields to a drain; the arrays stay valid until the next sf_drain_next. */
struct sf_drained {
  uint32_t delivered;
  const int64_t *times;
  const int8_t *clocks;
  const int64_t *java_thread_ids;
  const int32_t *context_ids;
  int64_t lost;
  int64_t lost_thread_id;
  int64_t ended_thread_id;
  uint64_t ring_number;  /* the ring's SF_DRAIN_RING */
  int freed;             /* the ring was dead: freed after this drain */
};

uint32_t sf_rings_init(uint32_t capacity);
uint32_t sf_ring_capacity(void);
int32_t sf_ring_count(void);
struct sf_ring *sf_ring_create(void);
void sf_ring_append(struct sf_ring *ring, int32_t context_id, int64_t java_thread_id,
                    int32_t thread_kind);
void sf_ring_retire(struct sf_ring *ring);
void sf_rings_switch_off(int switched_off);
int sf_drain_enter(void);
void sf_drain_leave(void);
void sf_drain_restart(void);
int sf_drain_next(struct sf_drained *out);

/* process_context.c: the OTEL_CTX mapping; takes ownership of the malloc'd payload. */
int sf_process_context_publish(void *payload, size_t size);

#endif
