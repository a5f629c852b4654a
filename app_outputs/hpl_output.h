#pragma once
// HPL (High-Performance Linpack) outputs (docs/formats/hpl-output.md): `HPL.out`, or the standard
// output of `xhpl` (HPL.dat's device 6). After the banner ("HPLinpack 2.3  --  High-Performance
// Linpack benchmark  --   December 2, 2018") and the parameters, every test prints
//   T/V                N    NB     P     Q               Time                 Gflops
//   --------------------------------------------------------------------------------
//   WR11C2R4        3000   128     2     2               9.62             1.8715e+00
// then its start and end times and its scaled-residual check ("...... PASSED" / "FAILED"). One
// xhpl run sweeps every N x NB x grid x variant of HPL.dat, and a grid may use fewer processes than
// were launched (the rest idle): each test is a run of P x Q processes. HPL times no MPI call: the
// records are runtime only.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One test of an HPL output.
struct HplTest {
  int line = 0;                // its result row, 1-based
  std::string variant;         // T/V: "WR11C2R4" (W: wall time; the rest encodes the algorithm)
  long long n = 0;             // N, the order of the matrix
  int nb = 0, p = 0, q = 0;    // block size and process grid
  double time_s = 0;           // Time, as printed (two decimals)
  double gflops = 0;           // Gflops, as printed (five significant digits)
  std::string residual_check;  // "PASSED" / "FAILED", or empty (the check was not printed)
  std::string version;         // the banner's "2.3", or empty
  bool cut = false;            // a table's heading at the end of the output without its row (line: the heading)
};

/// True when `text` looks like HPL's output (its banner, or a result table's heading with a row).
bool LooksLikeHplOutput(std::string_view text);

/// Every test of an output; throws InputError naming `path` and the line when a result row does not
/// parse, or the output holds no result row.
std::vector<HplTest> ParseHplOutput(std::string_view text, const std::string& path);

/// The record of one test: procs P x Q, the time to five significant digits from its Gflops when that
/// agrees with the printed two decimals (else the printed time), the class N, the block size and
/// variant as settings, the residual check as the verification.
RunStats HplTestToRunStats(const HplTest& test, const std::string& path);

}  // namespace qnm
