/*
 * The JNI entry points of io.spanflight.internal.bridge.NativeContextBridge. The Java side
 * checks ids and array lengths and serialises init0, drain0 and publishProcessContext0, so these
 * functions only translate between Java arrays and the C parts.
 */
#include <stdlib.h>

#include "internal.h"

SF_JNI(jint, init0)(JNIEnv *env, jclass clazz, jint ring_capacity) {
  (void)env;
  (void)clazz;
  if (ring_capacity < 2 || !sf_threads_init()) {
    return -1;
  }
  uint32_t in_effect = sf_rings_init((uint32_t)ring_capacity);
  return in_effect == 0 ? -1 : (jint)in_effect;
}

/* Writes `value` as 8 big-endian bytes (W3C ids are big-endian byte strings). */
static void put_big_endian(uint8_t *out, uint64_t value) {
  for (int i = 7; i >= 0; i--) {
    out[i] = (uint8_t)value;
    value >>= 8;
  }
}

SF_JNI(void, define0)(JNIEnv *env, jclass clazz, jint context_id, jlong trace_id_high,
                      jlong trace_id_low, jlong span_id, jbyte trace_flags, jint attribute_set,
                      jbyteArray attributes) {
  (void)clazz;
  sf_definition definition;
  uint8_t bytes[SF_ATTRS_CAPACITY];
  jsize length = (*env)->GetArrayLength(env, attributes);
  put_big_endian(definition.trace_id, (uint64_t)trace_id_high);
  put_big_endian(definition.trace_id + 8, (uint64_t)trace_id_low);
  put_big_endian(definition.span_id, (uint64_t)span_id);
  definition.trace_flags = (uint8_t)trace_flags;
  definition.attribute_set = attribute_set;
  definition.requested_length = (size_t)length;
  definition.attrs = NULL;
  definition.copied = 0;
  if (!sf_table_set_known(attribute_set)) {  /* the bytes are needed: copy what can be kept */
    jsize copied = length < SF_ATTRS_CAPACITY ? length : SF_ATTRS_CAPACITY;
    (*env)->GetByteArrayRegion(env, attributes, 0, copied, (jbyte *)bytes);
    definition.attrs = bytes;
    definition.copied = (size_t)copied;
  }
  sf_table_define(context_id, &definition);
}

SF_JNI(jobject, tableChunk0)(JNIEnv *env, jclass clazz, jint chunk_number) {
  (void)clazz;
  sf_table_entry *chunk = sf_table_chunk(chunk_number);
  if (chunk == NULL) {
    return NULL;
  }
  return (*env)->NewDirectByteBuffer(env, chunk, (jlong)SF_TABLE_CHUNK_ENTRIES * SF_TABLE_ENTRY_SIZE);
}

SF_JNI(jboolean, attributeSetBlock0)(JNIEnv *env, jclass clazz, jint attribute_set, jlongArray out) {
  (void)clazz;
  int64_t block[2];
  if (!sf_table_set_block(attribute_set, block)) {
    return JNI_FALSE;
  }
  (*env)->SetLongArrayRegion(env, out, 0, 2, (const jlong *)block);
  return JNI_TRUE;
}

SF_JNI(void, switchTo0)(JNIEnv *env, jclass clazz, jint context_id, jlong java_thread_id,
                        jboolean virtual_thread) {
  (void)env;
  (void)clazz;
  sf_thread_switch(context_id, java_thread_id,
                   virtual_thread ? SF_THREAD_VIRTUAL : SF_THREAD_PLATFORM);
}

SF_JNI(void, showOnRecord0)(JNIEnv *env, jclass clazz, jint context_id) {
  (void)env;
  (void)clazz;
  sf_thread_show(context_id);
}

