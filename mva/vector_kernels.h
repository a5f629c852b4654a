#pragma once
// Helpers for the hand-vectorised exact MVA kernels (queue_lattice.cpp,
// exact_single_class.cpp): 4-double vectors as GCC/Clang vector extensions,
// which the baseline build lowers to SSE2 pairs and the x86-64-v3 clone (picked
// at run time on CPUs with AVX2/FMA) keeps as AVX registers with fused
// multiply-adds. Internal to mva/: 32-byte vectors never cross a call boundary.
#include <cstddef>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
/// Compiles a function twice (AVX2/FMA and baseline); the loader picks one.
#define QNM_MVA_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define QNM_MVA_CLONES
#endif
#define QNM_MVA_INLINE inline __attribute__((always_inline))

// GCC notes at the end of every file that uses these (inlined) helpers that a
// 32-byte vector argument would change the ABI without AVX; none crosses a call.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace qnm::mva::kernels {

constexpr size_t kLanes = 4;  // doubles per vector
typedef double Vec __attribute__((vector_size(32), aligned(32)));

/// Rounds `count` up to whole vectors.
constexpr size_t PaddedLength(size_t count) { return (count + kLanes - 1) / kLanes * kLanes; }

QNM_MVA_INLINE Vec Load(const double* p) { return *reinterpret_cast<const Vec*>(p); }
QNM_MVA_INLINE void Store(double* p, Vec v) { *reinterpret_cast<Vec*>(p) = v; }
QNM_MVA_INLINE Vec Broadcast(double x) { return Vec{x, x, x, x}; }

/// {sum a, sum b, sum c, sum d}: four horizontal sums in one vector.
QNM_MVA_INLINE Vec Reduce4(Vec a, Vec b, Vec c, Vec d) {
  const Vec ab = __builtin_shufflevector(a, b, 0, 4, 2, 6) + __builtin_shufflevector(a, b, 1, 5, 3, 7);
  const Vec cd = __builtin_shufflevector(c, d, 0, 4, 2, 6) + __builtin_shufflevector(c, d, 1, 5, 3, 7);
  return __builtin_shufflevector(ab, cd, 0, 1, 4, 5) + __builtin_shufflevector(ab, cd, 2, 3, 6, 7);
}

/// Sum of the four lanes.
QNM_MVA_INLINE double Sum(Vec a) { return (a[0] + a[1]) + (a[2] + a[3]); }

}  // namespace qnm::mva::kernels
