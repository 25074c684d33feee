/*
 * The clock each switch stamps on its ring entry. CLOCK_MONOTONIC through the vDSO costs about
 * 25 ns on a VM; one rdtsc about 10 ns, and a switch pair reads the clock twice. So while the
 * Java facade says so (sf_use_ticks: x86_64, invariant TSC, the kernel's clocksource is tsc,
 * and its map from ticks to CLOCK_MONOTONIC currently fits), a switch stores raw TSC ticks and
 * marks the entry SF_CLOCK_TICKS; the drain converts them with that map, fed with the pairs
 * read here, and reports ticks it cannot map as lost, never as a guessed time.
 *
 * Nothing here allocates or locks: the switch path reads one flag.
 */
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "internal.h"

int sf_ticks_on;

int sf_ticks_invariant(void) {
#if defined(__x86_64__)
  unsigned int eax, ebx, ecx, edx;
  /* __get_cpuid checks the highest extended leaf first. */
  return __get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx) && (edx & (1u << 8)) != 0;
#else
  return 0;
#endif
}

void sf_use_ticks(int on) {
#if defined(__x86_64__)
  __atomic_store_n(&sf_ticks_on, on ? 1 : 0, __ATOMIC_RELAXED);
#else
  (void)on;
#endif
}

/* {ticks, CLOCK_MONOTONIC ns, uncertainty ns}: of SF_PAIR_READS reads of (monotonic, TSC,
   monotonic), the one whose monotonic reads are closest; the TSC was read between them. */
int sf_clock_pair(int64_t out[3]) {
#if defined(__x86_64__)
  int64_t best = INT64_MAX;
  for (int i = 0; i < SF_PAIR_READS; i++) {
    int64_t before = sf_monotonic_nanos();
    int64_t ticks = (int64_t)__builtin_ia32_rdtsc();
    int64_t after = sf_monotonic_nanos();
    if (after - before < best) {
      best = after - before;
      out[0] = ticks;
      out[1] = before + (after - before) / 2;
      out[2] = best;
    }
  }
  return 1;
#else
  (void)out;
  return 0;
#endif
}
