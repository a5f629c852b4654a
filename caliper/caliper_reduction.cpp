// The reduction of a Caliper profile's records to one run (caliper_reduction.h).
#include "caliper/caliper_reduction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "reader/routine_call_sites.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "util/plausible_range.h"
#include "util/text_format.h"

namespace qnm::caliper {
namespace {

// The statistics over the ranks (spot), summed as the records stream by.
struct OverRanks {
  bool seen = false;
  double app_sum = 0, app_max = 0, mpi_sum = 0;
  double app_max_region = 0;  // the largest top-level region's max#inclusive: a lower bound of the slowest rank
  bool have_max = true, have_sum = true;
  // The first record whose sum over the ranks differs from its average (several processes): its
  // .cali line or json-split data row.
  bool several = false;
  int several_line = 0;
  std::size_t several_row = 0;
  std::vector<double> routine_sum;  // per routine (index into the routine names)
  // Calls: sum#sum#rc.count (the region.count option, on by default in spot) over the ranks.
  std::vector<double> routine_calls;
  bool calls_complete = true;  // every MPI region's record has its count
};

// A time per rank (runtime-profile, or one process's profile), for one metric, summed as the records
// stream by; no mpi.rank counts as rank 0. Kept per rank met (a slot), not per rank number, so a
// damaged rank number costs nothing until the process count is known.
struct PerRank {
  bool seen = false, ranked = false;  // ranked: some record names its mpi.rank
  std::unordered_map<long long, std::size_t> slot_of_rank;
  long long max_rank = -1;
  std::vector<double> app, mpi;              // per slot
  std::vector<std::vector<double>> routine;  // [routine][slot]
  std::vector<std::vector<double>> calls;    // [routine][slot]: sum#rc.count of the MPI regions
  bool calls_complete = true;                // every MPI region's record has its count
  std::size_t Slot(long long rank) {
    const auto [it, added] = slot_of_rank.emplace(rank, app.size());
    if (added) {
      app.push_back(0.0);
      mpi.push_back(0.0);
      max_rank = std::max(max_rank, rank);
    }
    return it->second;
  }
  static void AddTo(std::vector<std::vector<double>>* table, int routine_index, std::size_t slot, double value) {
    if (static_cast<std::size_t>(routine_index) >= table->size()) table->resize(routine_index + 1);
    std::vector<double>& values = (*table)[routine_index];
    if (slot >= values.size()) values.resize(slot + 1, 0.0);
    values[slot] += value;
  }
  void Add(std::size_t slot, int routine_index, double app_s, double mpi_s) {
    app[slot] += app_s;
    mpi[slot] += mpi_s;
    if (routine_index >= 0) AddTo(&routine, routine_index, slot, mpi_s);
  }
  // The value of `table` (per slot) at rank `rank`'s slot.
  double At(const std::vector<double>& values, long long rank) const {
    const std::size_t slot = slot_of_rank.at(rank);
    return slot < values.size() ? values[slot] : 0.0;
  }
};

double Seconds(const std::string& unit, const std::string& path) {
  if (unit == "sec" || unit == "s") return 1;
  if (unit == "msec" || unit == "ms") return 1e-3;
  if (unit == "usec" || unit == "us") return 1e-6;
  if (unit == "nsec" || unit == "ns") return 1e-9;
  throw InputError(path, 0, "time unit '" + unit + "' of the region times is none of sec, ms, usec, nsec");
}

const std::string* Global(const Globals& globals, std::string_view name) { return globals.find(name); }

// A count among the globals; one that is no count is damage (an InputError), or, for a name the
// program chose itself (`optional`: Adiak values such as "threads" are the application's), passed by.
std::optional<long long> GlobalCount(const Globals& globals, std::string_view name, const std::string& path,
                                     bool optional = false) {
  const std::string* text = Global(globals, name);
  if (text == nullptr) return std::nullopt;
  const std::optional<long long> value = ParseInteger(Trim(*text));
  if (value && *value >= 1 && *value <= (1LL << 30)) return value;
  if (optional) return std::nullopt;
  throw InputError(path, globals.line, "global " + std::string(name) + " '" + *text + "' is no count");
}

// Adiak's list values are written "[a,b,c]".
std::vector<std::string> AdiakList(const std::string& text) {
  std::string_view inner = Trim(text);
  if (StartsWith(inner, "[") && EndsWith(inner, "]")) inner = inner.substr(1, inner.size() - 2);
  std::vector<std::string> items;
  for (std::string_view item : SplitFields(inner, ','))
    if (!item.empty()) items.emplace_back(item);
  return items;
}

void ApplyIdentity(const Globals& globals, const std::string& path, RunStats* run) {
  if (const std::string* version = Global(globals, "cali.caliper.version")) run->tool_version = "Caliper " + *version;
  for (const char* key : {"executable", "executablepath"})
    if (const std::string* program = Global(globals, key); program && !program->empty()) {
      run->app = BaseName(*program);
      run->derivations["app"] = std::string("Caliper global (Adiak) ") + key + ": " + *program;
      break;
    }
  if (run->app.empty())
    if (const std::string* cmdline = Global(globals, "cmdline")) {
      const std::vector<std::string> words = AdiakList(*cmdline);
      if (!words.empty()) {
        run->app = BaseName(words.front());
        run->derivations["app"] = "Caliper global (Adiak) cmdline: " + *cmdline;
      }
    }
  if (const std::string* cluster = Global(globals, "cluster"); cluster && !cluster->empty()) {
    run->machine = *cluster;
    run->derivations["machine"] = "Caliper global (Adiak) cluster";
  }
  if (const std::string* hosts = Global(globals, "hostlist")) {
    const std::vector<std::string> list = AdiakList(*hosts);
    if (!list.empty()) {
      ApplyHosts(list, "Caliper global (Adiak) hostlist", run);
      run->SetNodes(static_cast<int>(list.size()), "Caliper global (Adiak) hostlist: its host names");
    }
  }
  if (run->nodes == 0)
    if (const auto hosts = GlobalCount(globals, "numhosts", path))
      run->SetNodes(static_cast<int>(*hosts), "Caliper global (Adiak) numhosts");
  for (const char* key : {"omp.num.threads", "threads"})
    if (const auto threads = GlobalCount(globals, key, path, true)) {
      run->threads_per_proc = static_cast<int>(*threads);
      run->derivations["threads_per_proc"] = std::string("Caliper global ") + key;
      break;
    }
  if (const std::string* size = Global(globals, "problem_size")) run->problem_size = *size;
  // The program's own settings, kept with the run: what tells runs of one series apart when their
  // times spread (repetition_spread.h names the first that differs), shown by ingest --show.
  if (globals.each_program_value)
    globals.each_program_value([run](const std::string& key, const std::string& value) {
      if (value.size() <= 200) run->details["adiak." + key] = value;
    });
}

// Caliper 2.10 and later time in ns, and every profiling configuration scales it to seconds.
bool SecondsWithoutUnit(const Globals& globals) {
  const std::string* version = Global(globals, "cali.caliper.version");
  int major = 0, minor = 0;
  return version != nullptr && std::sscanf(version->c_str(), "%d.%d", &major, &minor) == 2 &&
         (major > 2 || (major == 2 && minor >= 10));
}

}  // namespace

struct Reduction::State {
  std::vector<std::string> routines;
  std::map<std::string, int> routine_index;
  OverRanks over_ranks;
  std::array<PerRank, kMetricCount> per_rank;  // used for the time-per-rank metrics only
  std::size_t other_channel = 0;
};

Reduction::Reduction(std::string path) : path_(std::move(path)), state_(std::make_unique<State>()) {}
Reduction::~Reduction() = default;

int Reduction::Routine(const std::string& name) {
  auto [it, added] = state_->routine_index.emplace(name, static_cast<int>(state_->routines.size()));
  if (added) state_->routines.push_back(name);
  return it->second;
}

void Reduction::OtherChannel() { ++state_->other_channel; }

bool Reduction::Empty() const {
  return !state_->over_ranks.seen && state_->other_channel == 0 &&
         std::none_of(state_->per_rank.begin(), state_->per_rank.end(),
                      [](const PerRank& times) { return times.seen; });
}

InputError Reduction::Error(const Snapshot& s, const std::string& why) const {
  if (s.row > 0) return InputError(path_, 0, "data row " + std::to_string(s.row) + ": " + why);
  return InputError(path_, s.line, why);
}

void Reduction::Add(const Snapshot& s) {
  // The state's members by their names.
  const std::vector<std::string>& routines = state_->routines;
  OverRanks& over_ranks = state_->over_ranks;
  std::array<PerRank, kMetricCount>& per_rank = state_->per_rank;

  for (int m = 0; m < kMetricCount; ++m)
    if (!std::isnan(s.value[m]) && !kPartTimeS.Contains(s.value[m]))
      throw Error(s, DescribeOutOfRange(kMetricNames[m], s.value[m], kPartTimeS));
  for (const auto& [name, count] : {std::pair{kRankCount, s.rank_calls}, std::pair{kRankSumCount, s.sum_calls}})
    if (!std::isnan(count) && !kCount.Contains(count)) throw Error(s, DescribeOutOfRange(name, count, kCount));
  if (s.has_rank && (s.rank < 0 || s.rank > kMaxRank))
    throw Error(s, "mpi.rank " + std::to_string(s.rank) + " is no rank");
  const int routine = s.routine;
  const bool is_routine = s.is_routine;
  const std::array<double, kMetricCount>& value = s.value;
  const bool top = s.depth <= 1;  // a top-level region, or the time outside any region
  if (Known(value[kAvgInclusive])) {
    // Statistics over the ranks that have the region: min <= avg <= max, and their sum.
    const double avg = value[kAvgInclusive], max = value[kMaxInclusive], min = value[kMinInclusive];
    if ((Known(max) && avg > max * (1 + 1e-6) + 1e-12) || (Known(min) && min > avg * (1 + 1e-6) + 1e-12))
      throw Error(s, "the average time over the ranks lies outside their min and max");
    const double sum = value[kSumInclusive];
    over_ranks.seen = true;
    if (!Known(sum))
      over_ranks.have_sum = false;
    else if (!over_ranks.several && std::abs(sum - avg) > 1e-9 * std::max(1.0, sum)) {
      over_ranks.several = true;
      over_ranks.several_line = s.line;
      over_ranks.several_row = s.row;
    }
    const double total = Known(sum) ? sum : avg;  // without sums: scaled by the process count below
    if (top) {
      over_ranks.app_sum += total;
      if (Known(max)) {
        over_ranks.app_max += max;
        over_ranks.app_max_region = std::max(over_ranks.app_max_region, max);
      } else
        over_ranks.have_max = false;
    }
    if (routine >= 0 && is_routine) {
      over_ranks.mpi_sum += total;
      if (over_ranks.routine_sum.size() < routines.size()) {
        over_ranks.routine_sum.resize(routines.size(), 0.0);
        over_ranks.routine_calls.resize(routines.size(), 0.0);
      }
      over_ranks.routine_sum[routine] += total;
      const double calls = s.sum_calls;
      if (Known(calls))
        over_ranks.routine_calls[routine] += calls;
      else
        over_ranks.calls_complete = false;
    }
    return;
  }
  const long long rank = s.has_rank ? s.rank : 0;
  const double calls = routine >= 0 && is_routine ? (Known(s.rank_calls) ? s.rank_calls : s.sum_calls) : kUnknown;
  for (int m : {kRankSumSum, kRankSum, kRankDuration, kRankInclusive}) {
    if (!Known(value[m])) continue;
    PerRank& times = per_rank[m];
    const std::size_t slot = times.Slot(rank);
    if (routine >= 0 && is_routine) {
      if (Known(calls))
        PerRank::AddTo(&times.calls, routine, slot, calls);
      else
        times.calls_complete = false;
    }
    times.seen = true;
    times.ranked = times.ranked || s.has_rank;
    // Exclusive times: every record adds to its rank. Inclusive: the top-level ones and the MPI regions.
    const bool inclusive = m == kRankInclusive;
    const bool in_mpi = routine >= 0 && (!inclusive || is_routine);
    times.Add(slot, in_mpi ? routine : -1, !inclusive || top ? value[m] : 0.0, in_mpi ? value[m] : 0.0);
  }
}

RunStats Reduction::Finish(const Globals& globals,
                           const std::function<std::optional<std::string>(const char*)>& unit_of) {
  // The state's members by their names.
  const std::vector<std::string>& routines = state_->routines;
  OverRanks& over_ranks = state_->over_ranks;
  std::array<PerRank, kMetricCount>& per_rank = state_->per_rank;
  const std::size_t other_channel = state_->other_channel;

  const std::string& path = path_;
  // The shape: statistics over the ranks, else a time per rank (exclusive, else inclusive).
  int metric = over_ranks.seen ? kAvgInclusive : -1;
  for (int m : {kRankSumSum, kRankSum, kRankDuration, kRankInclusive})
    if (metric < 0 && per_rank[m].seen) metric = m;
  if (metric < 0)
    throw InputError(path, 0,
                     "a Caliper profile without region times (avg#inclusive#sum#time.duration, as "
                     "CALI_CONFIG=spot writes; sum#time.duration, as runtime-profile writes)" +
                         std::string(other_channel ? "; only Spot time-series records" : ""));
  const std::optional<std::string> unit = unit_of(kMetricNames[metric]);
  std::string unit_note;
  double seconds = 1.0;
  if (unit) {
    seconds = Seconds(*unit, path);
    unit_note = " (unit " + *unit + ")";
  } else if (SecondsWithoutUnit(globals)) {
    unit_note = " (no unit given: Caliper " + *Global(globals, "cali.caliper.version") +
                " times are seconds, its timer's ns scaled by 1e-9)";
  } else {
    throw InputError(path, 0,
                     std::string(kMetricNames[metric]) +
                         " without a unit, from Caliper before 2.10 (or no version named): its timer "
                         "counted microseconds or seconds as CALI_TIMER_UNIT said, and the file does not "
                         "say which");
  }

  // The process count.
  RunStats run;
  run.sources = {path};
  const PerRank* times = metric == kAvgInclusive ? nullptr : &per_rank[metric];
  const long long ranks_named = times && times->ranked ? times->max_rank + 1 : 0;
  if (const auto size = GlobalCount(globals, "mpi.world.size", path)) {
    run.procs = static_cast<int>(*size);
    run.derivations["procs"] = "Caliper global mpi.world.size";
  } else if (const auto jobsize = GlobalCount(globals, "jobsize", path)) {
    run.procs = static_cast<int>(*jobsize);
    run.derivations["procs"] = "Caliper global (Adiak) jobsize";
  } else if (ranks_named > 0) {
    run.procs = static_cast<int>(ranks_named);
    run.derivations["procs"] = "Caliper: the largest mpi.rank + 1";
  } else {
    // No MPI service, no Adiak: the profile of one process, if its statistics over the ranks are one's.
    if (over_ranks.several) {
      Snapshot at;
      at.line = over_ranks.several_line;
      at.row = over_ranks.several_row;
      throw Error(at,
                  "a profile of several processes that names no process count (no global mpi.world.size or "
                  "jobsize): profile with Caliper's mpi service or Adiak");
    }
    run.procs = 1;
    run.derivations["procs"] =
        "Caliper: one process (no global mpi.world.size or jobsize, no mpi.rank, and "
        "every region's sum over the ranks equal to its average)";
  }
  if (ranks_named > run.procs)
    throw InputError(
        path, 0,
        "mpi.rank " + std::to_string(ranks_named - 1) + " in a run of " + std::to_string(run.procs) + " processes");
  const std::size_t procs = static_cast<std::size_t>(run.procs);
  const std::string metric_name = kMetricNames[metric];

  if (times == nullptr) {
    const double per_rank_s = seconds / static_cast<double>(procs);
    const double scale = over_ranks.have_sum ? 1.0 : static_cast<double>(procs);  // averages to sums
    run.app_time_mean_s = over_ranks.app_sum * scale * per_rank_s;
    // The slowest rank's time. Summing the top-level regions' maxima overcounts when they come from different
    // ranks: a rank that finished its work early waits in the flush's collective (a top-level MPI_Comm_dup,
    // outside main) while the slowest one is still in main, and both maxima would be added. Every rank ends at
    // that collective, so the ranks' whole times agree and their mean is the run's; the largest single region's
    // maximum is a lower bound of it, the sum of the maxima an upper one (kept as a detail).
    if (over_ranks.have_max) {
      run.app_time_max_s = std::max(over_ranks.app_max_region * seconds, run.app_time_mean_s);
      if (over_ranks.app_max * seconds > run.app_time_max_s * (1 + 1e-9))
        run.details["caliper.app_time_max_upper_s"] = FormatDouble("%.9g", over_ranks.app_max * seconds);
    }
    const std::string sum_note = over_ranks.have_sum ? "sum#inclusive#sum#time.duration over the ranks / procs"
                                                     : "avg#inclusive#sum#time.duration (no sums: the mean over "
                                                       "the ranks that have each region)";
    run.derivations["app_time_mean_s"] =
        "Caliper: " + sum_note + " of the top-level regions and of the time outside any region" + unit_note;
    if (over_ranks.have_max)
      run.derivations["app_time_max_s"] =
          "Caliper: the larger of the ranks' mean whole time (they end together, at the flush's collective) and "
          "the largest top-level region's max#inclusive#sum#time.duration";
    if (!routines.empty()) {
      over_ranks.routine_sum.resize(routines.size(), 0.0);
      over_ranks.routine_calls.resize(routines.size(), 0.0);
      run.mpi_time_mean_s = over_ranks.mpi_sum * scale * per_rank_s;
      run.derivations["mpi_time_mean_s"] = "Caliper: " + sum_note + " of the outermost mpi.function regions";
      for (std::size_t i = 0; i < routines.size(); ++i) {
        CallSiteStats site;
        site.id = static_cast<int>(i) + 1;
        site.mpi_function = StartsWith(routines[i], "MPI_") ? routines[i].substr(4) : routines[i];
        site.source_location = "Caliper region " + routines[i];
        site.activity = ClassifyMpiCall(site.mpi_function);
        site.ranks_complete = false;  // totals over the ranks, no rank rows
        site.total_time_s = over_ranks.routine_sum[i] * scale * seconds;
        if (over_ranks.calls_complete) site.total_calls = over_ranks.routine_calls[i];
        run.call_sites.push_back(std::move(site));
      }
      run.per_rank_complete = false;
      run.derivations["call_sites"] =
          "Caliper: one per MPI routine (mpi.function), its inclusive time summed over the ranks and call paths" +
          std::string(over_ranks.calls_complete ? ", its calls from sum#sum#rc.count" : "");
      if (over_ranks.calls_complete) {
        // Messages as mpiP's records count them: point-to-point sends and collective calls, per rank.
        double messages = 0, calls = 0;
        for (const CallSiteStats& site : run.call_sites) {
          calls += site.total_calls;
          if (IsPointToPointSend(site.mpi_function) || CountsAsCollective(site.activity)) messages += site.total_calls;
        }
        run.messages_per_rank = messages / static_cast<double>(procs);
        run.mpi_calls_per_rank = calls / static_cast<double>(procs);
        run.derivations["messages_per_rank"] =
            "Caliper: sum#sum#rc.count of the send and collective mpi.function regions, over the procs (no bytes: "
            "Caliper's region profile counts none)";
        run.derivations["mpi_calls_per_rank"] = "Caliper: sum#sum#rc.count of the mpi.function regions, over the procs";
      }
    }
  } else {
    if (!times->ranked && procs > 1)
      throw InputError(path, 0,
                       "a profile of " + std::to_string(procs) +
                           " processes with no mpi.rank and no statistics over the ranks: one rank's "
                           "profile, or ranks merged (profile with CALI_CONFIG=spot or runtime-profile)");
    if (times->slot_of_rank.size() < procs)  // a rank without records: the first of them named
      for (std::size_t r = 0; r < procs; ++r)
        if (!times->slot_of_rank.count(static_cast<long long>(r)))
          throw InputError(path, 0, "no region times of rank " + std::to_string(r));
    RunStats ranks = PerRankProfileRun(procs, run.threads_per_proc, run.sources);
    ranks.derivations = run.derivations;
    run = std::move(ranks);
    for (std::size_t r = 0; r < procs; ++r) {
      run.app_time_s_per_rank[r] = times->At(times->app, static_cast<long long>(r)) * seconds;
      run.mpi_time_s_per_rank[r] = times->At(times->mpi, static_cast<long long>(r)) * seconds;
    }
    RoutineCallSites sites(&run, procs, false);
    auto site_of = [&](std::size_t i) -> CallSiteStats& {
      const std::string& name = routines[i];
      return sites.Of(StartsWith(name, "MPI_") ? name.substr(4) : name, "Caliper region " + name);
    };
    for (std::size_t i = 0; i < times->routine.size(); ++i) {
      if (times->routine[i].empty()) continue;  // a routine of another metric's records
      CallSiteStats& site = site_of(i);
      for (std::size_t r = 0; r < procs; ++r)
        site.time_s_per_rank[r] = times->At(times->routine[i], static_cast<long long>(r)) * seconds;
    }
    // Calls per rank from the region counts, when every MPI region's record has one.
    const bool with_calls = times->calls_complete && !times->calls.empty();
    if (with_calls) {
      run.p2p_calls_per_rank.assign(procs, 0.0);
      run.collective_calls_per_rank.assign(procs, 0.0);
      double calls = 0;
      for (std::size_t i = 0; i < times->calls.size(); ++i) {
        if (times->calls[i].empty()) continue;
        CallSiteStats& site = site_of(i);
        for (std::size_t r = 0; r < procs; ++r) {
          const double count = times->At(times->calls[i], static_cast<long long>(r));
          site.calls_per_rank[r] = count;
          calls += count;
          if (IsPointToPointSend(site.mpi_function)) run.p2p_calls_per_rank[r] += count;
          if (CountsAsCollective(site.activity)) run.collective_calls_per_rank[r] += count;
        }
      }
      run.mpi_calls_per_rank = calls / static_cast<double>(procs);
      run.derivations["p2p_calls_per_rank"] =
          "Caliper: sum#rc.count of the MPI send regions (Send, Isend, Sendrecv, ...)";
      run.derivations["collective_calls_per_rank"] = "Caliper: sum#rc.count of the MPI collective and Barrier regions";
      run.derivations["mpi_calls_per_rank"] = "Caliper: sum#rc.count of the mpi.function regions, over the procs";
    }
    sites.SumTotals();
    if (!with_calls)
      for (CallSiteStats& site : run.call_sites) {  // a time profile without region counts
        site.calls_per_rank.clear();
        site.total_calls = kUnknown;
      }
    const bool inclusive = metric == kRankInclusive;
    const std::string how =
        inclusive ? " of the top-level regions and of the time outside any region" : " of every region, summed";
    run.derivations["app_time_s_per_rank"] = "Caliper: " + metric_name + how + ", per mpi.rank" + unit_note;
    run.derivations["mpi_time_s_per_rank"] = "Caliper: " + metric_name +
                                             (inclusive ? " of the outermost mpi.function regions"
                                                        : " of the mpi.function regions and what runs under them") +
                                             ", per mpi.rank";
    if (!run.call_sites.empty())
      run.derivations["call_sites"] = "Caliper: one per MPI routine (mpi.function), over its call paths";
  }
  ApplyIdentity(globals, path, &run);
  run.Derive();
  return run;
}

}  // namespace qnm::caliper
