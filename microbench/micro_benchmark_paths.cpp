// The files and folders given to `qnm-predict profile`: each file read by the suite its banners
// name (reader/micro_benchmark_files.h); a folder walked for the files of such a suite.
#include <algorithm>
#include <filesystem>
#include <system_error>

#include "microbench/micro_benchmark.h"
#include "reader/micro_benchmark_files.h"
#include "textio/compressed_file.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr long long kMaxBytes = 64LL << 20;  // a micro-benchmark output is kilobytes; a job log megabytes
constexpr std::size_t kSniffBytes = 64 << 10;

}  // namespace

std::vector<MicroBenchmarkTable> ReadMicroBenchmarkFile(const std::string& path) {
  std::string text = ReadFile(path, kMaxBytes);
  if (!CompressionOf(text).empty()) text = Unpack(text, path, kMaxBytes);  // osu_bw.log.gz: as zcat shows it
  switch (MicroBenchmarkSuiteOf(text)) {
    case MicroBenchmarkSuite::kHpcc: return ReadHpccOutput(text, path);
    case MicroBenchmarkSuite::kOsu: return ReadOsuOutput(text, path);
    case MicroBenchmarkSuite::kImb: return ReadImbOutput(text, path);
    case MicroBenchmarkSuite::kNone: break;
  }
  throw InputError(path, 0,
                   "not an OSU micro-benchmark output (\"# OSU MPI ... Test\"), an IMB-MPI1 output "
                   "(\"# Benchmarking PingPong\") or an HPC Challenge output (hpccoutf.txt)");
}

std::vector<MicroBenchmarkTable> ReadMicroBenchmarkPaths(const std::vector<std::string>& paths,
                                                         std::vector<std::string>* notes) {
  std::vector<MicroBenchmarkTable> tables;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {  // a file named on the command line must be one
      for (MicroBenchmarkTable& table : ReadMicroBenchmarkFile(path)) tables.push_back(std::move(table));
      continue;
    }
    std::vector<std::string> files;
    std::filesystem::recursive_directory_iterator walk(
        path, std::filesystem::directory_options::skip_permission_denied, error);
    for (; !error && walk != std::filesystem::recursive_directory_iterator(); walk.increment(error))
      if (std::error_code status; walk->is_regular_file(status)) files.push_back(walk->path().string());
    if (error) throw InputError(path, 0, "cannot walk the folder: " + error.message());
    std::sort(files.begin(), files.end());
    std::size_t read = 0;
    std::vector<std::string> others;
    for (const std::string& file : files) {
      // By the banners of its head (unpacked when it is compressed as a whole): another file in the
      // folder (a job script, a README, a trace) is passed over, a micro-benchmark output is read.
      std::string head = ReadFileHead(file, kSniffBytes);
      if (!CompressionOf(head).empty()) head = UnpackedHead(head, kSniffBytes);
      if (MicroBenchmarkSuiteOf(head) == MicroBenchmarkSuite::kNone) {
        others.push_back(file);
        continue;
      }
      for (MicroBenchmarkTable& table : ReadMicroBenchmarkFile(file)) tables.push_back(std::move(table));
      ++read;
    }
    if (read == 0)
      throw InputError(path, 0, "no OSU, IMB-MPI1 or HPC Challenge output in this folder (" +
                                    std::to_string(files.size()) + " file" + (files.size() == 1 ? "" : "s") + ")");
    if (notes && !others.empty())
      notes->push_back(path + ": read " + std::to_string(read) + " micro-benchmark output" + (read == 1 ? "" : "s") +
                       "; passed over " + std::to_string(others.size()) + " other file" +
                       (others.size() == 1 ? "" : "s") + " (the first " + others.front() + ")");
  }
  return tables;
}

}  // namespace qnm
