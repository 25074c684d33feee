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
 * NativeContextBridge also defines contexts of a shared set that the table knows already
 * itself, through a direct buffer over the slot's chunk (sf_table_chunk) and the set block's
 * address (sf_table_set_block), with the same sequence lock and layout: no JNI call per span.
 *
 * Attribute bytes live in blocks the entry points at, never freed, so a reader that follows a
 * pointer from a torn copy still reads memory of ours (and sf_table_still refuses the copy):
 *   - a shared set's block (see SF_MAX_ATTRIBUTE_SETS), made on the set's first define and
 *     never changed: the usual case, where thousands of contexts carry one route and method;
 *   - a slot's own block, for attributes of no shared set, rewritten under the slot's sequence
 *     lock. It grows when a define needs more room; the block it replaces stays allocated (a
 *     reader may still be copying it), so a slot holds at most a few, ~2 x SF_ATTRS_CAPACITY.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHUNK_BITS SF_TABLE_CHUNK_BITS  /* 1024 entries (40 KiB) per chunk */
#define CHUNK_SIZE (1 << CHUNK_BITS)
#define CHUNK_COUNT (SF_MAX_CONTEXTS / CHUNK_SIZE)
#define OWN_BLOCK_MIN 48  /* the first own block's room: a route and a method (64 bytes with its header) */

_Static_assert(sizeof(sf_table_entry) == SF_TABLE_ENTRY_SIZE, "table entries are 40 bytes");
/* The layout NativeContextBridge writes into when it defines a context of a known set itself. */
_Static_assert(offsetof(sf_table_entry, context_id) == 0, "context id at 0");
_Static_assert(offsetof(sf_table_entry, trace_id) == 4, "trace id at 4");
_Static_assert(offsetof(sf_table_entry, span_id) == 20, "span id at 20");
_Static_assert(offsetof(sf_table_entry, trace_flags) == 28, "trace flags at 28");
_Static_assert(offsetof(sf_table_entry, attrs) == 32, "attrs at 32");
_Static_assert(CHUNK_SIZE == SF_TABLE_CHUNK_ENTRIES, "chunk size as internal.h says");

struct sf_attrs_block {
  uint16_t capacity;              /* room in data[]: fixed, at most SF_ATTRS_CAPACITY */
  uint16_t size;                  /* bytes in use: fixed in a set's block, rewritten in an own one */
  uint32_t dropped;               /* a set's block: bytes of its attributes that did not fit */
  struct sf_attrs_block *older;   /* an own block: the one this replaced when the slot grew */
  uint8_t data[];
};

static sf_table_entry *chunks[CHUNK_COUNT];
static struct sf_attrs_block **own_chunks[CHUNK_COUNT];  /* each slot's own block, or NULL */
static struct sf_attrs_block *sets[SF_MAX_ATTRIBUTE_SETS];
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

static struct sf_attrs_block *new_block(size_t capacity) {
  struct sf_attrs_block *block = malloc(sizeof(struct sf_attrs_block) + capacity);
  if (block != NULL) {
    block->capacity = (uint16_t)capacity;
    block->size = 0;
    block->dropped = 0;
    block->older = NULL;
  }
  return block;
}

static int is_set(int32_t attribute_set) {
  return attribute_set >= 0 && attribute_set < SF_MAX_ATTRIBUTE_SETS;
}

int sf_table_set_known(int32_t attribute_set) {
  return is_set(attribute_set) && __atomic_load_n(&sets[attribute_set], __ATOMIC_ACQUIRE) != NULL;
}

/* The block of the definition's shared set, made from its bytes on the set's first define;
   NULL for a context's own attributes, or when out of memory. */
