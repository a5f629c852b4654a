#pragma once
// The small tables every analysis process needs (Geimer et al. 2009, §3.3.2 treats
// collectives by one MPI collective per instance; we replicate the few
// records instead): collective calls, MPI_Init/Finalize, and the MPI-2 RMA
// records with the call instances they point to.
#include <vector>

#include "trace/otf2_reader.h"
#include "trace/replay_records.h"

namespace qnm::trace {

/// Packs the shared records of this process's ranks `owned` from `local`.
std::vector<char> PackSharedRecords(const ReplayRecords& local, RankRange owned);

/// Appends one process's packed shared records to `all` (whose init/finalize
/// are sized to every rank), shifting instance, op and epoch indices.
void UnpackSharedRecords(const std::vector<char>& bytes, ReplayRecords* all);

}  // namespace qnm::trace
