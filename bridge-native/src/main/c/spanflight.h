/*
 * spanflight.h - the whole ABI of libspanflight.so, version 1 (Linux x86_64).
 *
 * What an outside reader may rely on:
 *   1. otel_thread_ctx_v1: the OTEP-4947 thread context record of each OS thread.
 *   2. The OTEL_CTX mapping: the OTEP-4719 process context header.
 * What only Spanflight's own Java facade relies on: the timeline entry, the drain
 * result layout and the JNI functions at the end. Every layout is fixed by
 * _Static_assert; a change to any of them is a new ABI version.
 */
#ifndef SPANFLIGHT_H
#define SPANFLIGHT_H

#include <jni.h>
#include <stddef.h>
#include <stdint.h>

#define SF_ABI_VERSION 5  /* 2: timeline entries carry their clock (SF_CLOCK_*);
                             3: the drain names each ring (SF_DRAIN_RING, SF_DRAIN_FREED);
                             4: define0 takes the attributes' shared set number;
                             5: tableChunk0 and attributeSetBlock0: the Java side defines
                                contexts of a known set itself */

/* ---- 1. OTEP-4947 thread context record ------------------------------------------
 *
 * Discovery: the ELF TLS pointer otel_thread_ctx_v1 (global-dynamic, TLSDESC), exported
 * in .dynsym. It is NULL until the thread's first context switch (or, on a virtual-thread
 * carrier, the first context it shows), then points for the thread's lifetime to one record
 * the library allocated (64-byte aligned), and is NULL again before that record is freed, when
 * the OS thread exits. It stays NULL on a thread whose record could not be allocated.
 *
 * Publication protocol: ONE record per thread, toggled with the valid flag; the pointer
 * never moves. A switch stores valid = 0, compiler fence, writes ids, flags and attrs,
 * compiler fence, stores valid = 1. Detach (context 0, an undefined context, or an id
 * whose table slot was reused since: see the context id below) leaves valid = 0.
 * Compiler fences suffice: only the owning thread writes, and readers read while that
 * thread is stopped (signal-handler semantics). The one exception: switching profiling
 * off (clearRecords0) stores valid = 0 into every thread's record from another thread.
 *
 * attrs_data holds packed {u8 key index, u8 length, u8[length] utf-8} entries. Entries
 * that do not fit in SF_ATTRS_CAPACITY are dropped whole (the first that does not fit
 * and all after it) and their bytes counted.
 */
#define SF_RECORD_MAX_SIZE 640
#define SF_RECORD_HEADER_SIZE 28
#define SF_ATTRS_CAPACITY (SF_RECORD_MAX_SIZE - SF_RECORD_HEADER_SIZE)
#define SF_TLS_SYMBOL "otel_thread_ctx_v1"

typedef struct sf_thread_record {
  uint8_t trace_id[16];    /* W3C bytes, all zero = none */
  uint8_t span_id[8];
  uint8_t valid;           /* 1 = valid, anything else = ignore the record */
  uint8_t trace_flags;     /* W3C flags byte */
  uint16_t attrs_data_size;
  uint8_t attrs_data[SF_ATTRS_CAPACITY];
} sf_thread_record;

_Static_assert(offsetof(sf_thread_record, trace_id) == 0, "trace-id at 0");
_Static_assert(offsetof(sf_thread_record, span_id) == 16, "span-id at 16");
_Static_assert(offsetof(sf_thread_record, valid) == 24, "valid at 24");
_Static_assert(offsetof(sf_thread_record, trace_flags) == 25, "trace-flags at 25");
_Static_assert(offsetof(sf_thread_record, attrs_data_size) == 26, "attrs-data-size at 26");
_Static_assert(offsetof(sf_thread_record, attrs_data) == SF_RECORD_HEADER_SIZE, "attrs at 28");
_Static_assert(sizeof(sf_thread_record) == SF_RECORD_MAX_SIZE, "record is 640 bytes at most");
_Static_assert(_Alignof(sf_thread_record) >= 2, "OTEP 4947: at least 2-byte aligned");

extern __attribute__((visibility("default"), tls_model("global-dynamic")))
__thread sf_thread_record *otel_thread_ctx_v1;

