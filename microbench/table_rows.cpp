#include "microbench/table_rows.h"

#include <cmath>

#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/plausible_range.h"

namespace qnm {

bool EndsWithVersionOrTest(std::string_view line) {
  std::vector<std::string_view> tokens = SplitWhitespace(line);
  if (tokens.empty()) return false;
  std::string_view last = tokens.back();
  return last == "Test" || (StartsWith(last, "v") && last.size() > 1 && std::isdigit(static_cast<unsigned char>(last[1])));
}

double ParseRowBytes(std::string_view token, const std::string& path, int line) {
  std::optional<long long> bytes = ParseInteger(token);
  if (!bytes || *bytes < 0 || *bytes > (1LL << 40))
    throw InputError(path, line, "message size '" + std::string(token) + "' is not a byte count in [0, 2^40]");
  return static_cast<double>(*bytes);
}

double ParseRowValue(const std::vector<std::string_view>& tokens, std::size_t index, const std::string& path,
                     int line) {
  if (index >= tokens.size())
    throw InputError(path, line, "row has " + std::to_string(tokens.size()) + " columns, expected at least " +
                                     std::to_string(index + 1));
  std::optional<double> value = ParseDouble(tokens[index]);
  if (!value || !std::isfinite(*value))
    throw InputError(path, line, "column " + std::to_string(index + 1) + " '" + std::string(tokens[index]) +
                                     "' is not a finite number");
  return *value;
}

double RequireMicroseconds(double microseconds, const std::string& path, int line) {
  double seconds = microseconds / 1e6;
  RequirePlausible(seconds, kPartTimeS, "time per message", path, line);
  return seconds;
}

double RequireBandwidth(double bytes_per_s, const std::string& path, int line) {
  if (bytes_per_s != 0) RequirePlausible(bytes_per_s, kBandwidthBytesPerS, "bandwidth", path, line);
  return bytes_per_s;
}

std::vector<MicroBenchmarkTable> RequireTables(std::vector<MicroBenchmarkTable> tables, const std::string& path,
                                               bool other_tables_seen, const char* why_none,
                                               const char* not_this_format) {
  if (tables.empty()) throw InputError(path, 0, other_tables_seen ? why_none : not_this_format);
  for (const MicroBenchmarkTable& table : tables)
    if (table.rows.empty()) throw InputError(path, table.line, "the " + table.suite + " table has no rows");
  return tables;
}

void AppendRow(MicroBenchmarkTable* table, const MessageSizeRow& row, const std::string& path) {
  if (!table->rows.empty() && !(row.bytes > table->rows.back().bytes))
    throw InputError(path, row.line, "message size " + std::to_string(static_cast<long long>(row.bytes)) +
                                         " does not grow over the previous row's");
  table->rows.push_back(row);
}

}  // namespace qnm
