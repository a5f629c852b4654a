#pragma once
// HPCG reports (docs/formats/hpcg-output.md): the High Performance Conjugate Gradients benchmark
// (hpcg-benchmark/hpcg) writes its run, at the end, to a report in the run's folder —
// `HPCG-Benchmark_3.1_<date>.txt` ("Section::Key=value" lines), in 3.0 `HPCG-Benchmark-3.0_<date>.yaml` (the
// same keys as an indented "Key: value" document), and in vendor builds named after the run (Intel's
// `n104-96p-1t_V3.1_<date>.txt`, the Arm fork's `<host>-<N>ranks-<T>threads_...txt`). The report gives the
// process count and the threads of each, the global and local problem, the iterations, and the times of the
// timed CG sets: "Benchmark Time Summary::Total" is the time of all of them, and their number follows from
// the iterations ("Total number of optimized iterations" / "Optimized CG iterations per set"). Its log beside
// it (`hpcg<date>.txt`, `hpcg_log_<date>.txt`) holds the residuals only; a job's standard output holds no
// figure but the rating.
//
// HPCG times its DDOT's MPI_Allreduce apart (the halo exchange is inside SpMV and MG): a share of the MPI
// time, kept as a detail; the records are runtime-only.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"
#include "textio/keyed_values.h"

namespace qnm {

/// One HPCG report: every key by its path, "Section::Key" ("Multigrid Information::Coarse Grids::Grid Level":
/// the first coarse grid's; a key repeated with another value refused only if taken, KeyedValues::Add),
/// the first line, the version line's text and the name line before it.
struct HpcgReport : KeyedValues {
  int line = 0;          // its "Machine Summary" line
  int end_line = 0;      // the first line after it (a line that is none of its keys, or the end + 1)
  std::string end_text;  // that line's text (cut to 60 characters); empty at the end of the text
  std::string name;      // "HPCG-Benchmark", "f0138.nhr.fau.de-1000ranks-3threads", "n104-4p-1t" (or empty)
  std::string version;   // "3.1", "HPCG-Benchmark_3.0", "V3.1" (or empty)
};

/// True when `text` holds an HPCG report: a "Machine Summary" section whose first key is "Distributed
/// Processes", in either layout.
bool LooksLikeHpcgReport(std::string_view text);

/// True when `text` is HPCG's log of a run (`hpcg<date>.txt`): the residuals of its validation calls ("Call
/// [0] Number of Iterations [11] Scaled Residual [...]", "Departure from symmetry").
bool LooksLikeHpcgLog(std::string_view text);

/// Every report in `text` (a job's output may print several); throws InputError naming `path` and the line
/// when a report's structure does not parse, or there is none.
std::vector<HpcgReport> ParseHpcgOutput(std::string_view text, const std::string& path);

/// The record of one report: procs and threads, the global problem nx x ny x nz as the class, the time of one
/// timed CG set as the run time (Total / the number of sets), HPCG's verdict as the verification, the version
/// as a setting; nodes from the Arm fork's SLURM section.
RunStats HpcgReportToRunStats(const HpcgReport& report, const std::string& path);

}  // namespace qnm