/* ---- 2. OTEP-4719 process context ---------------------------------------------------
 *
 * Header at the start of the mapping named OTEL_CTX (/memfd:OTEL_CTX, or an anonymous
 * mapping named OTEL_CTX). Update protocol (one writer): published_at_ns = 0, full fence,
 * payload_ptr and payload_size, full fence, published_at_ns = CLOCK_MONOTONIC now (never
 * 0). The payload (a serialized ProcessContext) lives in the library's heap; the previous
 * payload stays allocated until the next update has completed, so a reader that started
 * before an update never reads freed memory unless two updates overtake it.
 */
#define SF_PROCESS_CONTEXT_SIGNATURE "OTEL_CTX"
#define SF_PROCESS_CONTEXT_VERSION 2

typedef struct sf_process_context_header {
  char signature[8];        /* "OTEL_CTX", no terminating NUL */
  uint32_t version;         /* SF_PROCESS_CONTEXT_VERSION */
  uint32_t payload_size;
  uint64_t published_at_ns; /* 0 while an update is in progress */
  uint64_t payload_ptr;
} sf_process_context_header;

_Static_assert(offsetof(sf_process_context_header, signature) == 0, "signature at 0");
_Static_assert(offsetof(sf_process_context_header, version) == 8, "version at 8");
_Static_assert(offsetof(sf_process_context_header, payload_size) == 12, "size at 12");
_Static_assert(offsetof(sf_process_context_header, published_at_ns) == 16, "time at 16");
_Static_assert(offsetof(sf_process_context_header, payload_ptr) == 24, "pointer at 24");
_Static_assert(sizeof(sf_process_context_header) == 32, "header is 32 bytes");

/* ---- 3. Timeline ring (Spanflight-internal) -------------------------------------------
 *
 * One ring per OS thread, written only by that thread: entry stores, then a release store
 * of the entry count, then a release fence (so the next entry cannot become visible before
 * the count). The drainer reads the count, copies, re-reads the count, and treats every
 * entry the writer may have reached again meanwhile (the oldest survivor included) as
 * lost: the same protocol as TimelineRing.java.
 */
/*
 * A context id (int32, > 0): the low SF_CONTEXT_INDEX_BITS bits are the slot index in the
 * context table (1 .. SF_MAX_CONTEXTS - 1), the bits above count the slot's reuses (a
 * generation, wrapping), the sign bit is 0. The table keeps the whole id next to each slot; a
 * switch to an id that is not the slot's current one publishes no record (valid = 0).
 */
#define SF_CONTEXT_INDEX_BITS 22
#define SF_MAX_CONTEXTS (1 << SF_CONTEXT_INDEX_BITS)  /* slots; index 0 is never used */
#define SF_CONTEXT_INDEX(id) ((id) & (SF_MAX_CONTEXTS - 1))
_Static_assert(SF_CONTEXT_INDEX_BITS < 31, "room for a generation below the sign bit");
#define SF_THREAD_PLATFORM 0
#define SF_THREAD_VIRTUAL 1

/* Which clock an entry's time is on. CLOCK_MONOTONIC is the clock of System.nanoTime(); the
   TSC is used only while the Java facade has found it trustworthy and has mapped it onto
   CLOCK_MONOTONIC (switch_clock.c); the drain converts ticks to nanoseconds or drops them. */
#define SF_CLOCK_MONOTONIC 0
#define SF_CLOCK_TICKS 1

typedef struct sf_timeline_entry {
  int64_t time;            /* CLOCK_MONOTONIC nanoseconds or TSC ticks, as clock says */
  int64_t java_thread_id;  /* the Java thread that switched (virtual or platform) */
  int32_t context_id;      /* 0 = no context */
  uint16_t thread_kind;    /* SF_THREAD_PLATFORM or SF_THREAD_VIRTUAL */
  uint16_t clock;          /* SF_CLOCK_MONOTONIC or SF_CLOCK_TICKS */
} sf_timeline_entry;

_Static_assert(offsetof(sf_timeline_entry, time) == 0, "time at 0");
_Static_assert(offsetof(sf_timeline_entry, java_thread_id) == 8, "thread id at 8");
_Static_assert(offsetof(sf_timeline_entry, context_id) == 16, "context at 16");
_Static_assert(offsetof(sf_timeline_entry, thread_kind) == 20, "kind at 20");
_Static_assert(offsetof(sf_timeline_entry, clock) == 22, "clock at 22");
_Static_assert(sizeof(sf_timeline_entry) == 24, "entry is 24 bytes");

