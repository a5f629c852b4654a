#pragma once
// Pairing: the files of one run become one record. An NPB stdout names its
// mpiP report ("mpiP: Storing mpiP output in [./bt-mz.C.4.4.30707.1.mpiP]");
// without that line the stdout's stem plus ".mpiP" must equal the report's
// name. The pair must agree on the process count. Several stdout copies of one
// run (same report, same banner values) fold into the same record.
#include <string>
#include <vector>

#include "reader/file_name_info.h"
#include "reader/reader.h"
#include "record/run_stats.h"

namespace qnm {

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

/// Pairs NPB outputs with the mpiP reports they name, then each folder's one MPI
/// profile (kMpiProfile, or an mpiP report left unpaired) with its one unpaired
/// application output of one run (kNpbOutput, kAppOutput) when their process
/// counts agree; every other record passes through.
PairingResult PairRuns(std::vector<IngestedFile> files);

/// Adds the per-rank data of an MPI profile (`profile`: an mpiP report, an
/// mpitrace profile) to the application's record `run` (its wall time, threads,
/// class and figures kept; app/MPI time per rank, call sites and message counts
/// from the profile; a message count the profile gives only as a summary is
/// taken as it is). `pairing` says so in derivations["pairing"].
void MergeProfileIntoRun(const RunStats& profile, RunStats* run, const std::string& pairing);

}  // namespace qnm
