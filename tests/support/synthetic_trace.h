#pragma once
// Writes a synthetic Score-P-style OTF2 trace with the OTF2 writer API: a
// ring stencil (compute, MPI_Irecv/MPI_Isend to both neighbours, MPI_Waitall)
// with a periodic MPI_Allreduce and deterministic load imbalance. Used by the
// benchmark (>= 10^7 events) and by robustness tests (options that drop a
// receive or a collective participant).
#include <cstdint>
#include <string>

namespace qnm::trace {

struct StencilTraceOptions {
  int ranks = 16;
  int iterations = 100;
  int allreduce_every = 10;        // an MPI_Allreduce every this many iterations (0 = never)
  uint64_t seed = 1;               // compute-time jitter (deterministic LCG)
  bool drop_first_receive = false; // rank 0 never completes its first receive (unmatched send)
  int skip_last_allreduce_on = -1; // this rank leaves out the last MPI_Allreduce (missing participant)
};

/// Writes `directory`/traces.otf2 (+ traces.def, traces/) and returns the
/// number of event records written. Throws std::runtime_error on failure.
uint64_t WriteStencilTrace(const std::string& directory, const StencilTraceOptions& options);

}  // namespace qnm::trace