/* drain0 reports each ring it drained as SF_DRAIN_META_LONGS longs in meta[]: */
#define SF_DRAIN_DELIVERED 0   /* entries copied into the arrays, in order */
#define SF_DRAIN_LOST 1        /* entries overwritten before they were drained */
#define SF_DRAIN_LOST_THREAD 2 /* Java thread to charge them to (see timeline_ring.c) */
#define SF_DRAIN_ENDED 3       /* platform Java thread whose OS thread ended, or 0 */
#define SF_DRAIN_RING 4        /* the ring's number: > 0, never reused in the process */
#define SF_DRAIN_FREED 5       /* 1: the ring is freed after this drain and never seen again */
#define SF_DRAIN_META_LONGS 6

/* ---- JNI: static natives of io.spanflight.internal.bridge.NativeContextBridge ---- */
#define SF_JNI(type, name) \
  JNIEXPORT type JNICALL Java_io_spanflight_internal_bridge_NativeContextBridge_##name

SF_JNI(jint, init0)(JNIEnv *, jclass, jint ring_capacity);
/* attribute_set: the number (0 .. 65535) the Java side gave to exactly these attribute bytes for the
   life of the process, kept once however many contexts carry it; -1 for the context's own bytes. */
SF_JNI(void, define0)(JNIEnv *, jclass, jint context_id, jlong, jlong, jlong, jbyte,
                      jint attribute_set, jbyteArray attributes);
/* A direct buffer over chunk chunk_number of the context table (entries of 40 bytes, layout and
   sequence lock in context_table.c), made if needed; NULL when out of range or out of memory. */
SF_JNI(jobject, tableChunk0)(JNIEnv *, jclass, jint chunk_number);
/* out = {address, dropped bytes} of a shared set's block once a define has made it; false before. */
SF_JNI(jboolean, attributeSetBlock0)(JNIEnv *, jclass, jint attribute_set, jlongArray out);
SF_JNI(void, switchTo0)(JNIEnv *, jclass, jint context_id, jlong java_thread_id, jboolean virt);
/* Writes only the calling OS thread's record (no ring entry): a virtual-thread mount shows the
   mounted thread's context on its carrier, an unmount (context 0) shows none. */
SF_JNI(void, showOnRecord0)(JNIEnv *, jclass, jint context_id);
/* Fills times[] (with the clocks[] each is on, SF_CLOCK_*), contexts[] and thread ids. */
SF_JNI(jint, drain0)(JNIEnv *, jclass, jlongArray times, jbyteArray clocks, jintArray,
                     jlongArray, jlongArray, jboolean);
/* Whether this CPU has an invariant TSC (x86_64, cpuid 0x80000007 EDX bit 8). */
SF_JNI(jboolean, ticksInvariant0)(JNIEnv *, jclass);
/* Stamps switches with TSC ticks (true) or CLOCK_MONOTONIC (false, the default). */
SF_JNI(void, useTicks0)(JNIEnv *, jclass, jboolean on);
/* One calibration pair into out[3]: {ticks, CLOCK_MONOTONIC ns, uncertainty ns}, the best of
   SF_PAIR_READS reads of (monotonic, TSC, monotonic); false where there is no TSC. */
#define SF_PAIR_READS 8
SF_JNI(jboolean, clockPair0)(JNIEnv *, jclass, jlongArray out);
SF_JNI(jboolean, publishProcessContext0)(JNIEnv *, jclass, jbyteArray payload);
SF_JNI(jlong, droppedAttributeBytes0)(JNIEnv *, jclass);
SF_JNI(jint, ringCount0)(JNIEnv *, jclass);
/* Marks every thread's record invalid (valid = 0), as when profiling is switched off. */
SF_JNI(void, clearRecords0)(JNIEnv *, jclass);
/* Profiling switched off (true, after the last drain) or on (false, before the next): while
   off, drain0 delivers nothing and an exiting OS thread frees its own ring (no polling). */
SF_JNI(void, switchedOff0)(JNIEnv *, jclass, jboolean switched_off);

#endif
