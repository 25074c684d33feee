/*
 * The OTEP-4719 process context: a one-page mapping named OTEL_CTX whose header points to
 * the serialized ProcessContext. One writer (the Java facade serialises publications).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "internal.h"

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U  /* Linux 6.3; older kernels refuse it with EINVAL */
#endif
#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif

static sf_process_context_header *header;
/* The payloads of the last two publications: a reader may still be reading the older. */
static void *payloads[2];

/* A shared memfd named OTEL_CTX, sealed against resizing; NULL if memfd is unavailable. */
static void *map_memfd(size_t size) {
  int fd = memfd_create("OTEL_CTX", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);
  if (fd < 0 && errno == EINVAL) {
    fd = memfd_create("OTEL_CTX", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  }
  if (fd < 0) {
    return NULL;
  }
  void *memory = MAP_FAILED;
  if (ftruncate(fd, (off_t)size) == 0) {
    memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  if (memory != MAP_FAILED) {
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);  /* best effort */
  }
  close(fd);  /* the mapping keeps the memfd alive and named */
  return memory == MAP_FAILED ? NULL : memory;
}

/* The fallback: an anonymous mapping named OTEL_CTX (Linux 5.17+ with ANON_VMA_NAME). */
static void *map_named_anonymous(size_t size) {
  void *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    return NULL;
  }
  if (prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, memory, size, "OTEL_CTX") != 0) {
    munmap(memory, size);  /* unnamed, no reader could find it */
    return NULL;
  }
  return memory;
}

static sf_process_context_header *create_mapping(void) {
  size_t size = (size_t)sysconf(_SC_PAGESIZE);
  void *memory = map_memfd(size);
  if (memory == NULL) {
    memory = map_named_anonymous(size);
  }
  if (memory == NULL) {
    return NULL;
  }
  madvise(memory, size, MADV_DONTFORK);  /* a forked child is another process */
  sf_process_context_header *created = memory;
  memcpy(created->signature, SF_PROCESS_CONTEXT_SIGNATURE, sizeof created->signature);
  created->version = SF_PROCESS_CONTEXT_VERSION;
  return created;
}

/* Publishes payload (malloc'd; owned from now on); returns 0 without a mapping. */
int sf_process_context_publish(void *payload, size_t size) {
  if (header == NULL && (header = create_mapping()) == NULL) {
    free(payload);
    return 0;
  }
  __atomic_store_n(&header->published_at_ns, 0, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&header->payload_ptr, (uint64_t)(uintptr_t)payload, __ATOMIC_RELAXED);
  __atomic_store_n(&header->payload_size, (uint32_t)size, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  int64_t now = sf_monotonic_nanos();
  __atomic_store_n(&header->published_at_ns, now != 0 ? (uint64_t)now : 1, __ATOMIC_RELAXED);
  free(payloads[0]);
  payloads[0] = payloads[1];
  payloads[1] = payload;
  return 1;
}
