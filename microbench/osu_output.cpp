// Reader of the OSU micro-benchmarks' text output (docs/formats/osu.md):
//   # OSU MPI Latency Test v5.3.2
//   # Size          Latency (us)
//   0                       1.07
// A table starts at its "# OSU MPI ... Test" banner; its rows are the lines
// that start with a message size; any other line ends it (concatenated logs
// put the next command between tables).
#include <optional>
#include <utility>

#include "microbench/micro_benchmark.h"
#include "microbench/table_rows.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

/// The kind of an OSU banner's test; nullopt for the tests a profile does not use.
std::optional<MicroBenchmarkKind> OsuKind(std::string_view banner) {
  // "OSU MPI%s Latency Test" (the %s is "-CUDA" and the like in device builds).
  std::string_view title = Trim(banner.substr(banner.find("OSU MPI") + 7));
  if (!title.empty() && title.front() == '-') title = title.substr(title.find(' ') + 1);
  title = Trim(title);
  auto is = [&](std::string_view name) { return StartsWith(title, name); };
  if (is("Allreduce Latency Test")) return MicroBenchmarkKind::kAllreduce;
  if (is("Latency Test")) return MicroBenchmarkKind::kPingPongLatency;
  if (is("Bandwidth Test")) return MicroBenchmarkKind::kStreamBandwidth;
  return std::nullopt;
}

}  // namespace

std::vector<MicroBenchmarkTable> ReadOsuOutput(const std::string& text, const std::string& path) {
  std::vector<MicroBenchmarkTable> tables;
  std::vector<std::string_view> lines = SplitLines(text);
  bool in_table = false, skipping = false;
  bool any_banner = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line_number = static_cast<int>(i) + 1;
    std::string_view line = Trim(lines[i]);
    if (StartsWith(line, "#") && line.find("OSU MPI") != std::string_view::npos && EndsWithVersionOrTest(line)) {
      any_banner = true;
      std::optional<MicroBenchmarkKind> kind = OsuKind(line);
      in_table = kind.has_value();
      skipping = !in_table;
      if (in_table) {
        MicroBenchmarkTable table;
        table.file = path;
        table.line = line_number;
        table.suite = std::string(Trim(line.substr(1)));
        table.kind = *kind;
        tables.push_back(table);
      }
      continue;
    }
    if (line.empty() || StartsWith(line, "#")) continue;  // column titles, "# Datatype: MPI_CHAR."
    if (!in_table && !skipping) continue;
    std::vector<std::string_view> tokens = SplitWhitespace(line);
    if (!ParseInteger(tokens.front())) {  // the next command of a concatenated log
      in_table = skipping = false;
      continue;
    }
    if (skipping) continue;
    MicroBenchmarkTable& table = tables.back();
    double value = ParseRowValue(tokens, 1, path, line_number);
    MessageSizeRow row;
    row.bytes = ParseRowBytes(tokens.front(), path, line_number);
    row.line = line_number;
    if (table.kind == MicroBenchmarkKind::kStreamBandwidth)
      row.bandwidth_bytes_per_s = RequireBandwidth(value * 1e6, path, line_number);  // OSU's MB/s: 10^6 bytes/s
    else
      row.time_s = RequireMicroseconds(value, path, line_number);
    AppendRow(&table, row, path);
  }
  return RequireTables(std::move(tables), path, any_banner,
                       "no osu_latency, osu_bw or osu_allreduce table (other OSU tests are not used)",
                       "not an OSU micro-benchmark output (no \"# OSU MPI ... Test\" banner)");
}

}  // namespace qnm