/* Copies one drained ring into the Java arrays at entry offset `used`, meta slot `slot`. */
static void put_ring(JNIEnv *env, const struct sf_drained *ring, jint used, jint slot,
                     jlongArray times, jbyteArray clocks, jintArray contexts,
                     jlongArray thread_ids, jlongArray meta) {
  jsize n = (jsize)ring->delivered;
  (*env)->SetLongArrayRegion(env, times, used, n, ring->times);
  (*env)->SetByteArrayRegion(env, clocks, used, n, ring->clocks);
  (*env)->SetIntArrayRegion(env, contexts, used, n, ring->context_ids);
  (*env)->SetLongArrayRegion(env, thread_ids, used, n, ring->java_thread_ids);
  jlong fields[SF_DRAIN_META_LONGS];
  fields[SF_DRAIN_DELIVERED] = n;
  fields[SF_DRAIN_LOST] = ring->lost;
  fields[SF_DRAIN_LOST_THREAD] = ring->lost_thread_id;
  fields[SF_DRAIN_ENDED] = ring->ended_thread_id;
  fields[SF_DRAIN_RING] = (jlong)ring->ring_number;
  fields[SF_DRAIN_FREED] = ring->freed;
  (*env)->SetLongArrayRegion(env, meta, slot * SF_DRAIN_META_LONGS, SF_DRAIN_META_LONGS, fields);
}

/*
 * Continues the drain pass (or starts a new one) and returns how many rings it put into
 * the arrays; 0 once the pass is complete. It stops early when the arrays could not take
 * one more full ring, and the next call goes on from there.
 */
SF_JNI(jint, drain0)(JNIEnv *env, jclass clazz, jlongArray times, jbyteArray clocks,
                     jintArray contexts, jlongArray thread_ids, jlongArray meta,
                     jboolean restart) {
  (void)clazz;
  if (!sf_drain_enter()) {
    return 0;  /* switched off: nothing drains */
  }
  if (restart) {
    sf_drain_restart();
  }
  jint entry_space = (*env)->GetArrayLength(env, times);
  jint slots = (*env)->GetArrayLength(env, meta) / SF_DRAIN_META_LONGS;
  jint ring_size = (jint)sf_ring_capacity();
  jint used = 0, filled = 0;
  struct sf_drained ring;
  while (filled < slots && entry_space - used >= ring_size && sf_drain_next(&ring)) {
    put_ring(env, &ring, used, filled, times, clocks, contexts, thread_ids, meta);
    used += (jint)ring.delivered;
    filled++;
  }
  sf_drain_leave();
  return filled;
}

SF_JNI(jboolean, publishProcessContext0)(JNIEnv *env, jclass clazz, jbyteArray payload) {
  (void)clazz;
  jsize size = (*env)->GetArrayLength(env, payload);
  void *copied = malloc(size > 0 ? (size_t)size : 1);
  if (copied == NULL) {
    return JNI_FALSE;
  }
  (*env)->GetByteArrayRegion(env, payload, 0, size, copied);
  return sf_process_context_publish(copied, (size_t)size) ? JNI_TRUE : JNI_FALSE;
}

SF_JNI(jlong, droppedAttributeBytes0)(JNIEnv *env, jclass clazz) {
  (void)env;
  (void)clazz;
  return (jlong)sf_dropped_attribute_bytes();
}

SF_JNI(void, clearRecords0)(JNIEnv *env, jclass clazz) {
  (void)env;
  (void)clazz;
  sf_records_clear();
}

SF_JNI(void, switchedOff0)(JNIEnv *env, jclass clazz, jboolean switched_off) {
  (void)env;
  (void)clazz;
  sf_rings_switch_off(switched_off ? 1 : 0);
}

SF_JNI(jint, ringCount0)(JNIEnv *env, jclass clazz) {
  (void)env;
  (void)clazz;
  return sf_ring_count();
}

SF_JNI(jboolean, ticksInvariant0)(JNIEnv *env, jclass clazz) {
  (void)env;
  (void)clazz;
  return sf_ticks_invariant() ? JNI_TRUE : JNI_FALSE;
}

SF_JNI(void, useTicks0)(JNIEnv *env, jclass clazz, jboolean on) {
  (void)env;
  (void)clazz;
  sf_use_ticks(on ? 1 : 0);
}

SF_JNI(jboolean, clockPair0)(JNIEnv *env, jclass clazz, jlongArray out) {
  (void)clazz;
  int64_t pair[3];
  if (!sf_clock_pair(pair)) {
    return JNI_FALSE;
  }
  (*env)->SetLongArrayRegion(env, out, 0, 3, pair);
  return JNI_TRUE;
}
