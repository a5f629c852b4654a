#pragma once
// Pairing: the files of one run become one record. An NPB stdout names its
// mpiP report ("mpiP: Storing mpiP output in [./bt-mz.C.4.4.30707.1.mpiP]");
// without that line the stdout's stem plus ".mpiP" must equal the report's
// name. The pair must agree on the process count. Several stdout copies of one
// run (same report, same banner values) fold into the same record.
#include <string>
#include <vector>

#include "ingest/file_name_info.h"
#include "record/run_stats.h"

namespace qnm {

/// What part a file plays in pairing: an mpiP report and an NPB stdout of the
/// same run merge; every other file stands alone.
enum class PairingRole { kNone, kMpipReport, kNpbOutput };

/// One file that was read, with the records it produced.
struct IngestedFile {
  std::string path;
  PairingRole role = PairingRole::kNone;
  FileNameInfo name;
  std::vector<RunStats> runs;
  std::string mpip_report;  // NPB: report named in the stdout, or empty
  double bytes_beside = 0;  // ReaderOutput::bytes_beside
};

struct PairingResult {
  std::vector<RunStats> runs;
  int files_paired = 0;             // files merged into a record read from another file
  std::vector<std::string> notes;   // pairs refused (process counts disagree) and why
};

/// Pairs NPB outputs with mpiP reports; every other record passes through.
PairingResult PairRuns(std::vector<IngestedFile> files);

/// Adds the mpiP per-rank data of `report` to the NPB record `npb` (NPB wall
/// time, threads and Mop/s kept; app/MPI time per rank, call sites and message
/// counts from mpiP).
void MergeMpipIntoNpb(const RunStats& report, RunStats* npb);

}  // namespace qnm
