#pragma once
// Writes the wait-state analysis as a CUBE4 report (.cubex): an uncompressed
// ustar archive holding anchor.xml (metric tree, regions, call tree, system
// tree) and one <id>.index / <id>.data pair per metric
// (docs/formats/scalasca-patterns.md section 9; layout checked against Score-P's
// profile.cubex in tests/data/otf2/sstmacro-mpi-coverage-test).
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace_events.h"
#include "trace/wait_states.h"

namespace qnm::trace {

/// The .cubex file contents. Every metric is stored EXCLUSIVE along the call
/// tree (DOUBLE seconds; visits UINT64), with Scalasca's uniq_names. The call
/// tree has exactly one root, as Scalasca's trace cubes have (pyCubexR and
/// Extra-P take the first root as the whole program): the program region
/// ProgramBegin names (Scalasca 2.6's root; main below it), or, when the
/// trace names none and has time outside every region or several top-level
/// regions, an artificial region "(program)" above them. The root's exclusive
/// time is the time outside every region (Computation in the JSON), so that
/// `time` sums to the JSON's total.
std::string CubeReport(const Trace& trace, const WaitStateResult& result);

/// One member of a tar archive.
struct TarMember {
  std::string name;
  std::string contents;
};
/// A POSIX ustar archive of `members` (what .cubex files are).
std::string TarArchive(const std::vector<TarMember>& members);
/// Splits a ustar archive; throws std::runtime_error when it is malformed.
std::vector<TarMember> ReadTarArchive(const std::string& archive);

}  // namespace qnm::trace
