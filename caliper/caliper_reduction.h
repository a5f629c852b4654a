#pragma once
// The reduction of a Caliper region profile's records to one run (caliper_profile.h): the same for
// a .cali stream (caliper_stream.h) and for Caliper's json-split output. Each front end turns its
// records into Snapshots; the Reduction sums them as they stream by (per rank, or over the ranks)
// and Finish() makes the run of them (docs/formats/caliper.md).
#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "record/run_stats.h"
#include "util/input_error.h"

namespace qnm::caliper {

// The time metrics of Caliper's profiling configurations (Caliper's SpotController and
// RuntimeProfileController): statistics over the ranks of the inclusive time, and a rank's (or one
// process's) exclusive or inclusive time.
enum Metric : int {
  kAvgInclusive,
  kMaxInclusive,
  kMinInclusive,
  kSumInclusive,
  kRankSumSum,
  kRankSum,
  kRankDuration,
  kRankInclusive,
  kMetricCount
};
constexpr std::array<const char*, kMetricCount> kMetricNames = {"avg#inclusive#sum#time.duration",
                                                                "max#inclusive#sum#time.duration",
                                                                "min#inclusive#sum#time.duration",
                                                                "sum#inclusive#sum#time.duration",
                                                                "sum#sum#time.duration",
                                                                "sum#time.duration",
                                                                "time.duration",
                                                                "inclusive#sum#time.duration"};

// The same metrics as json-split columns name them: the aliases of Caliper's profiling
// configurations ("" where they give none).
constexpr std::array<const char*, kMetricCount> kMetricAliases = {
    "Avg time/rank", "Max time/rank", "Min time/rank", "Total time", "time", "", "", ""};

// The largest rank a profile may name (and so the largest per-rank vector a damaged one can make).
constexpr long long kMaxRank = (1LL << 24) - 1;

// Region counts (Caliper's region.count option): per rank, and summed over the ranks (spot).
constexpr const char* kRankCount = "sum#rc.count";
constexpr const char* kRankSumCount = "sum#sum#rc.count";

// Their json-split aliases.
constexpr const char* kRankCountAlias = "Calls";
constexpr const char* kRankSumCountAlias = "Calls (total)";

// The run's metadata: a .cali stream's globals record, or a json-split file's top-level values.
struct Globals {
  std::function<const std::string*(std::string_view)> find;
  int line = 0;  // of the .cali globals record; 0 in JSON
  // Calls its argument with each value the program itself gave Adiak (subcategory "none": a
  // benchmark's variant, problem size, compiler), when the file says which; may be empty.
  std::function<void(const std::function<void(const std::string& key, const std::string& value)>&)> each_program_value;
};

// One snapshot record as the reduction sees it, whichever file it came from.
struct Snapshot {
  Snapshot() { value.fill(kUnknown); }
  int line = 0;             // the .cali line (1-based), or 0
  std::size_t row = 0;      // the json-split data row (1-based), or 0
  std::size_t depth = 0;    // regions on its path
  int routine = -1;         // the outermost MPI region on its path (Reduction::Routine), or -1
  bool is_routine = false;  // the record is that MPI region itself, not a region under it
  bool has_rank = false;
  long long rank = 0;
  std::array<double, kMetricCount> value;              // NaN where absent
  double rank_calls = kUnknown, sum_calls = kUnknown;  // sum#rc.count, sum#sum#rc.count
};

class Reduction {
 public:
  explicit Reduction(std::string path);
  ~Reduction();

  /// The index of MPI routine `name` (interned in the order met).
  int Routine(const std::string& name);
  /// A record of a channel other than Spot's region profile (its time series), passed by.
  void OtherChannel();
  /// No record of region times, and none passed by.
  bool Empty() const;
  /// The error `why` at the record `s` came from (its .cali line, or its json-split data row).
  InputError Error(const Snapshot& s, const std::string& why) const;
  /// Adds one record; throws Error() on a value out of range.
  void Add(const Snapshot& s);
  /// The run: the shape (statistics over the ranks, else a time per rank), process count, unit
  /// (`unit_of(metric name)`, else seconds from Caliper 2.10 on, else refused) and identity from
  /// `globals`. Throws InputError naming the file.
  RunStats Finish(const Globals& globals, const std::function<std::optional<std::string>(const char*)>& unit_of);

 private:
  struct State;
  std::string path_;
  std::unique_ptr<State> state_;
};

}  // namespace qnm::caliper
