// Exact multi-class MVA for networks of load-independent queues and delays
// (QSP §7.3, Algorithm 7.1), written for speed:
//   R_ic(n) = D_ic (1 + Q_i(n - 1_c)),   X_c(n) = n_c / (Z_c + sum_i K_i R_ic(n)),
//   Q_i(n)  = sum_c X_c(n) R_ic(n)        (only the total over classes is stored)
// With A_c = Z_c + delay demands + sum_i K_i D_ic the cycle time is
// A_c + sum_i K_i D_ic Q_i(n - 1_c): one dot product per class and point.
//
// Layout. A lattice point n = (n_0, ..., n_{d-1}) of the active classes has the
// mixed-radix index n_0 + (N_0 + 1)(n_1 + (N_1 + 1)(...)). A "row" is the line
// n_0 = 0..N_0 with the other digits fixed; rows are stored whole and
// contiguous, Kp doubles per point (the queues padded to a multiple of 4 with
// zero demand), so within a row "one customer of class c less" is always the
// same distance behind: one point for class 0, a fixed number of rows for the
// others. Only the rows still needed are kept, in a ring of
// (rows per layer of the last class + kRowsInFlight) rows.
//
// Traversal. kRowsInFlight neighbouring rows (n_1 = b..b+3) are walked in a
// skewed wavefront: step t solves column t - j of row j. Point (c, row j) needs
// (c - 1, row j) and (c, row j - 1), both solved at step t - 1, so the points of
// one step are independent and their dependency chains (dot product -> division
// -> queue update) overlap in the CPU instead of running one after the other.
//
// Per point: the dot products of up to 4 classes are reduced into one vector
// and divided with one vector division; the queue update is 2 fused
// multiply-adds per class and vector. Compiled twice (x86-64-v3 with AVX2/FMA,
// and the baseline), picked at run time.
#include <algorithm>

#include "mva/algorithms.h"
#include "mva/vector_kernels.h"

