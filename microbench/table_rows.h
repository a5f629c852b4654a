#pragma once
// Row checks shared by the OSU and IMB readers: every number of a row is
// parsed strictly and checked for a plausible range, and a damaged row is
// refused with the file and line (never skipped, never NaN).
#include <string>
#include <string_view>
#include <vector>

#include "microbench/micro_benchmark.h"

namespace qnm {

/// True for an OSU banner line ("# OSU MPI Latency Test v5.3.2", "# OSU MPI Bandwidth Test").
bool EndsWithVersionOrTest(std::string_view line);
/// The message size of a row: an integer in [0, 2^40] bytes.
double ParseRowBytes(std::string_view token, const std::string& path, int line);
/// Token `index` of a row as a finite number; InputError when absent or not a number.
double ParseRowValue(const std::vector<std::string_view>& tokens, std::size_t index, const std::string& path,
                     int line);
/// A time printed in microseconds, in seconds; InputError unless plausible (0 to 1e7 s).
double RequireMicroseconds(double microseconds, const std::string& path, int line);
/// A bandwidth in bytes/s; 0 is kept (OSU prints 0.00 MB/s for 1-byte messages on slow links).
double RequireBandwidth(double bytes_per_s, const std::string& path, int line);
/// The reader's result: InputError naming `path` when no table was read (`why_none`
/// when the file had tables of other benchmarks, else `not_this_format`) or a table has no rows.
std::vector<MicroBenchmarkTable> RequireTables(std::vector<MicroBenchmarkTable> tables, const std::string& path,
                                               bool other_tables_seen, const char* why_none,
                                               const char* not_this_format);
/// Appends `row`; InputError when its size does not grow over the previous row's.
void AppendRow(MicroBenchmarkTable* table, const MessageSizeRow& row, const std::string& path);

}  // namespace qnm
