#pragma once
// Which micro-benchmark suite wrote a file: the inputs of a machine profile
// (`qnm-predict profile`, microbench/), which are not runs of a program. The
// profile's reader dispatches on it; ingest names it when such a file is in a
// folder of runs, instead of calling the file unrecognised.
#include <string>
#include <string_view>

namespace qnm {

enum class MicroBenchmarkSuite { kNone, kOsu, kImb, kHpcc };

/// The suite by the text's banners: HPC Challenge ("HPC Challenge Benchmark", "Begin of Summary
/// section."), OSU ("OSU MPI ... Test"), IMB-MPI1 ("# Benchmarking ", "MPI Benchmarks"), in that order.
MicroBenchmarkSuite MicroBenchmarkSuiteOf(std::string_view text);

/// "an OSU micro-benchmark output", "an IMB-MPI1 output", "an HPC Challenge output"; "" for none.
const char* Describe(MicroBenchmarkSuite suite);

/// Why ingest reads no run from `text` when a micro-benchmark suite wrote it ("an OSU micro-benchmark
/// output: not a run; `qnm-predict profile` makes of it a machine profile for --machine"); "" otherwise.
std::string NotARunReason(std::string_view text);

}  // namespace qnm
