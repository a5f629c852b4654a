#pragma once
// Reader for NAS Parallel Benchmarks output (2.x - 3.4.x; MPI, OpenMP,
// serial and multi-zone). A log may hold several results banners (one per
// benchmark run appended to it). Format reference:
// docs/formats/npb-format.md (sections cited as §n).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One "<BB> Benchmark Completed." results banner (§2) and what precedes it.
struct NpbBanner {
  int line = 0;                    // 1-based line of "Benchmark Completed"
  std::string benchmark;           // "BT-MZ", "CG", "IS"
  std::string title;               // the run's "NAS Parallel Benchmarks ..." header line
  std::vector<std::pair<std::string, std::string>> fields;  // "Class" -> "C", in order
  std::vector<std::pair<std::string, std::string>> compile_options;
  std::vector<std::string> notes;  // "NITER does not match ...", warnings before the banner
  int header_threads_total = 0;    // "Total number of threads: 128" of the MZ header

  /// The value of `key` (trimmed) or empty.
  std::string Field(const std::string& key) const;
};

struct NpbOutput {
  std::string path;
  std::vector<NpbBanner> banners;
  std::string mpip_report;   // "Storing mpiP output in [./x.mpiP]" -> "x.mpiP"
  std::string mpip_version;  // "3.3.0" from the mpiP start-up banner
  std::vector<std::string> problems;  // "line N: ..." failure lines (runs without a banner)
  int zones = 0;  // NPB-MZ " Number of zones:  16 x  16" header (x * y); 0 when absent
};

/// True when the text looks like NPB output (a "NAS Parallel Benchmarks" header
/// or a "Benchmark Completed" banner within the first 64 KiB).
bool LooksLikeNpbOutput(std::string_view text);

/// Parses every banner. Throws InputError(path, line, reason) when the file
/// has no complete banner (failed, killed or truncated run: the reason quotes
/// the first error line) or a banner value does not parse.
NpbOutput ParseNpbOutput(std::string_view text, const std::string& path);

/// One record per banner (procs, threads, time, Mop/s, verification, ...).
std::vector<RunStats> NpbToRunStats(const NpbOutput& output);

/// Human-readable dump of everything the file contains (for `ingest --show`).
std::string DescribeNpbOutput(const NpbOutput& output);

}  // namespace qnm
