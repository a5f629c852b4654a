// A Caliper region profile (.cali) as a run (caliper_profile.h; docs/formats/caliper.md): the
// stream's records as Snapshots for the Reduction (caliper_reduction.h).
#include "caliper/caliper_profile.h"

#include <cmath>
#include <functional>
#include <optional>

#include "caliper/caliper_reduction.h"
#include "caliper/caliper_stream.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

using caliper::kMaxRank;
using caliper::kMetricCount;
using caliper::kMetricNames;
using caliper::kRankCount;
using caliper::kRankSumCount;
using caliper::Snapshot;

// The count `name` of `record`, NaN without one (the Reduction checks its range).
double CountOf(const CaliperRecord& record, const char* name, const std::string& path) {
  const std::string* text = record.Find(name);
  if (text == nullptr) return kUnknown;
  const std::optional<double> count = ParseDouble(Trim(*text));
  if (!count || std::isnan(*count))  // NaN: the reduction's mark of a count the record lacks
    throw InputError(path, record.line, std::string(name) + " '" + *text + "' is no number");
  return *count;
}

}  // namespace

bool LooksLikeCaliperStream(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  return start != std::string_view::npos && StartsWith(text.substr(start), "__rec=");
}

RunStats ReadCaliperProfile(std::string_view text, const std::string& path) {
  LineReader lines(text);
  return ReadCaliperProfile(lines, path);
}

RunStats ReadCaliperProfileFile(const std::string& path, long long max_bytes, std::string* digest) {
  RunStats run;
  ReadLinesOfFile(path, max_bytes, kCaliperMaxLineBytes, [&](LineReader& lines) { run = ReadCaliperProfile(lines, path); },
                  digest);
  return run;
}

RunStats ReadCaliperProfile(LineReader& lines, const std::string& path) {
  CaliperStream stream;
  caliper::Reduction reduction(path);
  stream.Read(lines, path, [&](const CaliperRecord& record) {
    // Spot's time-series records repeat the regions' time per block of loop iterations.
    if (const std::string* channel = record.Find("spot.channel"); channel && *channel != "regionprofile") {
      reduction.OtherChannel();
      return;
    }
    Snapshot s;
    s.line = record.line;
    bool any = false;
    for (int m = 0; m < kMetricCount; ++m) {
      s.value[m] = kUnknown;
      const std::string* text_value = record.Find(kMetricNames[m]);
      if (text_value == nullptr) continue;
      const std::optional<double> number = ParseDouble(Trim(*text_value));
      if (!number || std::isnan(*number))  // NaN: the reduction's mark of a metric the record lacks
        throw InputError(path, record.line, std::string(kMetricNames[m]) + " '" + *text_value + "' is no number");
      s.value[m] = *number;
      any = true;
    }
    if (!any) return;  // a record of other metrics (counters, memory)
    s.rank_calls = CountOf(record, kRankCount, path);
    s.sum_calls = CountOf(record, kRankSumCount, path);
    if (const std::string* rank = record.Find("mpi.rank")) {
      const std::optional<long long> number = ParseInteger(Trim(*rank));
      if (!number || *number < 0 || *number > kMaxRank)
        throw InputError(path, record.line, "mpi.rank '" + *rank + "' is no rank");
      s.has_rank = true;
      s.rank = *number;
    }
    // The outermost MPI region (attribute mpi.function: Caliper's profile.mpi) on the path.
    s.depth = record.path.size();
    for (std::size_t i = 0; i < record.path.size(); ++i)
      if (record.path[i].first->name == "mpi.function") {
        s.routine = reduction.Routine(record.path[i].second);
        s.is_routine = i + 1 == record.path.size();
        break;
      }
    reduction.Add(s);
  });
  if (!stream.has_globals() && reduction.Empty())
    throw InputError(path, 0, "a Caliper stream without snapshot records or globals: an empty or cut profile");
  const caliper::Globals globals{
      [&stream](std::string_view name) { return stream.globals().Find(name); }, stream.globals().line,
      [&stream](const std::function<void(const std::string&, const std::string&)>& each) {
        for (const CaliperRecord::Value& value : stream.globals().values) {
          const std::string* subcategory = stream.AttributeMetadata(*value.attribute, "adiak.subcategory");
          if (subcategory != nullptr && *subcategory == "none") each(value.attribute->name, value.values.back());
        }
      }};
  return reduction.Finish(globals, [&stream](const char* metric) -> std::optional<std::string> {
    const CaliperAttribute* attribute = stream.FindAttribute(metric);
    const std::string* unit = attribute ? stream.AttributeMetadata(*attribute, "attribute.unit") : nullptr;
    if (unit == nullptr)
      if (const CaliperAttribute* duration = stream.FindAttribute("time.duration"))
        unit = stream.AttributeMetadata(*duration, "time.unit");
    if (unit == nullptr) return std::nullopt;
    return *unit;
  });
}

}  // namespace qnm
