#include "reader/micro_benchmark_files.h"

namespace qnm {

MicroBenchmarkSuite MicroBenchmarkSuiteOf(std::string_view text) {
  auto has = [text](std::string_view banner) { return text.find(banner) != std::string_view::npos; };
  if (has("HPC Challenge Benchmark") || has("Begin of Summary section.")) return MicroBenchmarkSuite::kHpcc;
  if (has("OSU MPI")) return MicroBenchmarkSuite::kOsu;
  if (has("# Benchmarking ") || has("MPI Benchmarks")) return MicroBenchmarkSuite::kImb;
  return MicroBenchmarkSuite::kNone;
}

const char* Describe(MicroBenchmarkSuite suite) {
  switch (suite) {
    case MicroBenchmarkSuite::kOsu: return "an OSU micro-benchmark output";
    case MicroBenchmarkSuite::kImb: return "an IMB-MPI1 output";
    case MicroBenchmarkSuite::kHpcc: return "an HPC Challenge output";
    case MicroBenchmarkSuite::kNone: break;
  }
  return "";
}

std::string NotARunReason(std::string_view text) {
  const MicroBenchmarkSuite suite = MicroBenchmarkSuiteOf(text);
  if (suite == MicroBenchmarkSuite::kNone) return "";
  return std::string(Describe(suite)) + ": not a run; `qnm-predict profile` makes of it a machine profile for --machine";
}

}  // namespace qnm