namespace qnm::mva {
namespace {

using kernels::kLanes;
using kernels::Load;
using kernels::Reduce4;
using kernels::Store;
using kernels::Vec;

constexpr size_t kRowsInFlight = 4;   // rows walked together
constexpr size_t kMaxDims = 64;       // active classes (each doubles the lattice at least)

/// Everything the walk reads, in workspace memory. Per-class arrays are
/// [class * width + i], width = vectors * kLanes; classes padded to groups of 4.
struct Lattice {
  size_t dims = 0;          // active classes
  size_t groups = 0;        // ceil(dims / 4)
  size_t vectors = 0;       // Kp / 4
  size_t width = 0;         // Kp doubles per point
  size_t row_length = 0;    // N_0 + 1
  size_t ring_rows = 0;     // rows kept
  const double* kd = nullptr;      // K_i D_ic
  const double* d = nullptr;       // D_ic
  const double* base_s = nullptr;  // A_c; 1 in the padding lanes (0 / 1 = 0)
  const double* zeros = nullptr;   // a point's worth of zeros (class without customers here)
  double* x = nullptr;             // groups * 4 throughputs of the point (generic kernel)
  double* ring = nullptr;          // [ring_rows][row_length][width]
};

/// One lattice point with kV station vectors and kC <= 4 classes fixed at compile
/// time: `before[c]` is Q(n - 1_c) (zeros when n_c = 0), `n` the populations
/// (zero in unused lanes). Writes Q(n) to `out`.
template <size_t kV, size_t kC>
QNM_MVA_INLINE void SolvePoint(const Lattice& L, const double* const (&before)[kC], Vec n, double* out) {
  static_assert(kC >= 1 && kC <= kLanes, "one group of classes");
  Vec acc[kLanes] = {};
  for (size_t c = 0; c < kC; ++c)
    for (size_t v = 0; v < kV; ++v) acc[c] += Load(L.kd + (c * kV + v) * kLanes) * Load(before[c] + v * kLanes);
  const Vec x = n / (Load(L.base_s) + Reduce4(acc[0], acc[1], acc[2], acc[3]));
  Vec q[kV];
  for (size_t c = 0; c < kC; ++c) {
    const Vec xc = kernels::Broadcast(x[c]);
    for (size_t v = 0; v < kV; ++v) {
      const Vec dv = Load(L.d + (c * kV + v) * kLanes);
      const Vec term = xc * (dv * Load(before[c] + v * kLanes) + dv);
      q[v] = c == 0 ? term : q[v] + term;
    }
  }
  for (size_t v = 0; v < kV; ++v) Store(out + v * kLanes, q[v]);
}

/// The same for any number of stations and classes (classes in groups of 4,
/// `n` and `before` padded to whole groups).
QNM_MVA_INLINE void SolvePointGeneric(const Lattice& L, const double* const* before, const double* n, double* out) {
  const size_t V = L.vectors, C = L.dims, width = L.width;
  for (size_t g = 0; g < L.groups; ++g) {
    Vec acc[kLanes] = {};
    for (size_t l = 0; l < kLanes && g * kLanes + l < C; ++l) {
      const size_t c = g * kLanes + l;
      for (size_t v = 0; v < V; ++v) acc[l] += Load(L.kd + c * width + v * kLanes) * Load(before[c] + v * kLanes);
    }
    const Vec s = Load(L.base_s + g * kLanes) + Reduce4(acc[0], acc[1], acc[2], acc[3]);
    Store(L.x + g * kLanes, Load(n + g * kLanes) / s);
  }
  for (size_t v = 0; v < V; ++v) Store(out + v * kLanes, Vec{});
  for (size_t c = 0; c < C; ++c) {
    const Vec xc = kernels::Broadcast(L.x[c]);
    for (size_t v = 0; v < V; ++v) {
      const Vec dv = Load(L.d + c * width + v * kLanes);
      Store(out + v * kLanes, Load(out + v * kLanes) + xc * (dv * Load(before[c] + v * kLanes) + dv));
    }
  }
}

/// Per-row state of the rows in flight: where the row and its neighbours
/// n - 1_c (c >= 1) lie, and the populations of the row (n_0 = 0 here).
struct RowScratch {
  double* out;
  const double** base;  // [classes_padded]: Q(n - 1_c) at column 0, zeros if n_c = 0
  size_t* step;         // [classes_padded]: width, or 0 for the zeros
  double* n;            // [classes_padded]
};

/// The walk over the whole lattice (dims >= 2). `limit` = N_c, `row_stride[c]` =
/// how many rows back n - 1_c lies (c >= 1). kV, kC: see SolvePoint (0: generic).
template <size_t kV, size_t kC>
QNM_MVA_INLINE void WalkRows(const Lattice& L, const size_t* limit, const size_t* row_stride, size_t rows,
                             size_t* digit, const double** base, size_t* step, double* n_row,
                             const double** before) {
  const size_t dims = L.dims, width = L.width, row_length = L.row_length;
  const size_t classes_padded = L.groups * kLanes;
  const size_t row_doubles = row_length * width;
  std::fill(digit, digit + dims, 0);
  for (size_t c = 0; c < kRowsInFlight * classes_padded; ++c) before[c] = L.zeros;
  RowScratch scratch[kRowsInFlight];
  Vec n_fixed[kRowsInFlight] = {};
  // Rows in mixed-radix order of (n_1, n_2, ...), n_1 in blocks of kRowsInFlight.
  for (size_t row = 0; row < rows;) {
    const size_t block = std::min(kRowsInFlight, limit[1] + 1 - digit[1]);
    for (size_t j = 0; j < block; ++j) {
      const size_t r = row + j;
      RowScratch& rs = scratch[j];
      rs = {L.ring + (r % L.ring_rows) * row_doubles, base + j * classes_padded, step + j * classes_padded,
            n_row + j * classes_padded};
      std::fill(rs.n, rs.n + classes_padded, 0.0);
      for (size_t c = 0; c < classes_padded; ++c) {
        rs.base[c] = L.zeros;
        rs.step[c] = 0;
      }
      rs.base[0] = rs.out - width;  // n - 1_0 is the previous point of the row
      rs.step[0] = width;
      for (size_t c = 1; c < dims; ++c) {
        const size_t digit_c = c == 1 ? digit[1] + j : digit[c];
        rs.n[c] = static_cast<double>(digit_c);
        if (digit_c == 0) continue;
        rs.base[c] = L.ring + ((r - row_stride[c]) % L.ring_rows) * row_doubles;
        rs.step[c] = width;
      }
      if constexpr (kV > 0)
        for (size_t c = 1; c < kC; ++c) n_fixed[j][c] = rs.n[c];
    }
    const size_t steps = row_length + block - 1;
    for (size_t t = 0; t < steps; ++t) {
      const size_t j_first = t >= row_length ? t - row_length + 1 : 0;
      const size_t j_last = std::min(block - 1, t);
      for (size_t j = j_first; j <= j_last; ++j) {
        const size_t column = t - j;
        const RowScratch& rs = scratch[j];
        if constexpr (kV > 0) {
          const double* p[kC];
          for (size_t c = 0; c < kC; ++c) p[c] = rs.base[c] + column * rs.step[c];
          if (column == 0) p[0] = L.zeros;
          Vec n = n_fixed[j];
          n[0] = static_cast<double>(column);
          SolvePoint<kV, kC>(L, p, n, rs.out + column * width);
        } else {
          const double** p = before + j * classes_padded;
          for (size_t c = 0; c < dims; ++c) p[c] = rs.base[c] + column * rs.step[c];
          if (column == 0) p[0] = L.zeros;
          rs.n[0] = static_cast<double>(column);
          SolvePointGeneric(L, p, rs.n, rs.out + column * width);
        }
      }
    }
    row += block;
    digit[1] += block;
    for (size_t c = 1; c < dims && digit[c] > limit[c]; ++c) {  // carry
      digit[c] = 0;
      if (c + 1 < dims) ++digit[c + 1];
    }
  }
}

/// Dispatches to a kernel with the station vectors and classes fixed at compile
/// time where they are small (the common case), the generic one otherwise.
QNM_MVA_CLONES void Walk(const Lattice& L, const size_t* limit, const size_t* row_stride, size_t rows,
                         size_t* digit, const double** base, size_t* step, double* n_row,
                         const double** before) {
  const size_t key = L.dims <= kLanes && L.vectors <= 4 ? L.vectors * 10 + L.dims : 0;
#define QNM_CASE(V, C) \
  case V * 10 + C: return WalkRows<V, C>(L, limit, row_stride, rows, digit, base, step, n_row, before);
  switch (key) {
    QNM_CASE(1, 2) QNM_CASE(1, 3) QNM_CASE(1, 4)
    QNM_CASE(2, 2) QNM_CASE(2, 3) QNM_CASE(2, 4)
    QNM_CASE(3, 2) QNM_CASE(3, 3) QNM_CASE(3, 4)
    QNM_CASE(4, 2) QNM_CASE(4, 3) QNM_CASE(4, 4)
    default: return WalkRows<0, 1>(  // kV = 0: the generic kernel
        L, limit, row_stride, rows, digit, base, step, n_row, before);
  }
#undef QNM_CASE
}

/// One active class: the lattice is a line; keep two points.
QNM_MVA_CLONES void WalkLine(const Lattice& L, size_t limit, double* n, const double** before) {
  for (size_t c = 1; c < L.groups * kLanes; ++c) before[c] = L.zeros;
  std::fill(n, n + L.groups * kLanes, 0.0);
  for (size_t k = 0; k <= limit; ++k) {
    before[0] = k == 0 ? L.zeros : L.ring + ((k - 1) & 1) * L.width;
    n[0] = static_cast<double>(k);
    SolvePointGeneric(L, before, n, L.ring + (k & 1) * L.width);
  }
}

/// Workspace arrays are whole 64-byte lines (8 doubles).
size_t RoundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

void SolveExactMultiClassQueues(const Network& network, Workspace* workspace, Result* result) {
  const size_t classes = network.classes.size();
  // Lattice dimensions: the classes with customers. Stations: queues (delays
  // fold into A_c; load-dependent stations without demand are idle).
  // At most 35 classes can have customers: the lattice is below max_exact_steps.
  size_t active_list[kMaxDims], limit[kMaxDims] = {}, row_stride[kMaxDims] = {}, dims = 0;
  for (size_t c = 0; c < classes && dims < kMaxDims; ++c)
    if (network.classes[c].population > 0) active_list[dims++] = c;
  size_t queues = 0;
  for (const Station& s : network.stations) queues += s.type == StationType::kQueue ? 1 : 0;

  Lattice L;
  L.dims = dims;
  L.groups = std::max<size_t>(1, (dims + kLanes - 1) / kLanes);
  L.vectors = std::max<size_t>(1, (queues + kLanes - 1) / kLanes);
  L.width = L.vectors * kLanes;
  const size_t classes_padded = L.groups * kLanes;
  L.row_length = dims ? static_cast<size_t>(network.classes[active_list[0]].population) + 1 : 1;
  size_t rows = 1, last_row_stride = 0;
  for (size_t a = 0; a < dims; ++a) limit[a] = static_cast<size_t>(network.classes[active_list[a]].population);
  for (size_t a = 1; a < dims; ++a) {
    row_stride[a] = rows;
    last_row_stride = rows;
    rows *= limit[a] + 1;
  }
  L.ring_rows = dims >= 2 ? last_row_stride + kRowsInFlight : 1;
  const size_t ring_doubles = dims >= 2 ? L.ring_rows * L.row_length * L.width : 2 * L.width;

  // Workspace layout (each array a multiple of 8 doubles, so 64-byte aligned).
  const size_t table = RoundUp(classes_padded * L.width, 8);
  const size_t small = RoundUp(classes_padded, 8);
  const size_t pointer_doubles = RoundUp(kRowsInFlight * classes_padded * 3, 8);  // base, step, before
  const size_t total = 2 * table + small + RoundUp(L.width, 8) + small + RoundUp(ring_doubles, 8) +
                       RoundUp(kRowsInFlight * classes_padded, 8) + pointer_doubles + RoundUp(dims + 1, 8);
  double* memory = workspace->Doubles(total);
  double* kd = memory;
  double* d = kd + table;
  double* base_s = d + table;
  double* zeros = base_s + small;
  L.x = zeros + RoundUp(L.width, 8);
  L.ring = L.x + small;
  double* n_row = L.ring + RoundUp(ring_doubles, 8);
  static_assert(sizeof(double*) == sizeof(double) && sizeof(size_t) == sizeof(double), "pointer-sized slots");
  auto* base = reinterpret_cast<const double**>(n_row + RoundUp(kRowsInFlight * classes_padded, 8));
  auto* step = reinterpret_cast<size_t*>(base + kRowsInFlight * classes_padded);
  auto* before = reinterpret_cast<const double**>(step + kRowsInFlight * classes_padded);
  auto* digit = reinterpret_cast<size_t*>(memory + (total - RoundUp(dims + 1, 8)));

  // Per-class tables; with kV fixed (<= 4 vectors) the kernel indexes [c * kV + v]
  // vectors, i.e. the same [c * width + i] layout.
  std::fill(memory, L.ring, 0.0);
  for (size_t a = 0; a < classes_padded; ++a) base_s[a] = 1.0;
  for (size_t a = 0; a < dims; ++a) {
    const size_t c = active_list[a];
    double constant_s = network.classes[c].think_time_s;
    size_t i = 0;
    for (const Station& s : network.stations) {
      const double count = static_cast<double>(s.count);
      if (s.type == StationType::kDelay) constant_s += count * s.demand_s[c];
      if (s.type != StationType::kQueue) continue;
      kd[a * L.width + i] = count * s.demand_s[c];
      d[a * L.width + i] = s.demand_s[c];
      constant_s += count * s.demand_s[c];
      ++i;
    }
    base_s[a] = constant_s;
  }
  L.kd = kd;
  L.d = d;
  L.base_s = base_s;
  L.zeros = zeros;

  // Walk; afterwards the ring holds N and each N - 1_c.
  const double* q_final = nullptr;
  const double* final_before[kMaxDims] = {};
  if (dims >= 2) {
    Walk(L, limit, row_stride, rows, digit, base, step, n_row, before);
    const size_t last_row = rows - 1, row_doubles = L.row_length * L.width;
    const double* last = L.ring + (last_row % L.ring_rows) * row_doubles;
    q_final = last + limit[0] * L.width;
    final_before[0] = q_final - L.width;
    for (size_t a = 1; a < dims; ++a)
      final_before[a] = L.ring + ((last_row - row_stride[a]) % L.ring_rows) * row_doubles + limit[0] * L.width;
  } else if (dims == 1) {
    WalkLine(L, limit[0], n_row, before);
    q_final = L.ring + (limit[0] & 1) * L.width;
    final_before[0] = L.ring + ((limit[0] - 1) & 1) * L.width;
  } else {
    q_final = zeros;
  }

  // Results at N (scalar, from the stored neighbours): R_ic(N) = D_ic (1 + Q_i(N - 1_c)).
  for (size_t k = 0; k < network.stations.size(); ++k)
    for (size_t c = 0; c < classes; ++c) {
      result->Rk[k][c] = network.stations[k].demand_s[c];  // delays, idle stations
      result->Q[k][c] = 0.0;
    }
  for (size_t a = 0; a < dims; ++a) {
    const size_t c = active_list[a];
    double cycle_s = network.classes[c].think_time_s;
    size_t i = 0;
    for (size_t k = 0; k < network.stations.size(); ++k) {
      const Station& s = network.stations[k];
      if (s.type == StationType::kQueue) result->Rk[k][c] = s.demand_s[c] * (1.0 + final_before[a][i++]);
      if (s.type == StationType::kQueue || s.type == StationType::kDelay)
        cycle_s += static_cast<double>(s.count) * result->Rk[k][c];
    }
    result->X[c] = static_cast<double>(limit[a]) / cycle_s;
  }
  size_t i = 0;
  for (size_t k = 0; k < network.stations.size(); ++k) {
    const Station& s = network.stations[k];
    for (size_t c = 0; c < classes; ++c) {
      if (s.type == StationType::kQueue && network.classes[c].population == 0)
        result->Rk[k][c] = s.demand_s[c] * (1.0 + q_final[i]);  // what one arrival would see
      result->Q[k][c] = result->X[c] * result->Rk[k][c];
    }
    if (s.type == StationType::kQueue) ++i;
  }
}

}  // namespace qnm::mva
