#pragma once
// What MPI micro-benchmarks measured on a machine: the tables of message size
// against time of the OSU micro-benchmarks (osu_latency, osu_bw,
// osu_allreduce; docs/formats/osu.md) and the Intel MPI Benchmarks (IMB-MPI1
// PingPong and Allreduce; docs/formats/imb.md) and the HPC Challenge's b_eff
// ping-pong (hpccoutf.txt; docs/formats/hpcc.md). Each reader produces the same
// tables; microbench/network_profile.h turns them into a machine profile.
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

enum class MicroBenchmarkKind {
  kPingPongLatency,  // one-way time of a blocking ping-pong (osu_latency, IMB PingPong)
  kStreamBandwidth,  // windowed uni-directional bandwidth (osu_bw)
  kAllreduce,        // average time of one MPI_Allreduce (osu_allreduce, IMB Allreduce)
};
const char* ToString(MicroBenchmarkKind kind);

/// One row: a message size and what was measured for it.
struct MessageSizeRow {
  double bytes = 0;
  double time_s = 0;                 // one-way (ping-pong) or per call (allreduce); 0 for osu_bw
  double bandwidth_bytes_per_s = 0;  // osu_bw's MB/s (10^6 bytes/s); 0 where not measured
  int line = 0;                      // 1-based line in the file
};

/// One benchmark's table as one output printed it.
struct MicroBenchmarkTable {
  std::string file;
  int line = 0;         // the header line of the table
  std::string suite;    // "OSU MPI Latency Test v5.3.2", "Intel (R) MPI Benchmarks 4.1"
  MicroBenchmarkKind kind = MicroBenchmarkKind::kPingPongLatency;
  int processes = 0;    // IMB's "#processes"; 0 when the output does not say (OSU)
  std::vector<MessageSizeRow> rows;  // ascending message sizes
};

/// Reads an OSU micro-benchmark output (one or several tests concatenated).
/// Tables of other OSU tests are skipped. Throws InputError naming the file
/// and line on a damaged row, and when no osu_latency, osu_bw or osu_allreduce table is found.
std::vector<MicroBenchmarkTable> ReadOsuOutput(const std::string& text, const std::string& path);
/// Reads an IMB-MPI1 output: its PingPong and Allreduce tables (other benchmarks
/// are skipped). Throws InputError naming the file and line like ReadOsuOutput.
std::vector<MicroBenchmarkTable> ReadImbOutput(const std::string& text, const std::string& path);
/// Reads an HPC Challenge output (hpccoutf.txt, one or several runs appended):
/// each run's Summary section gives a ping-pong table of two rows, b_eff's
/// 8-byte latency and 2,000,000-byte time of the slowest pair of processes
/// (docs/formats/hpcc.md). Throws InputError naming the file and line on a
/// damaged or unfinished summary, and when every run in the file ran on one
/// process (HPCC measures no ping-pong there; such runs are passed over).
std::vector<MicroBenchmarkTable> ReadHpccOutput(const std::string& text, const std::string& path);
/// Reads a file of any of the three suites (told apart by their banners: reader/micro_benchmark_files.h).
/// Throws InputError naming the file when it is none of them.
std::vector<MicroBenchmarkTable> ReadMicroBenchmarkFile(const std::string& path);
/// The tables of every file given, and of every file of a folder given (walked, sorted by path)
/// that is an output of one of the suites by its banners; a folder's other files are passed over
/// (said in `notes`, may be null), a folder without such a file is refused. A damaged output, in a
/// folder or named, is refused with its file and line (ReadMicroBenchmarkFile).
std::vector<MicroBenchmarkTable> ReadMicroBenchmarkPaths(const std::vector<std::string>& paths,
                                                         std::vector<std::string>* notes);

}  // namespace qnm
