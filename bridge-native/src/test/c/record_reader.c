/*
 * Test-only: reads the calling thread's OTEP-4947 record the way an external profiler finds
 * it, through the dynamic symbol table of the already loaded libspanflight.so and nothing
 * else. dlsym() of a TLS symbol yields the calling thread's instance of it.
 */
#include <dlfcn.h>

#include "spanflight.h"

static jbyteArray fail(JNIEnv *env, const char *message) {
  jclass error = (*env)->FindClass(env, "java/lang/IllegalStateException");
  if (error != NULL) {
    (*env)->ThrowNew(env, error, message);
  }
  return NULL;
}

/* The record's first 28 + attrs-data-size bytes; null while otel_thread_ctx_v1 is NULL. */
JNIEXPORT jbyteArray JNICALL Java_io_spanflight_internal_bridge_ExternalRecordReader_readRecord(
    JNIEnv *env, jclass clazz, jstring library_path) {
  (void)clazz;
  const char *path = (*env)->GetStringUTFChars(env, library_path, NULL);
  if (path == NULL) {
    return NULL;
  }
  void *library = dlopen(path, RTLD_NOLOAD | RTLD_NOW);
  (*env)->ReleaseStringUTFChars(env, library_path, path);
  if (library == NULL) {
    return fail(env, "libspanflight.so is not loaded");
  }
  sf_thread_record **slot = dlsym(library, SF_TLS_SYMBOL);
  dlclose(library);
  if (slot == NULL) {
    return fail(env, "no symbol " SF_TLS_SYMBOL);
  }
  const sf_thread_record *record = *slot;
  if (record == NULL) {
    return NULL;
  }
  jsize size = SF_RECORD_HEADER_SIZE + record->attrs_data_size;
  if (size > SF_RECORD_MAX_SIZE) {
    return fail(env, "attrs-data-size beyond the record");
  }
  jbyteArray bytes = (*env)->NewByteArray(env, size);
  if (bytes != NULL) {
    (*env)->SetByteArrayRegion(env, bytes, 0, size, (const jbyte *)record);
  }
  return bytes;
}
