#pragma once
// AddressSanitizer's manual poisoning, for ufx's own mappings (host_memory.cpp, the sim's device memory and fiber
// stacks). Under ASan, a fresh mapping may carry stale shadow: a region once used as a thread's or a fiber's stack
// still reads as "stack redzone" after it was unmapped, and a mapping that lands there later reports false overflows.
// So mappings are unpoisoned when made and before they are unmapped.
#if defined(__SANITIZE_ADDRESS__)
#  define UFX_WITH_ASAN 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define UFX_WITH_ASAN 1
#  endif
#endif
#if defined(UFX_WITH_ASAN)
#  include <sanitizer/asan_interface.h>
#  define UFX_ASAN_POISON(p, n) __asan_poison_memory_region((p), (n))
#  define UFX_ASAN_UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#  define UFX_ASAN_POISON(p, n) ((void)(p), (void)(n))
#  define UFX_ASAN_UNPOISON(p, n) ((void)(p), (void)(n))
#endif