static const struct sf_attrs_block *set_block(const sf_definition *definition) {
  if (!is_set(definition->attribute_set)) {
    return NULL;
  }
  struct sf_attrs_block **slot = &sets[definition->attribute_set];
  struct sf_attrs_block *block = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (block != NULL || definition->attrs == NULL) {
    return block;
  }
  size_t kept = whole_entries_fitting(definition->attrs, definition->copied);
  struct sf_attrs_block *fresh = new_block(kept);
  if (fresh == NULL) {
    return NULL;
  }
  memcpy(fresh->data, definition->attrs, kept);
  fresh->size = (uint16_t)kept;
  fresh->dropped = (uint32_t)(definition->requested_length - kept);
  /* Two threads may define contexts of the same new set at once: one block wins. */
  if (__atomic_compare_exchange_n(slot, &block, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    return fresh;
  }
  free(fresh);
  return block;
}

/* The slot's own block with room for `size` bytes if it can be had: the one it has, or a larger
   one that replaces it (the old one chained behind, never freed). NULL when out of memory. */
static struct sf_attrs_block *own_block(int32_t index, size_t size) {
  struct sf_attrs_block **owns = shared_array((void **)&own_chunks[index >> CHUNK_BITS], CHUNK_SIZE,
                                              sizeof(struct sf_attrs_block *));
  if (owns == NULL) {
    return NULL;
  }
  /* Only the definer of this slot reads or writes it: defines of one slot are not concurrent. */
  struct sf_attrs_block **slot = &owns[index & (CHUNK_SIZE - 1)];
  struct sf_attrs_block *block = *slot;
  if (block != NULL && block->capacity >= size) {
    return block;
  }
  size_t capacity = block == NULL ? OWN_BLOCK_MIN : 2 * (size_t)block->capacity;
  capacity = capacity < size ? size : capacity;
  capacity = capacity > SF_ATTRS_CAPACITY ? SF_ATTRS_CAPACITY : capacity;
  struct sf_attrs_block *grown = new_block(capacity);
  if (grown == NULL) {
    return block;  /* out of memory: the caller keeps what the old block has room for */
  }
  grown->older = block;
  *slot = grown;
  return grown;
}

/* Whether an id can name a slot: positive, with an index other than 0. */
static int usable(int32_t context_id) {
  return context_id > 0 && SF_CONTEXT_INDEX(context_id) != 0;
}

/*
 * Defines of one slot are not concurrent: the Java registry defines an id once, before handing
 * it out. A definition whose attributes do not all fit keeps the whole entries that do and
 * counts the rest as dropped.
 */
void sf_table_define(int32_t context_id, const sf_definition *definition) {
  int32_t index = usable(context_id) ? SF_CONTEXT_INDEX(context_id) : 0;
  sf_table_entry *chunk = index != 0 ? chunk_of(index) : NULL;
  if (chunk == NULL) {
    return;  /* unusable id or out of memory: switches to this id publish no record */
  }
  sf_table_entry *entry = &chunk[index & (CHUNK_SIZE - 1)];
  const struct sf_attrs_block *attrs = set_block(definition);
  struct sf_attrs_block *own = NULL;
  size_t kept = 0;
  size_t dropped = definition->requested_length;
  if (attrs != NULL) {
    dropped = attrs->dropped;
  } else if (definition->attrs != NULL && definition->copied > 0) {
    own = own_block(index, definition->copied);
    size_t room = own == NULL ? 0 : own->capacity;
    kept = whole_entries_fitting(definition->attrs, definition->copied < room ? definition->copied : room);
    dropped = definition->requested_length - kept;
    attrs = own;
  }
  if (dropped > 0) {
    __atomic_fetch_add(&dropped_attribute_bytes, dropped, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&entry->context_id, 0, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  memcpy(entry->trace_id, definition->trace_id, sizeof entry->trace_id);
  memcpy(entry->span_id, definition->span_id, sizeof entry->span_id);
  entry->trace_flags = definition->trace_flags;
  if (own != NULL) {
    memcpy(own->data, definition->attrs, kept);
    __atomic_store_n(&own->size, (uint16_t)kept, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&entry->attrs, attrs, __ATOMIC_RELAXED);
  __atomic_store_n(&entry->context_id, context_id, __ATOMIC_RELEASE);
}

uint16_t sf_table_copy_attrs(const sf_table_entry *entry, uint8_t *out) {
  const struct sf_attrs_block *attrs = __atomic_load_n(&entry->attrs, __ATOMIC_RELAXED);
  if (attrs == NULL) {
    return 0;
  }
  uint16_t size = __atomic_load_n(&attrs->size, __ATOMIC_RELAXED);
  size = size > attrs->capacity ? attrs->capacity : size;  /* torn: refused later, but in bounds */
  memcpy(out, attrs->data, size);
  return size;
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

sf_table_entry *sf_table_chunk(int32_t chunk_number) {
  if (chunk_number < 0 || chunk_number >= CHUNK_COUNT) {
    return NULL;
  }
  return chunk_of(chunk_number << CHUNK_BITS);
}

int sf_table_set_block(int32_t attribute_set, int64_t out[2]) {
  if (!is_set(attribute_set)) {
    return 0;
  }
  const struct sf_attrs_block *block = __atomic_load_n(&sets[attribute_set], __ATOMIC_ACQUIRE);
  if (block == NULL) {
    return 0;
  }
  out[0] = (int64_t)(intptr_t)block;
  out[1] = block->dropped;
  return 1;
}

uint64_t sf_dropped_attribute_bytes(void) {
  return __atomic_load_n(&dropped_attribute_bytes, __ATOMIC_RELAXED);
}
