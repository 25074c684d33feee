/*
 * The calling OS thread's state: its OTEP-4947 record and its timeline ring.
 *
 * Both live in one struct, allocated on the thread's first switch or show (with its ring, the
 * only allocations) and reached through one thread-local pointer. The library's TLS is kept to
 * a few words on purpose: glibc then places it in the static TLS it keeps spare for dlopen'ed
 * libraries (tunable rtld.optional_static_tls, 512 bytes by default), where an access is a call
 * to _dl_tlsdesc_return and a load; the ~700-byte struct itself in TLS made every access go
 * through _dl_tlsdesc_dynamic. If other libraries used the spare space up first, accesses take
 * that slower path again: slower, still correct.
 * The thread's first switch points otel_thread_ctx_v1 at the record and creates the ring;
 * a pthread key destructor retires the ring when the OS thread exits (while profiling is
 * switched off, the retiring thread frees its ring itself: see timeline_ring.c), and
 * another takes the record off the list, clears otel_thread_ctx_v1 and frees the struct.
 * A virtual-thread carrier may only ever show contexts (sf_thread_show): it publishes its
 * record but never gets a ring.
 *
 * Every thread that has a record is also on a list (under a mutex taken only when a thread
 * first publishes, when it exits, and by sf_records_clear), so that switching profiling off
 * can mark all records invalid from another thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

__attribute__((visibility("default"), tls_model("global-dynamic")))
__thread sf_thread_record *otel_thread_ctx_v1;

struct thread_state {
  sf_thread_record record;  /* what otel_thread_ctx_v1 points to */
  struct sf_ring *ring;     /* NULL before the first switch */
  int detached;             /* no ring: its creation failed, or the thread is exiting */
  struct thread_state *prev, *next;  /* the record list, under records_lock */
};

/* The calling thread's state, NULL before its first switch or show and after it exited. */
static __thread struct thread_state *state;
/* Set when the thread's state was freed at exit (a switch during the rest of the thread's
   teardown makes no new one), or could not be registered for freeing (it would leak). A failed
   allocation does not set it: the next switch tries again. */
static __thread int state_ended;
static pthread_key_t exit_key;
static pthread_key_t record_key;
static pthread_mutex_t records_lock = PTHREAD_MUTEX_INITIALIZER;
static struct thread_state *records;  /* head of the record list, under records_lock */
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static int exit_key_ready;

/* Orders the record stores for a reader that interrupts this thread (see spanflight.h). */
#define COMPILER_FENCE() __atomic_signal_fence(__ATOMIC_SEQ_CST)

/* Writes the entry's content (NULL = no context) into the record with the valid-flag protocol;
   the record stays invalid if the entry was redefined while it was copied. */
static void publish(sf_thread_record *record, const sf_table_entry *entry, int32_t context_id) {
  __atomic_store_n(&record->valid, 0, __ATOMIC_RELAXED);
  COMPILER_FENCE();
  if (entry == NULL) {
    return;
  }
  memcpy(record->trace_id, entry->trace_id, sizeof record->trace_id);
  memcpy(record->span_id, entry->span_id, sizeof record->span_id);
  record->trace_flags = entry->trace_flags;
  record->attrs_data_size = sf_table_copy_attrs(entry, record->attrs_data);
  if (!sf_table_still(entry, context_id)) {
    return;
  }
  COMPILER_FENCE();
  __atomic_store_n(&record->valid, 1, __ATOMIC_RELAXED);
}

/* Runs when the OS thread exits (not for threads that never switched). */
static void thread_exit(void *ring) {
  /* A switch made later in this thread's teardown must neither recreate nor touch the ring
     that the drainer (or, while switched off, sf_ring_retire) frees. The state may be gone
     already (record_exit ran first): the ring is retired all the same. */
  struct thread_state *thread = state;
  if (thread != NULL) {
    thread->ring = NULL;
    thread->detached = 1;
    publish(&thread->record, NULL, 0);
  }
  sf_ring_retire(ring);
}

