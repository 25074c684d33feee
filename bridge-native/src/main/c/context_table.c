/*
 * The context table: context id -> the record content it stands for.
 *
 * Two levels: a static array of chunk pointers, and chunks of records allocated on a
 * define that first needs them. Chunks are never moved or freed, so a switch on any thread
 * reads its entry without a lock. An entry's valid byte says "defined"; it is cleared
 * while the entry is rewritten and set with release semantics when it is complete.
 * The Java registry reuses an id only once nothing switches to it any more, so a switch
 * never races with the redefinition of the id it reads.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHUNK_BITS 10  /* 1024 records (640 KiB, touched lazily) per chunk */
#define CHUNK_SIZE (1 << CHUNK_BITS)
#define CHUNK_COUNT (SF_MAX_CONTEXTS / CHUNK_SIZE)

static sf_thread_record *chunks[CHUNK_COUNT];
static uint64_t dropped_attribute_bytes;

static sf_thread_record *chunk_of(int32_t context_id) {
  sf_thread_record **slot = &chunks[context_id >> CHUNK_BITS];
  sf_thread_record *chunk = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (chunk != NULL) {
    return chunk;
  }
  sf_thread_record *fresh = calloc(CHUNK_SIZE, sizeof(sf_thread_record));
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

/*
 * value->attrs_data holds the first bytes (at most SF_ATTRS_CAPACITY) of the
 * requested_length attribute bytes the caller was given.
 */
void sf_table_define(int32_t context_id, sf_thread_record *value, size_t requested_length) {
  size_t copied = requested_length < SF_ATTRS_CAPACITY ? requested_length : SF_ATTRS_CAPACITY;
  size_t kept = whole_entries_fitting(value->attrs_data, copied);
  if (kept < requested_length) {
    __atomic_fetch_add(&dropped_attribute_bytes, requested_length - kept, __ATOMIC_RELAXED);
  }
  value->attrs_data_size = (uint16_t)kept;
  value->valid = 0;  /* copied below; the entry turns valid only once complete */
  sf_thread_record *chunk = context_id > 0 && context_id < SF_MAX_CONTEXTS
      ? chunk_of(context_id) : NULL;
  if (chunk == NULL) {
    return;  /* out of range or out of memory: switches to this id publish no record */
  }
  sf_thread_record *entry = &chunk[context_id & (CHUNK_SIZE - 1)];
  __atomic_store_n(&entry->valid, 0, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  memcpy(entry, value, SF_RECORD_HEADER_SIZE + kept);
  __atomic_store_n(&entry->valid, 1, __ATOMIC_RELEASE);
}

/* The defined entry of context_id, or NULL (0, undefined, out of range). */
const sf_thread_record *sf_table_lookup(int32_t context_id) {
  if (context_id <= 0 || context_id >= SF_MAX_CONTEXTS) {
    return NULL;
  }
  const sf_thread_record *chunk =
      __atomic_load_n(&chunks[context_id >> CHUNK_BITS], __ATOMIC_ACQUIRE);
  if (chunk == NULL) {
    return NULL;
  }
  const sf_thread_record *entry = &chunk[context_id & (CHUNK_SIZE - 1)];
  return __atomic_load_n(&entry->valid, __ATOMIC_ACQUIRE) == 1 ? entry : NULL;
}

uint64_t sf_dropped_attribute_bytes(void) {
  return __atomic_load_n(&dropped_attribute_bytes, __ATOMIC_RELAXED);
}
