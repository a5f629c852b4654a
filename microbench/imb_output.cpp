// Reader of the Intel MPI Benchmarks' IMB-MPI1 output (docs/formats/imb.md):
//   # Benchmarking PingPong
//   # #processes = 2
//   #---------------------------------------------------
//          #bytes #repetitions      t[usec]   Mbytes/sec
//               0         1000         2.23         0.00
// Only PingPong and Allreduce are read; the time column is found by its title
// (t[usec] for PingPong, t_avg[usec] for the collectives; IMB manual, "Output").
#include <algorithm>
#include <utility>

#include "microbench/micro_benchmark.h"
#include "microbench/table_rows.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {

std::vector<MicroBenchmarkTable> ReadImbOutput(const std::string& text, const std::string& path) {
  std::vector<MicroBenchmarkTable> tables;
  std::vector<std::string_view> lines = SplitLines(text);
  std::string suite = "Intel MPI Benchmarks";
  enum class State { kOutside, kHeader, kRows, kSkipping } state = State::kOutside;
  std::size_t time_column = 0;
  bool any_benchmark = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line_number = static_cast<int>(i) + 1;
    std::string_view line = Trim(lines[i]);
    if (line.find("MPI Benchmarks") != std::string_view::npos && StartsWith(line, "#") &&
        line.find("Intel") != std::string_view::npos) {
      suite = std::string(Trim(line.substr(1)));
      continue;
    }
    if (StartsWith(line, "# Benchmarking ")) {
      any_benchmark = true;
      std::string name(Trim(line.substr(15)));
      const bool pingpong = name == "PingPong", allreduce = name == "Allreduce";
      state = pingpong || allreduce ? State::kHeader : State::kSkipping;
      if (state == State::kHeader) {
        MicroBenchmarkTable table;
        table.file = path;
        table.line = line_number;
        table.suite = suite + ": " + name;
        table.kind = pingpong ? MicroBenchmarkKind::kPingPongLatency : MicroBenchmarkKind::kAllreduce;
        tables.push_back(table);
      }
      continue;
    }
    if (state == State::kOutside || state == State::kSkipping) continue;
    MicroBenchmarkTable& table = tables.back();
    if (StartsWith(line, "# #processes")) {
      std::size_t equals = line.find('=');
      std::optional<long long> processes =
          equals == std::string_view::npos ? std::nullopt : ParseInteger(Trim(line.substr(equals + 1)));
      if (!processes || *processes < 1 || *processes > 10000000)
        throw InputError(path, line_number, "'#processes' is not a process count");
      table.processes = static_cast<int>(*processes);
      continue;
    }
    if (state == State::kHeader) {
      if (!StartsWith(line, "#bytes")) continue;  // separators, "( 62 additional processes waiting ...)"
      std::vector<std::string_view> titles = SplitWhitespace(line);
      const char* wanted = table.kind == MicroBenchmarkKind::kPingPongLatency ? "t[usec]" : "t_avg[usec]";
      auto it = std::find(titles.begin(), titles.end(), wanted);
      if (it == titles.end())
        throw InputError(path, line_number, std::string("no '") + wanted + "' column in the table header");
      time_column = static_cast<std::size_t>(it - titles.begin());
      state = State::kRows;
      continue;
    }
    // State::kRows: a blank or '#' line ends the table.
    if (line.empty() || StartsWith(line, "#")) {
      state = State::kOutside;
      continue;
    }
    std::vector<std::string_view> tokens = SplitWhitespace(line);
    MessageSizeRow row;
    row.bytes = ParseRowBytes(tokens.front(), path, line_number);
    row.time_s = RequireMicroseconds(ParseRowValue(tokens, time_column, path, line_number), path, line_number);
    row.line = line_number;
    AppendRow(&table, row, path);
  }
  return RequireTables(std::move(tables), path, any_benchmark,
                       "no PingPong or Allreduce table (other IMB benchmarks are not used)",
                       "not an IMB-MPI1 output (no \"# Benchmarking ...\" table)");
}

const char* ToString(MicroBenchmarkKind kind) {
  switch (kind) {
    case MicroBenchmarkKind::kPingPongLatency: return "ping-pong latency";
    case MicroBenchmarkKind::kStreamBandwidth: return "bandwidth";
    case MicroBenchmarkKind::kAllreduce: return "allreduce";
  }
  return "unknown";
}

}  // namespace qnm
