// HPL outputs (hpl_output.h, docs/formats/hpl-output.md).
#include "app_outputs/hpl_output.h"

#include <cmath>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// The result table's heading: "T/V  N  NB  P  Q  Time  Gflops" (vendor builds add columns after).
bool IsHeading(const std::vector<std::string_view>& w) {
  return w.size() >= 7 && w[0] == "T/V" && w[1] == "N" && w[2] == "NB" && w[3] == "P" && w[4] == "Q" &&
         w[5] == "Time" && w[6] == "Gflops";
}

// HPL_pdtest's rate: Gflops = (N / 1e9) (N / t) ((2/3) N + 3/2), so t from the rate.
double TimeFromRate(long long n, double gflops) {
  const double order = static_cast<double>(n);
  return (order / 1.0e9) * order * ((2.0 / 3.0) * order + 1.5) / gflops;
}

std::string HplTestUnfinished(const HplTest& test, int* line) {
  *line = test.line;
  if (test.cut) return "HPL result table without its row: the run was killed or the output cut during this test";
  if (test.variant.empty() || test.variant[0] != 'W')
    return "HPL test of T/V '" + test.variant + "': its Time is not the wall time (T/V starts with W for wall time)";
  return {};
}

}  // namespace

bool LooksLikeHplOutput(std::string_view text) {
  if (text.find("HPLinpack ") != std::string_view::npos &&
      text.find("High-Performance Linpack benchmark") != std::string_view::npos)
    return true;
  const std::size_t heading = text.find("T/V ");
  return heading != std::string_view::npos && text.find("Gflops", heading) != std::string_view::npos &&
         text.find("HPL_pdgesv()") != std::string_view::npos;
}

std::vector<HplTest> ParseHplOutput(std::string_view text, const std::string& path) {
  std::vector<HplTest> tests;
  std::string version;
  const std::vector<std::string_view> lines = SplitLines(text);
  bool after_heading = false;  // between a table's heading and its first row
  int heading_line = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    const std::vector<std::string_view> w = SplitWhitespace(t);
    if (w.empty()) continue;
    if (w[0] == "HPLinpack" && w.size() >= 2) {
      version = std::string(w[1]);
      continue;
    }
    if (IsHeading(w)) {
      after_heading = true;
      heading_line = n;
      continue;
    }
    if (after_heading) {
      if (StartsWith(t, "---")) continue;
      after_heading = false;
      // "WR11C2R4  3000  128  2  2  9.62  1.8715e+00" (and, in vendor builds, more columns).
      if (w.size() < 7)
        throw InputError(
            path, n,
            "HPL result row needs T/V, N, NB, P, Q, Time and Gflops, got '" + std::string(t.substr(0, 80)) + "'");
      HplTest test;
      test.line = n;
      test.variant = std::string(w[0]);
      test.n = WholeNumber(w[1], path, n, "HPL N", 1, 1LL << 40);
      test.nb = static_cast<int>(WholeNumber(w[2], path, n, "HPL NB", 1, 1 << 24));
      test.p = WholeCount(w[3], path, n, "HPL P", 1);
      test.q = WholeCount(w[4], path, n, "HPL Q", 1);
      test.time_s = NonNegativeNumber(w[5], path, n, "HPL Time");
      test.gflops = NonNegativeNumber(w[6], path, n, "HPL Gflops");
      if (static_cast<long long>(test.p) * test.q > (1 << 24))
        throw InputError(path, n,
                         "HPL process grid " + std::to_string(test.p) + " x " + std::to_string(test.q) +
                             " is more than 2^24 processes");
      test.version = version;
      tests.push_back(std::move(test));
      continue;
    }
    // "||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)=   7.98465780e-03 ...... PASSED": the last
    // test's check (HPL 1.0 prints three such lines; any FAILED fails the test).
    if (!tests.empty() && t.find("......") != std::string_view::npos &&
        (w.back() == "PASSED" || w.back() == "FAILED")) {
      std::string& check = tests.back().residual_check;
      if (check != "FAILED") check = std::string(w.back());
    }
  }
  if (after_heading) {  // the test in progress when the run was killed or the output cut
    HplTest cut;
    cut.line = heading_line;
    cut.cut = true;
    tests.push_back(std::move(cut));
  }
  if (tests.empty() || (tests.size() == 1 && tests.front().cut))
    throw InputError(path, tests.empty() ? 0 : tests.front().line,
                     "no HPL result row: the run finished no test (killed, out of time, or the output was cut)");
  return tests;
}

RunStats HplTestToRunStats(const HplTest& test, const std::string& path) {
  RunStats run;
  const std::string at = path + ":" + std::to_string(test.line);
  run.sources.push_back(at);
  run.app = "hpl";
  run.derivations["app"] = "HPL result row (T/V N NB P Q Time Gflops, line " + std::to_string(test.line) + ")";
  run.procs = test.p * test.q;
  run.derivations["procs"] = "HPL P x Q: the process grid of the test (processes launched beyond it stay idle)";
  // The time: printed with two decimals; the rate has five significant digits, and HPL computed it
  // from the unrounded time (HPL_pdtest.c), so the time follows from it to five digits.
  const double from_rate = test.gflops > 0 ? TimeFromRate(test.n, test.gflops) : -1;
  if (from_rate > 0 && std::fabs(from_rate - test.time_s) <= 0.005 + 1e-4 * test.time_s) {
    run.wall_time_s = from_rate;
    run.derivations["wall_time_s"] =
        "HPL: N^2 ((2/3) N + 3/2) / (Gflops x 1e9) (five significant digits; the printed Time, " +
        FormatDouble("%.2f", test.time_s) + " s, agrees to its rounding)";
  } else {
    run.wall_time_s = test.time_s;
    run.derivations["wall_time_s"] = "HPL Time (line " + std::to_string(test.line) + ")";
  }
  run.problem_class = "N=" + std::to_string(test.n);
  run.derivations["problem_class"] = "HPL: the order N of the matrix";
  // The block size and the algorithm (T/V's code after its W) are tuning, not the problem: settings,
  // so a sweep of them at each process count is kept apart (experiment_factors.h).
  run.details[std::string(kDeclaredSettingPrefix) + "nb"] = std::to_string(test.nb);
  run.details[std::string(kDeclaredSettingPrefix) + "variant"] = test.variant.substr(1);
  if (!test.version.empty()) run.details[std::string(kDeclaredSettingPrefix) + "version"] = test.version;
  run.details["hpl_grid"] = std::to_string(test.p) + "x" + std::to_string(test.q);
  run.details["hpl_gflops"] = NumberText(test.gflops);
  if (!test.residual_check.empty()) {
    run.verification = test.residual_check == "PASSED" ? "SUCCESSFUL" : "UNSUCCESSFUL";
    run.derivations["verification"] = "HPL scaled residual check: " + test.residual_check;
  }
  run.Derive();
  RequirePlausibleRecord(run, path, test.line);
  return run;
}

bool SniffHplOutput(const std::string&, std::string_view text) { return LooksLikeHplOutput(text); }

ReaderOutput ReadHplOutput(const ReaderInput& input) {
  return FinishedRunsOutput(
      input, ParseHplOutput(input.text, input.path), HplTestUnfinished,
      [&](const HplTest& test) { return HplTestToRunStats(test, input.path); }, [](const HplTest&, RunStats*) {},
      "HPL tests were not read");
}

}  // namespace qnm
