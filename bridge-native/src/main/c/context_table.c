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
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHUNK_BITS 10  /* 1024 records (640 KiB, touched lazily) per chunk */
#define CHUNK_SIZE (1 << CHUNK_BITS)
#define CHUNK_COUNT (SF_MAX_CONTEXTS / CHUNK_SIZE)

static sf_table_entry *chunks[CHUNK_COUNT];
static uint64_t dropped_attribute_bytes;

static sf_table_entry *chunk_of(int32_t index) {
  sf_table_entry **slot = &chunks[index >> CHUNK_BITS];
  sf_table_entry *chunk = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (chunk != NULL) {
    return chunk;
  }
  sf_table_entry *fresh = calloc(CHUNK_SIZE, sizeof(sf_table_entry));
  if (fresh == NULL) {
    return NULL;
  }
  /* Two threads may define ids of the same new chunk at once: one chunk wins. */
  if (__atomic_compare_exchange_n(slot, &chunk, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    return fresh;
  }
  free(fresh);
  return chunk;
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
  if (kept < requested_length) {
    __atomic_fetch_add(&dropped_attribute_bytes, requested_length - kept, __ATOMIC_RELAXED);
  }
  value->attrs_data_size = (uint16_t)kept;
  value->valid = 1;  /* the table's copy; publish() sets the thread record's own flag */
  int32_t index = usable(context_id) ? SF_CONTEXT_INDEX(context_id) : 0;
  sf_table_entry *chunk = index != 0 ? chunk_of(index) : NULL;
  if (chunk == NULL) {
    return;  /* unusable id or out of memory: switches to this id publish no record */
  }
  sf_table_entry *entry = &chunk[index & (CHUNK_SIZE - 1)];
  __atomic_store_n(&entry->context_id, 0, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  memcpy(&entry->record, value, SF_RECORD_HEADER_SIZE + kept);
  __atomic_store_n(&entry->context_id, context_id, __ATOMIC_RELEASE);
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