/* Runs when an OS thread with a state exits: off the list, then freed. */
static void record_exit(void *value) {
  struct thread_state *thread = value;
  pthread_mutex_lock(&records_lock);
  if (thread->prev != NULL) {
    thread->prev->next = thread->next;
  } else {
    records = thread->next;
  }
  if (thread->next != NULL) {
    thread->next->prev = thread->prev;
  }
  pthread_mutex_unlock(&records_lock);
  publish(&thread->record, NULL, 0);
  /* Off the list, and this thread's pointers cleared before the free, so that no reader can
     reach it; the fence keeps the compiler from moving the stores past free(). */
  otel_thread_ctx_v1 = NULL;
  state = NULL;
  state_ended = 1;
  COMPILER_FENCE();
  free(thread);
}

static void create_exit_key(void) {
  exit_key_ready = pthread_key_create(&exit_key, thread_exit) == 0
      && pthread_key_create(&record_key, record_exit) == 0;
}

/* A new state: its record goes on the list and otel_thread_ctx_v1 to it. */
static void show_record(struct thread_state *thread) {
  pthread_mutex_lock(&records_lock);
  thread->prev = NULL;
  thread->next = records;
  if (records != NULL) {
    records->prev = thread;
  }
  records = thread;
  pthread_mutex_unlock(&records_lock);
  otel_thread_ctx_v1 = &thread->record;
}

/* Marks every listed record invalid: readers see no context until each thread's next switch. */
void sf_records_clear(void) {
  pthread_mutex_lock(&records_lock);
  for (struct thread_state *thread = records; thread != NULL; thread = thread->next) {
    __atomic_store_n(&thread->record.valid, 0, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&records_lock);
}

int sf_threads_init(void) {
  pthread_once(&exit_key_once, create_exit_key);
  return exit_key_ready;
}

/* The thread's first switch: create the ring. */
static struct sf_ring *attach(struct thread_state *thread) {
  struct sf_ring *ring = sf_ring_create();
  if (ring != NULL && pthread_setspecific(exit_key, ring) != 0) {
    sf_ring_retire(ring);  /* no destructor would retire it: retire it now */
    ring = NULL;
  }
  thread->ring = ring;
  thread->detached = ring == NULL;
  return ring;
}

/* The calling thread's state, made on first use (listed, its record published); NULL when it
   cannot be had (out of memory, or the thread is exiting). A thread whose state cannot be
   registered for freeing at exit gets none: it would leak. */
static struct thread_state *thread_state(void) {
  struct thread_state *thread = state;
  if (thread != NULL || state_ended || !exit_key_ready) {
    return thread;
  }
  void *memory;
  if (posix_memalign(&memory, 64, sizeof(struct thread_state)) != 0) {
    return NULL;
  }
  thread = memset(memory, 0, sizeof(struct thread_state));
  if (pthread_setspecific(record_key, thread) != 0) {
    free(thread);
    state_ended = 1; /* do not try again on every switch */
    return NULL;
  }
  show_record(thread);
  state = thread;
  return thread;
}

void sf_thread_switch(int32_t context_id, int64_t java_thread_id, int32_t thread_kind) {
  struct thread_state *thread = thread_state();
  if (thread == NULL) {
    return;
  }
  struct sf_ring *ring = thread->ring;
  if (ring == NULL && !thread->detached) {
    ring = attach(thread);
  }
  publish(&thread->record, sf_table_lookup(context_id), context_id);
  if (ring != NULL) {
    sf_ring_append(ring, context_id, java_thread_id, thread_kind);
  }
}

/* Record only: what a carrier shows while a virtual thread is mounted (or not). Never creates a
   ring, so a carrier whose own switches are ignored costs no ring memory. */
void sf_thread_show(int32_t context_id) {
  struct thread_state *thread = thread_state();
  if (thread == NULL) {
    return;
  }
  publish(&thread->record, sf_table_lookup(context_id), context_id);
}
