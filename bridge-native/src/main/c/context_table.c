/*
 * The context table: context id -> the record content it stands for.
 *
 * Two levels: a static array of chunk pointers, and chunks of entries allocated on a
 * define that first needs them. Chunks are never moved or freed, so a switch on any thread
 * reads its entry without a lock. A slot is found by the id's index bits; the entry keeps the
 * whole id it was last defined with (generation included), 0 while it is rewritten. A lookup
 * shows the entry only when that id equals the one asked for: one compare, so a thread that
 * switches to an id after its slot was handed to another context (it was preempted between
 * getting the id and writing it) finds no record rather than the other context's. Rewriting is
 * a sequence lock on the id: id = 0, fence, content, id = new with release; a reader copies the
 * content and checks the id again (sf_table_still), so a copy torn by a concurrent rewrite is
 * never published.
 *
 * An entry holds up to SF_INLINE_ATTRS attribute bytes itself; a slot defined with more gets
 * overflow bytes of its own (one array per chunk, made on the first long define in it, touched
 * only for the slots that use it). A reader that copied a size from a torn rewrite copies
 * bytes that are still this slot's, and sf_table_still then refuses the copy.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHUNK_BITS 10  /* 1024 entries (128 KiB) per chunk */
#define CHUNK_SIZE (1 << CHUNK_BITS)
#define CHUNK_COUNT (SF_MAX_CONTEXTS / CHUNK_SIZE)

_Static_assert(sizeof(sf_table_entry) == SF_TABLE_ENTRY_SIZE, "table entries are 128 bytes");

static sf_table_entry *chunks[CHUNK_COUNT];
static uint8_t *overflow_chunks[CHUNK_COUNT];  /* CHUNK_SIZE * SF_ATTRS_CAPACITY bytes each */
static uint64_t dropped_attribute_bytes;

/* The array at *slot, made (calloc, untouched pages stay free) by the first caller that needs it. */
static void *shared_array(void **slot, size_t count, size_t size) {
  void *array = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (array != NULL) {
    return array;
  }
  void *fresh = calloc(count, size);
  if (fresh == NULL) {
    return NULL;
  }
  /* Two threads may define ids of the same new chunk at once: one array wins. */
  if (__atomic_compare_exchange_n(slot, &array, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    return fresh;
  }
  free(fresh);
  return array;
}

static sf_table_entry *chunk_of(int32_t index) {
  return shared_array((void **)&chunks[index >> CHUNK_BITS], CHUNK_SIZE, sizeof(sf_table_entry));
}

/* The slot's own SF_ATTRS_CAPACITY overflow bytes, or NULL when out of memory. */
static uint8_t *overflow_of(int32_t index) {
  uint8_t *chunk = shared_array((void **)&overflow_chunks[index >> CHUNK_BITS], CHUNK_SIZE,
                                SF_ATTRS_CAPACITY);
  return chunk == NULL ? NULL : chunk + (size_t)(index & (CHUNK_SIZE - 1)) * SF_ATTRS_CAPACITY;
}

/* Length of the longest prefix of whole {key, length, value} entries that fits. */
static size_t whole_entries_fitting(const uint8_t *attrs, size_t length) {
  size_t fitting = 0;
  while (fitting + 2 <= length) {
    size_t next = fitting + 2 + attrs[fitting + 1];
    if (next > length) {
      break;
    }
    fitting = next;
  }
  return fitting;
}

/* Whether an id can name a slot: positive, with an index other than 0. */
static int usable(int32_t context_id) {
  return context_id > 0 && SF_CONTEXT_INDEX(context_id) != 0;
}

/*
 * value->attrs_data holds the first bytes (at most SF_ATTRS_CAPACITY) of the
 * requested_length attribute bytes the caller was given. Defines of one slot are not
 * concurrent: the Java registry defines an id once, before handing it out.
 */
void sf_table_define(int32_t context_id, sf_thread_record *value, size_t requested_length) {
  size_t copied = requested_length < SF_ATTRS_CAPACITY ? requested_length : SF_ATTRS_CAPACITY;
  size_t kept = whole_entries_fitting(value->attrs_data, copied);
  int32_t index = usable(context_id) ? SF_CONTEXT_INDEX(context_id) : 0;
  sf_table_entry *chunk = index != 0 ? chunk_of(index) : NULL;
  if (chunk == NULL) {
    return;  /* unusable id or out of memory: switches to this id publish no record */
  }
  sf_table_entry *entry = &chunk[index & (CHUNK_SIZE - 1)];
  uint8_t *attrs = entry->inline_attrs;
  if (kept > SF_INLINE_ATTRS) {
    uint8_t *overflow = overflow_of(index);
    if (overflow != NULL) {
      attrs = overflow;
    } else {
      kept = whole_entries_fitting(value->attrs_data, SF_INLINE_ATTRS);  /* out of memory */
    }
  }
  if (kept < requested_length) {
    __atomic_fetch_add(&dropped_attribute_bytes, requested_length - kept, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&entry->context_id, 0, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  memcpy(entry->trace_id, value->trace_id, sizeof entry->trace_id);
  memcpy(entry->span_id, value->span_id, sizeof entry->span_id);
  entry->trace_flags = value->trace_flags;
  if (attrs != entry->inline_attrs) {
    __atomic_store_n(&entry->overflow, attrs, __ATOMIC_RELAXED);  /* the same pointer every time */
  }
  memcpy(attrs, value->attrs_data, kept);
  __atomic_store_n(&entry->attrs_data_size, (uint16_t)kept, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->context_id, context_id, __ATOMIC_RELEASE);
}

const uint8_t *sf_table_attrs(const sf_table_entry *entry, uint16_t size) {
  return size <= SF_INLINE_ATTRS ? entry->inline_attrs
                                 : __atomic_load_n(&entry->overflow, __ATOMIC_RELAXED);
}

/* The entry defined with exactly context_id, or NULL (0, undefined, reused, unusable). */
const sf_table_entry *sf_table_lookup(int32_t context_id) {
  if (!usable(context_id)) {
    return NULL;
  }
  int32_t index = SF_CONTEXT_INDEX(context_id);
  const sf_table_entry *chunk = __atomic_load_n(&chunks[index >> CHUNK_BITS], __ATOMIC_ACQUIRE);
  if (chunk == NULL) {
    return NULL;
  }
  const sf_table_entry *entry = &chunk[index & (CHUNK_SIZE - 1)];
  return __atomic_load_n(&entry->context_id, __ATOMIC_ACQUIRE) == context_id ? entry : NULL;
}

/* After copying entry's record: whether it still holds context_id (no rewrite tore the copy). */
int sf_table_still(const sf_table_entry *entry, int32_t context_id) {
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return __atomic_load_n(&entry->context_id, __ATOMIC_RELAXED) == context_id;
}

uint64_t sf_dropped_attribute_bytes(void) {
  return __atomic_load_n(&dropped_attribute_bytes, __ATOMIC_RELAXED);
}
