#include "record/run_stats.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <tuple>

#include "util/enum_names.h"
#include "util/spare_capacity.h"
#include "util/statistics.h"

namespace qnm {
namespace {

double Mean(const std::vector<double>& values) {
  if (values.empty()) return kUnknown;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double Max(const std::vector<double>& values) {
  if (values.empty()) return kUnknown;
  return *std::max_element(values.begin(), values.end());
}

bool StartsWith(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}

}  // namespace

constexpr EnumName<MpiActivity> kActivityNames[] = {
    {MpiActivity::kPointToPoint, "p2p"}, {MpiActivity::kCollective, "collective"},
    {MpiActivity::kSynchronization, "synchronization"}, {MpiActivity::kRma, "rma"},
    {MpiActivity::kIo, "io"}, {MpiActivity::kOther, "other"}};

const char* ToString(MpiActivity activity) { return NameOf(kActivityNames, activity, "other"); }

bool IsPointToPointSend(const std::string& mpi_function) {
  static const char* const kSends[] = {"Send", "Isend", "Ssend", "Issend", "Bsend", "Ibsend",
                                       "Rsend", "Irsend", "Sendrecv", "Sendrecv_replace"};
  for (const char* send : kSends)
    if (mpi_function == send) return true;
  return false;
}

MpiActivity ClassifyMpiCall(const std::string& mpi_function) {
  std::string name = StartsWith(mpi_function, "MPI_") ? mpi_function.substr(4) : mpi_function;
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  auto starts = [&](const char* prefix) { return StartsWith(lower, prefix); };
  if (lower == "barrier" || lower == "ibarrier") return MpiActivity::kSynchronization;
  if (starts("win_") || lower == "put" || lower == "get" || lower == "rput" || lower == "rget" ||
      starts("accumulate") || starts("get_accumulate") || starts("raccumulate") ||
      starts("rget_accumulate") || lower == "fetch_and_op" || lower == "compare_and_swap")
    return MpiActivity::kRma;
  if (starts("file_")) return MpiActivity::kIo;
  static const char* const kP2p[] = {"send", "isend", "ssend", "issend", "bsend", "ibsend",
                                     "rsend", "irsend", "recv", "irecv", "sendrecv",
                                     "sendrecv_replace", "probe", "iprobe", "mprobe", "improbe",
                                     "mrecv", "imrecv", "wait", "waitall", "waitany",
                                     "waitsome", "test", "testall", "testany", "testsome",
                                     "start", "startall", "send_init", "recv_init",
                                     "ssend_init", "bsend_init", "rsend_init", "cancel",
                                     "request_free"};
  for (const char* p2p : kP2p)
    if (lower == p2p) return MpiActivity::kPointToPoint;
  static const char* const kCollective[] = {
      "bcast", "reduce", "allreduce", "scan", "exscan", "alltoall", "alltoallv", "alltoallw",
      "allgather", "allgatherv", "gather", "gatherv", "scatter", "scatterv", "reduce_scatter",
      "reduce_scatter_block", "reduce_local"};
  // Non-blocking collectives carry an "i" prefix (MPI-3); neighbourhood collectives a prefix.
  std::string blocking = lower.size() > 1 && lower[0] == 'i' ? lower.substr(1) : lower;
  if (starts("neighbor_") || starts("ineighbor_")) return MpiActivity::kCollective;
  for (const char* collective : kCollective)
    if (lower == collective || blocking == collective) return MpiActivity::kCollective;
  return MpiActivity::kOther;
}

void ShareIdentityTexts(RunStats* run, SharedTextPool* pool) {
  for (SharedText* text : {&run->series, &run->app, &run->problem_class, &run->problem_size, &run->machine,
                           &run->allocation, &run->data_set, &run->variant, &run->verification,
                           &run->npb_version, &run->tool_version})
    text->ShareWith(pool);
}

double RunStats::TotalTimeSeconds() const {
  if (Known(wall_time_s)) return wall_time_s;
  if (Known(app_time_max_s)) return app_time_max_s;
  return Max(app_time_s_per_rank);
}

void RunStats::Derive() {
  auto fill = [this](double& field, const char* name, double value, const char* how) {
    if (Known(field) || !Known(value)) return;
    field = value;
    derivations.emplace(name, how);
  };
  fill(app_time_mean_s, "app_time_mean_s", Mean(app_time_s_per_rank), "mean of app time per rank");
  fill(app_time_max_s, "app_time_max_s", Max(app_time_s_per_rank), "max of app time per rank");
  fill(mpi_time_mean_s, "mpi_time_mean_s", Mean(mpi_time_s_per_rank), "mean of MPI time per rank");
  fill(mpi_time_max_s, "mpi_time_max_s", Max(mpi_time_s_per_rank), "max of MPI time per rank");
  if (Known(app_time_mean_s) && Known(mpi_time_mean_s))
    fill(compute_time_mean_s, "compute_time_mean_s", std::max(0.0, app_time_mean_s - mpi_time_mean_s),
         "mean app time - mean MPI time (non-overlapped computation)");
  else if (Known(wall_time_s) && Known(mpi_time_mean_s))
    fill(compute_time_mean_s, "compute_time_mean_s", std::max(0.0, wall_time_s - mpi_time_mean_s),
         "wall time - mean MPI time (no per-rank app time)");

  if (!p2p_calls_per_rank.empty() || !collective_calls_per_rank.empty()) {
    double messages = (p2p_calls_per_rank.empty() ? 0.0 : Mean(p2p_calls_per_rank)) +
                      (collective_calls_per_rank.empty() ? 0.0 : Mean(collective_calls_per_rank));
    fill(messages_per_rank, "messages_per_rank", messages,
         "mean over ranks of point-to-point sends + collective calls");
  }
  if (!p2p_bytes_sent_per_rank.empty() || !collective_bytes_sent_per_rank.empty()) {
    double bytes = (p2p_bytes_sent_per_rank.empty() ? 0.0 : Mean(p2p_bytes_sent_per_rank)) +
                   (collective_bytes_sent_per_rank.empty() ? 0.0 : Mean(collective_bytes_sent_per_rank));
    fill(bytes_sent_per_rank, "bytes_sent_per_rank", bytes,
         "mean over ranks of bytes sent by point-to-point and collective calls");
  }
  if (Known(messages_per_rank) && messages_per_rank > 0 && Known(bytes_sent_per_rank))
    fill(bytes_per_message, "bytes_per_message", bytes_sent_per_rank / messages_per_rank,
         "bytes_sent_per_rank / messages_per_rank");
}

void RunStats::SetNodes(int count, const std::string& how) {
  if (count <= 0) return;
  nodes = count;
  derivations["nodes"] = how;
  if (procs > 0 && procs % count == 0) {
    ranks_per_node = procs / count;
    derivations["ranks_per_node"] = "procs / nodes (" + how + ")";
  }
}

void RunStats::SetRanksPerNode(int count, const std::string& how) {
  if (count <= 0) return;
  ranks_per_node = count;
  derivations["ranks_per_node"] = how;
  nodes = (std::max(1, procs) + count - 1) / count;
  derivations["nodes"] = "ceil(procs / ranks per node) (" + how + ")";
}

bool RunStats::SetProcsFromLayout(const std::string& how) {
  if (procs > 0 || nodes <= 0 || ranks_per_node <= 0 || static_cast<long long>(nodes) * ranks_per_node > (1 << 30))
    return false;
  procs = nodes * ranks_per_node;
  derivations["procs"] = how;
  return true;
}

std::string SeriesKey::ToString() const {
  std::string in_group = group.empty() ? "" : " in " + group;
  if (!series.empty()) return series + in_group;  // an explicit name (statistics tables) says it all
  std::string out = app.empty() ? "run" : app;
  if (!problem_class.empty()) out += "." + problem_class;
  if (threads_per_proc > 1) out += " th=" + std::to_string(threads_per_proc);
  if (!machine.empty()) out += " @" + machine;
  if (!variant.empty()) out += " (" + variant + ")";
  return out + in_group;
}

std::string SeriesKey::ToStringWithThreads() const {
  if (series.empty()) return ToString();  // it names threads above one already
  return series + " th=" + std::to_string(threads_per_proc) + (group.empty() ? "" : " in " + group);
}

bool SeriesKey::operator<(const SeriesKey& other) const {
  return std::tie(group, series, app, problem_class, machine, variant, threads_per_proc) <
         std::tie(other.group, other.series, other.app, other.problem_class, other.machine,
                  other.variant, other.threads_per_proc);
}

bool SeriesKey::operator==(const SeriesKey& other) const {
  return !(*this < other) && !(other < *this);
}

SeriesKey KeyOf(const RunStats& run) {
  SeriesKey key;
  key.series = run.series;
  if (run.series.empty()) {  // an explicit series name alone (with threads) keys the series
    key.app = run.app;
    key.problem_class = run.problem_class;
    key.machine = run.machine;
    key.variant = run.variant;
  }
  key.threads_per_proc = run.threads_per_proc;
  return key;
}

std::vector<Series> GroupIntoSeries(std::vector<RunStats> runs,
                                    const std::function<SeriesKey(const RunStats&)>& key_of) {
  std::map<SeriesKey, std::map<int, std::vector<RunStats>>> grouped;
  // Each group's vector is sized before records move in: 10^6 repetitions at
  // one process count would otherwise hold up to 3x their memory while growing.
  std::vector<std::vector<RunStats>*> groups;
  std::vector<std::size_t> sizes, group_of(runs.size());
  {
    // One entry per group, not per run; freed before the runs move (a group of one run costs 64 bytes here).
    std::map<const std::vector<RunStats>*, std::size_t> index_of;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      std::vector<RunStats>* group = &grouped[key_of ? key_of(runs[r]) : KeyOf(runs[r])][runs[r].procs];
      auto [at, added] = index_of.try_emplace(group, groups.size());
      if (added) {
        groups.push_back(group);
        sizes.push_back(0);
      }
      group_of[r] = at->second;
      ++sizes[at->second];
    }
  }
  // The runs move out from the back, and the input's pages behind the last
  // remaining run go back to the system as it shrinks, so the records are
  // held about once, not twice, whatever the groups (a million table rows of
  // many series: 1.4 GB at the peak before; 10^6 repetitions at two process
  // counts 1.7 GB). Each group is filled back to front, then reversed: input
  // order kept; it is sized when its first run arrives (sizing every group
  // first touched their memory while the input was still whole).
  constexpr std::size_t kReleaseEvery = 4096;  // records, ~3 MB
  for (std::size_t r = runs.size(); r-- > 0;) {
    std::vector<RunStats>* group = groups[group_of[r]];
    if (group->capacity() == 0) group->reserve(sizes[group_of[r]]);
    group->push_back(std::move(runs[r]));
    runs.pop_back();
    if (r % kReleaseEvery == 0) ReleaseSpareCapacity(&runs);
  }
  for (std::vector<RunStats>* group : groups) std::reverse(group->begin(), group->end());
  std::vector<RunStats>().swap(runs);
  std::vector<Series> series;
  series.reserve(grouped.size());
  for (auto& [key, by_procs] : grouped) {
    Series one;
    one.key = key;
    one.name = key.ToString();
    one.groups.reserve(by_procs.size());
    for (auto& [procs, group_runs] : by_procs) {
      RunGroup group;
      group.procs = procs;
      std::vector<double> times;
      for (const RunStats& run : group_runs) times.push_back(run.TotalTimeSeconds());
      group.median_time_s = MedianOfKnown(times);
      std::vector<double> known;
      for (double t : times)
        if (Known(t)) known.push_back(t);
      if (!known.empty()) {
        group.min_time_s = *std::min_element(known.begin(), known.end());
        group.max_time_s = *std::max_element(known.begin(), known.end());
      }
      group.runs = std::move(group_runs);
      one.groups.push_back(std::move(group));
    }
    by_procs.clear();  // its nodes are freed as the series are built, not at the end
    series.push_back(std::move(one));
  }
  // A table's series name leaves out the threads (the name says it all, as a rule), but one name
  // may hold runs at several thread counts (a table sweeping OpenMP threads as well as ranks): there
  // each series' name says its threads, so no two series print alike.
  std::map<std::string, int> named;
  for (const Series& one : series) ++named[one.name];
  for (Series& one : series)
    if (named[one.name] > 1 && !one.key.series.empty()) one.name = one.key.ToStringWithThreads();
  return series;
}

}  // namespace qnm
