/*
 * Smoke-test helper for io.spanflight.smoke.vthreads.CarrierRecords: finds the calling OS
 * thread's OTEP-4947 record the way an external profiler does (the exported TLS symbol of the
 * loaded libspanflight.so), and reads a record at an address found earlier. Code running in a
 * virtual thread runs on its carrier's OS thread, so it finds the carrier's record; the address
 * stays valid while that OS thread lives, so the record can be read again after the virtual
 * thread left the carrier.
 */
#include <dlfcn.h>
#include <stdint.h>

#include "spanflight.h"

#define SF_SMOKE(type, name) \
  JNIEXPORT type JNICALL Java_io_spanflight_smoke_vthreads_CarrierRecords_##name

/* The address of the calling OS thread's record, 0 while otel_thread_ctx_v1 is NULL, -1 when the
   library or the symbol is not found. */
SF_SMOKE(jlong, ownRecordAddress)(JNIEnv *env, jclass clazz, jstring library_path) {
  (void)clazz;
  const char *path = (*env)->GetStringUTFChars(env, library_path, NULL);
  if (path == NULL) {
    return -1;
  }
  void *library = dlopen(path, RTLD_NOLOAD | RTLD_NOW);
  (*env)->ReleaseStringUTFChars(env, library_path, path);
  if (library == NULL) {
    return -1;
  }
  sf_thread_record **slot = dlsym(library, SF_TLS_SYMBOL);
  dlclose(library);
  return slot == NULL ? -1 : (jlong)(intptr_t)*slot;
}

/* The record's header (28 bytes: trace id, span id, valid, flags, attrs size) at address. */
SF_SMOKE(jbyteArray, recordHeaderAt)(JNIEnv *env, jclass clazz, jlong address) {
  (void)clazz;
  const sf_thread_record *record = (const sf_thread_record *)(intptr_t)address;
  jbyteArray bytes = (*env)->NewByteArray(env, SF_RECORD_HEADER_SIZE);
  if (bytes != NULL && record != NULL) {
    (*env)->SetByteArrayRegion(env, bytes, 0, SF_RECORD_HEADER_SIZE, (const jbyte *)record);
  }
  return bytes;
}
