// Internal to the pixel-loop shims: whether to run a loop's AVX2 build. On x86-64 the compiler
// builds such a loop twice, once for AVX2 and once for the baseline (Swift code is built for the
// baseline only), and the shim picks one by asking the CPU once.
//
// The choice is made in code rather than with `target_clones`: that makes an ifunc whose resolver
// the dynamic loader runs before a sanitizer's runtime is ready, and a ThreadSanitizer build of
// the tests crashed in it at load.

#ifndef TASKGRAPH_CPU_FEATURES_H
#define TASKGRAPH_CPU_FEATURES_H

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define TG_HAS_AVX2_BUILD 1
#define TG_AVX2 __attribute__((target("avx2")))

/// Whether the CPU runs AVX2 code; asked once. Atomic: threads that race to fill it in store the
/// same value.
static inline int tg_has_avx2(void) {
    static _Atomic int has_avx2 = -1;
    int known = has_avx2;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
        has_avx2 = known;
    }
    return known;
}
#endif

/// Defines `void NAME PARAMETERS`, which runs `NAME_loop ARGUMENTS` (a `static inline
/// __attribute__((always_inline))` function) built for AVX2 when the CPU has it, else built for
/// the baseline.
#if TG_HAS_AVX2_BUILD
#define TG_DISPATCHED(NAME, PARAMETERS, ARGUMENTS)                                                \
    TG_AVX2 static void NAME##_avx2 PARAMETERS { NAME##_loop ARGUMENTS; }                        \
    static void NAME##_baseline PARAMETERS { NAME##_loop ARGUMENTS; }                            \
    void NAME PARAMETERS {                                                                       \
        if (tg_has_avx2()) {                                                                     \
            NAME##_avx2 ARGUMENTS;                                                               \
        } else {                                                                                 \
            NAME##_baseline ARGUMENTS;                                                           \
        }                                                                                        \
    }
#else
#define TG_DISPATCHED(NAME, PARAMETERS, ARGUMENTS) \
    void NAME PARAMETERS { NAME##_loop ARGUMENTS; }
#endif

#endif
