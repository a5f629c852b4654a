#include "paraver/paraver_record_sums.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// Extrae's MPI event types (extrae, include/mpi_eventencoding.h): a call's
// routine is the value at its start, 0 its end.
constexpr std::int64_t kMpiPointToPoint = 50000001;
constexpr std::int64_t kMpiCollective = 50000002;
constexpr std::int64_t kMpiOther = 50000003;
constexpr std::int64_t kMpiRma = 50000004;
constexpr std::int64_t kMpiIo = 50000005;
constexpr std::int64_t kMpiGlobalOpSendSize = 50100001;  // bytes a collective sends, at its start
// Extrae's hardware counters: 42000000 + the PAPI preset's index (PAPI_TOT_INS 0x80000032,
// PAPI_TOT_CYC 0x8000003b); a reading is the thread's count since its previous reading.
constexpr std::int64_t kPapiTotalInstructions = 42000050;
constexpr std::int64_t kPapiTotalCycles = 42000059;
// Paraver's states (every Extrae .pcf: STATES).
constexpr int kStateRunning = 1;
constexpr int kStateTracingDisabled = 14;

bool IsMpiType(std::int64_t type) { return type >= kMpiPointToPoint && type <= kMpiIo; }

MpiActivity ActivityOfType(std::int64_t type) {
  switch (type) {
    case kMpiPointToPoint: return MpiActivity::kPointToPoint;
    case kMpiCollective: return MpiActivity::kCollective;
    case kMpiRma: return MpiActivity::kRma;
    case kMpiIo: return MpiActivity::kIo;
    case kMpiOther:  // communicators, groups, topologies, datatypes, Init and Finalize
    default: return MpiActivity::kOther;
  }
}

// The fields of one record line, split at ':' and parsed as integers.
class RecordFields {
 public:
  RecordFields(std::string_view line, const std::string& path, int line_number)
      : rest_(line), path_(path), line_(line_number) {}

  bool AtEnd() const { return rest_.empty(); }
  /// The next field as an integer; `what` (after `whose`, when given) names it in the error.
  template <typename Int>
  Int Next(const char* what, const char* whose = nullptr) {
    const std::size_t colon = rest_.find(':');
    const std::string_view field = rest_.substr(0, colon);
    rest_ = colon == std::string_view::npos ? std::string_view{} : rest_.substr(colon + 1);
    Int value{};
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (field.empty() || error != std::errc() || end != field.data() + field.size())
      throw InputError(path_, line_, std::string("Paraver record: ") + (whose ? std::string(whose) + " " : "") + what +
                                         " must be an integer" +
                                         (std::is_signed_v<Int> ? "" : " >= 0") + ", got '" +
                                         std::string(field.substr(0, 30)) + "'");
    return value;
  }

 private:
  std::string_view rest_;
  const std::string& path_;
  int line_;
};

struct OpenCall {
  std::int64_t type = 0;  // 0: no call open
  std::size_t site = 0;   // its routine's index in ParaverRecordSums::Impl::sites_
  std::uint64_t begin = 0;
  int line = 0;
};

struct SiteSums {
  std::int64_t type = 0, value = 0;
  std::vector<double> ticks, calls;  // per task
};

}  // namespace

// The records of one trace summed per task and thread as they are read.
class ParaverRecordSums::Impl {
 public:
  Impl(const ParaverHeader& header, const std::string& path) : header_(header), path_(path) {
    const std::vector<ParaverTask>& tasks = header.applications.front();
    first_thread_.reserve(tasks.size() + 1);
    first_thread_.push_back(0);
    for (const ParaverTask& task : tasks) first_thread_.push_back(first_thread_.back() + task.threads);
    const std::size_t threads = first_thread_.back();
    state_ticks_.assign(threads, 0);
    running_ticks_.assign(threads, 0);
    disabled_ticks_.assign(threads, 0);
    open_.assign(threads, OpenCall{});
    useful_instructions_.assign(threads, UsefulCounter{});
    useful_cycles_.assign(threads, UsefulCounter{});
    mpi_ticks_.assign(tasks.size(), 0);
    p2p_messages_.assign(tasks.size(), 0);
    p2p_bytes_.assign(tasks.size(), 0);
    collective_bytes_.assign(tasks.size(), 0);
  }

  void Read(LineReader& lines);
  RunStats ToRun(const ParaverNames& names) const;

 private:
  // The global thread of (appl, task, thread) as the record names them (1-based).
  std::size_t Thread(std::uint64_t appl, std::uint64_t task, std::uint64_t thread, int line) const {
    const std::vector<ParaverTask>& tasks = header_.applications.front();
    if (appl != 1)
      throw InputError(path_, line, "Paraver record: application " + std::to_string(appl) + ", but the header has 1");
    if (task < 1 || task > tasks.size())
      throw InputError(path_, line, "Paraver record: task " + std::to_string(task) + ", but the header has " +
                                        std::to_string(tasks.size()));
    if (thread < 1 || thread > static_cast<std::uint64_t>(tasks[task - 1].threads))
      throw InputError(path_, line, "Paraver record: thread " + std::to_string(thread) + " of task " +
                                        std::to_string(task) + ", which has " +
                                        std::to_string(tasks[task - 1].threads));
    return first_thread_[task - 1] + (thread - 1);
  }
  // The object a record names, "cpu:appl:task:thread" ("a state's", "a sender's", ...): its global thread.
  std::size_t Object(RecordFields& fields, const char* whose, int line) const {
    fields.Next<std::uint64_t>("CPU", whose);
    const auto appl = fields.Next<std::uint64_t>("application", whose);
    const auto task = fields.Next<std::uint64_t>("task", whose);
    const auto thread = fields.Next<std::uint64_t>("thread", whose);
    return Thread(appl, task, thread, line);
  }
  void CheckTime(std::uint64_t time, int line) {
    latest_ = std::max(latest_, time);
    if (time > header_.end_time)
      throw InputError(path_, line, "Paraver record: time " + std::to_string(time) +
                                        " is past the trace's end time " + std::to_string(header_.end_time));
  }
  std::size_t TaskOf(std::size_t thread) const {
    return static_cast<std::size_t>(std::upper_bound(first_thread_.begin(), first_thread_.end(), thread) -
                                    first_thread_.begin() - 1);
  }
  // The index of the routine (type, value) in sites_, added at its first call.
  std::size_t Site(std::int64_t type, std::int64_t value) {
    auto [it, inserted] = site_index_.try_emplace({type, value}, sites_.size());
    if (inserted) {
      SiteSums& site = sites_.emplace_back();
      site.type = type;
      site.value = value;
      site.ticks.assign(mpi_ticks_.size(), 0);
      site.calls.assign(mpi_ticks_.size(), 0);
    }
    return it->second;
  }
  void Close(std::size_t thread, std::uint64_t end, int line) {
    OpenCall& call = open_[thread];
    if (end < call.begin)
      throw InputError(path_, line, "Paraver event record: an MPI call ends at " + std::to_string(end) +
                                        ", before it began at " + std::to_string(call.begin) + " (line " +
                                        std::to_string(call.line) + "): records out of time order");
    const double ticks = static_cast<double>(end - call.begin);
    const std::size_t task = TaskOf(thread);
    sites_[call.site].ticks[task] += ticks;
    mpi_ticks_[task] += ticks;
    call = OpenCall{};
  }
  void State(RecordFields& fields, int line);
  void Events(RecordFields& fields, int line);
  void Message(RecordFields& fields, int line);

  // A counter's useful count as POP's configurations ask paramedir for it (pypop's
  // useful_instructions.cfg and useful_cycles.cfg: the product of "Useful" (state Running) and
  // "Next Evt Val" of the counter, summed over bursts): every Running burst [b, e) is cut at the
  // counter's readings inside it, and each piece counts the reading that follows it, so a burst
  // counts its readings in (b, e) and the first reading at or after e; a burst that ends with no
  // reading of its own is owed the next one. Per thread: the latest Running burst and how many
  // earlier ones are still owed.
  struct UsefulCounter {
    std::uint64_t begin = 0, end = 0;  // the latest Running burst
    bool open = false;                 // it has not yet counted a reading at or after its end
    long long owed = 0;                // earlier Running bursts that did not either
    double sum = 0;
    bool read = false;                 // the thread read the counter at all
    void Burst(std::uint64_t b, std::uint64_t e) {
      if (open) ++owed;
      begin = b;
      end = e;
      open = true;
    }
    void Reading(std::uint64_t t, double value) {
      read = true;
      sum += value * static_cast<double>(owed);
      owed = 0;
      if (!open || t <= begin) return;
      sum += value;
      if (t >= end) open = false;
    }
  };

  const ParaverHeader& header_;
  const std::string& path_;
  std::vector<std::size_t> first_thread_;  // per task, its first global thread; then the thread count
  std::vector<UsefulCounter> useful_instructions_, useful_cycles_;   // per thread
  std::vector<double> state_ticks_, running_ticks_, disabled_ticks_;  // per thread
  std::vector<OpenCall> open_;                                         // per thread
  std::vector<double> mpi_ticks_, p2p_messages_, p2p_bytes_, collective_bytes_;  // per task
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> site_index_;
  std::vector<SiteSums> sites_;
  std::uint64_t latest_ = 0;  // the latest time of any record
  long long records_ = 0, ends_without_start_ = 0, open_at_end_ = 0, global_comms_ = 0;
};

void ParaverRecordSums::Impl::State(RecordFields& fields, int line) {
  const std::size_t t = Object(fields, "a state's", line);
  const auto begin = fields.Next<std::uint64_t>("a state's begin time");
  const auto end = fields.Next<std::int64_t>("a state's end time");
  const auto state = fields.Next<std::int64_t>("a state");
  if (!fields.AtEnd()) throw InputError(path_, line, "Paraver state record: more than 8 fields");
  // paraver-kernel reads an end of -1 as a state without an end: up to the trace's end.
  const std::uint64_t until = end == -1 ? header_.end_time : static_cast<std::uint64_t>(end);
  if (end < -1 || until < begin)
    throw InputError(path_, line, "Paraver state record: ends (" + std::to_string(end) + ") before it begins (" +
                                      std::to_string(begin) + ")");
  CheckTime(until, line);
  if (state == kStateRunning) {
    useful_instructions_[t].Burst(begin, until);
    useful_cycles_[t].Burst(begin, until);
  }
  const double ticks = static_cast<double>(until - begin);
  state_ticks_[t] += ticks;
  // A thread is in one state at a time: its states cannot add up to more than the trace.
  if (state_ticks_[t] > static_cast<double>(header_.end_time))
    throw InputError(path_, line, "Paraver state record: the states of task " + std::to_string(TaskOf(t) + 1) +
                                      ", thread " + std::to_string(t - first_thread_[TaskOf(t)] + 1) +
                                      " add up to more than the trace's end time (overlapping states: a record repeated?)");
  if (state == kStateRunning) running_ticks_[t] += ticks;
  if (state == kStateTracingDisabled) disabled_ticks_[t] += ticks;
}

void ParaverRecordSums::Impl::Events(RecordFields& fields, int line) {
  const std::size_t t = Object(fields, "an event's", line);
  const auto time = fields.Next<std::uint64_t>("an event's time");
  CheckTime(time, line);
  if (fields.AtEnd()) throw InputError(path_, line, "Paraver event record: no type:value pair");
  while (!fields.AtEnd()) {
    const auto type = fields.Next<std::int64_t>("an event type");
    if (fields.AtEnd()) throw InputError(path_, line, "Paraver event record: type " + std::to_string(type) + " has no value");
    const auto value = fields.Next<std::int64_t>("an event's value");  // paraver-kernel: int64_t
    if (type == kPapiTotalInstructions || type == kPapiTotalCycles) {
      if (value < 0)
        throw InputError(path_, line, "Paraver event record: hardware counter " + std::to_string(type) + " reads " +
                                          std::to_string(value) + ", a negative count");
      (type == kPapiTotalInstructions ? useful_instructions_ : useful_cycles_)[t].Reading(time, static_cast<double>(value));
      continue;
    }
    if (type == kMpiGlobalOpSendSize) {
      if (value < 0) throw InputError(path_, line, "Paraver event record: a collective sends " + std::to_string(value) + " bytes");
      collective_bytes_[TaskOf(t)] += static_cast<double>(value);
      continue;
    }
    if (!IsMpiType(type)) continue;
    OpenCall& open = open_[t];
    if (value == 0) {  // the end of a call
      if (open.type == 0) {
        ++ends_without_start_;  // a trace cut after a call began
        continue;
      }
      if (open.type != type)
        throw InputError(path_, line, "Paraver event record: ends an MPI call of type " + std::to_string(type) +
                                          " while the call of type " + std::to_string(open.type) + " begun on line " +
                                          std::to_string(open.line) + " is open");
      Close(t, time, line);
      continue;
    }
    if (open.type != 0)
      throw InputError(path_, line, "Paraver event record: an MPI call (type " + std::to_string(type) + ", value " +
                                        std::to_string(value) + ") begins while the one begun on line " +
                                        std::to_string(open.line) + " is open");
    open = OpenCall{type, Site(type, value), time, line};
    sites_[open.site].calls[TaskOf(t)] += 1;
  }
}

void ParaverRecordSums::Impl::Message(RecordFields& fields, int line) {
  const std::size_t sender = Object(fields, "a sender's", line);
  CheckTime(fields.Next<std::uint64_t>("a logical send time"), line);
  CheckTime(fields.Next<std::uint64_t>("a physical send time"), line);
  Object(fields, "a receiver's", line);
  CheckTime(fields.Next<std::uint64_t>("a logical receive time"), line);
  CheckTime(fields.Next<std::uint64_t>("a physical receive time"), line);
  const auto size = fields.Next<std::int64_t>("a message's size");
  fields.Next<std::int64_t>("a message's tag");
  if (!fields.AtEnd()) throw InputError(path_, line, "Paraver communication record: more than 15 fields");
  if (size < 0) throw InputError(path_, line, "Paraver communication record: a message of " + std::to_string(size) + " bytes");
  const std::size_t from = TaskOf(sender);
  p2p_messages_[from] += 1;
  p2p_bytes_[from] += static_cast<double>(size);
}

void ParaverRecordSums::Impl::Read(LineReader& lines) {
  int line_number = lines.ErrorLine();
  std::string_view line;
  while (lines.Next(&line)) {
    line_number = lines.ErrorLine();
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;  // comments: Paraver's trace metadata
    if (line.size() < 2 || line[1] != ':')
      throw InputError(path_, line_number, "Paraver record: '" + std::string(line.substr(0, 30)) +
                                               "' is no record (1:state, 2:event, 3:communication)");
    RecordFields fields(line.substr(2), path_, line_number);
    switch (line.front()) {
      case '1': State(fields, line_number); break;
      case '2': Events(fields, line_number); break;
      case '3': Message(fields, line_number); break;
      case '4': ++global_comms_; break;  // global communications: paraver-kernel skips them too
      default:
        throw InputError(path_, line_number, "Paraver record: unknown record type '" + std::string(1, line.front()) + "'");
    }
    ++records_;
  }
  // Extrae's merger writes the latest record time as the header's end time; records that stop well
  // before it are a trace cut short (1%: a writer may round the end time up).
  if (records_ > 0 && static_cast<double>(latest_) < 0.99 * static_cast<double>(header_.end_time))
    throw InputError(path_, line_number, "Paraver trace: the records stop at " + std::to_string(latest_) + " (" +
                                             FormatDouble("%.1f", 100.0 * static_cast<double>(latest_) /
                                                                      static_cast<double>(header_.end_time)) +
                                             "% of the header's end time " + std::to_string(header_.end_time) +
                                             "): a truncated trace");
  for (std::size_t t = 0; t < open_.size(); ++t)
    if (open_[t].type != 0) {
      ++open_at_end_;
      Close(t, header_.end_time, line_number);
    }
}

namespace {

// "MPI_Allreduce" -> "Allreduce"; a routine the .pcf does not name: "call <value> of type <type>".
std::string RoutineName(const ParaverNames& names, std::int64_t type, std::int64_t value) {
  const std::string name = names.ValueName(type, value);
  if (name.empty()) return "call " + std::to_string(value) + " of type " + std::to_string(type);
  return StartsWith(name, "MPI_") ? name.substr(4) : name;
}

std::string Number(double value) { return FormatDouble("%.12g", value); }

}  // namespace

RunStats ParaverRecordSums::Impl::ToRun(const ParaverNames& names) const {
  const std::vector<ParaverTask>& tasks = header_.applications.front();
  const std::size_t ranks = tasks.size();
  const double unit_s = header_.unit_s;
  const double end_ticks = static_cast<double>(header_.end_time);
  RunStats run;
  run.procs = static_cast<int>(ranks);
  run.threads_per_proc = std::max_element(tasks.begin(), tasks.end(), [](auto& a, auto& b) {
                           return a.threads < b.threads;
                         })->threads;
  run.wall_time_s = header_.EndTimeSeconds();
  run.derivations["wall_time_s"] = "Paraver header: the trace's end time";
  if (run.threads_per_proc > 1)
    run.derivations["threads_per_proc"] = "Paraver header: the most threads of a task";

  // Nodes and hosts: the header's node of each task, named by the .row file.
  std::vector<int> nodes_used;
  for (const ParaverTask& task : tasks)
    if (task.node > 0) nodes_used.push_back(task.node);
  std::sort(nodes_used.begin(), nodes_used.end());
  nodes_used.erase(std::unique(nodes_used.begin(), nodes_used.end()), nodes_used.end());
  if (!nodes_used.empty()) {
    run.SetNodes(static_cast<int>(nodes_used.size()), "Paraver header: the nodes of the tasks");
    // Nodes filled with the same number of tasks but for one (a block placement whose last node is
    // partly used: 1,024 ranks on 22 nodes of 48) give the ranks per node the count does not divide.
    std::map<int, int> tasks_on;
    for (const ParaverTask& task : tasks) ++tasks_on[task.node];
    int most = 0, fewer = 0;
    for (const auto& [node, count] : tasks_on) most = std::max(most, count);
    for (const auto& [node, count] : tasks_on) fewer += count < most ? 1 : 0;
    if (run.ranks_per_node == 0 && fewer <= 1 &&
        (run.procs + most - 1) / most == static_cast<int>(nodes_used.size()))
      run.SetRanksPerNode(most, "Paraver header: " + std::to_string(most) + " tasks on every node but one");
    for (int node : nodes_used)
      if (static_cast<std::size_t>(node) <= names.node_names.size() && !names.node_names[node - 1].empty())
        run.hosts.push_back(names.node_names[node - 1]);
  }

  run.app_time_s_per_rank.assign(ranks, 0.0);
  run.mpi_time_s_per_rank.assign(ranks, 0.0);
  run.p2p_calls_per_rank = p2p_messages_;
  run.p2p_bytes_sent_per_rank = p2p_bytes_;
  run.collective_calls_per_rank.assign(ranks, 0.0);
  run.collective_bytes_sent_per_rank = collective_bytes_;
  int capped = 0;  // ranks whose threads were inside MPI at once for longer than the rank ran
  for (std::size_t r = 0; r < ranks; ++r) {
    const double app_ticks = end_ticks - disabled_ticks_[first_thread_[r]];
    run.app_time_s_per_rank[r] = app_ticks * unit_s;
    run.mpi_time_s_per_rank[r] = std::min(mpi_ticks_[r], app_ticks) * unit_s;
    capped += mpi_ticks_[r] > app_ticks ? 1 : 0;
  }
  std::vector<std::size_t> order(sites_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_pair(sites_[a].type, sites_[a].value) < std::make_pair(sites_[b].type, sites_[b].value);
  });
  double calls_in_all = 0;
  for (std::size_t s : order) {
    const SiteSums& sums = sites_[s];
    CallSiteStats site;
    site.id = static_cast<int>(run.call_sites.size()) + 1;
    site.mpi_function = RoutineName(names, sums.type, sums.value);
    site.source_location = "Paraver event " + std::to_string(sums.type) + ":" + std::to_string(sums.value);
    site.activity = names.ValueName(sums.type, sums.value).empty() ? ActivityOfType(sums.type)
                                                                    : ClassifyMpiCall(site.mpi_function);
    site.time_s_per_rank.resize(ranks);
    site.calls_per_rank = sums.calls;
    for (std::size_t r = 0; r < ranks; ++r) site.time_s_per_rank[r] = sums.ticks[r] * unit_s;
    site.total_time_s = std::accumulate(site.time_s_per_rank.begin(), site.time_s_per_rank.end(), 0.0);
    site.total_calls = std::accumulate(sums.calls.begin(), sums.calls.end(), 0.0);
    calls_in_all += site.total_calls;
    if (sums.type == kMpiCollective)
      for (std::size_t r = 0; r < ranks; ++r) run.collective_calls_per_rank[r] += sums.calls[r];
    run.call_sites.push_back(std::move(site));
  }
  run.mpi_calls_per_rank = calls_in_all / static_cast<double>(ranks);

  // POP's efficiencies (Wagner et al. 2017, §3; pypop's MPI_Metrics, BSC's modelfactors): useful computation
  // = time in state Running per thread; runtime = the trace's end time less "Tracing disabled".
  double useful_sum = 0, useful_max = 0, runtime = 0;
  for (std::size_t t = 0; t < running_ticks_.size(); ++t) {
    useful_sum += running_ticks_[t];
    useful_max = std::max(useful_max, running_ticks_[t]);
    runtime = std::max(runtime, end_ticks - disabled_ticks_[t]);
  }
  const double useful_mean = useful_sum / static_cast<double>(running_ticks_.size());
  run.details["paraver.date"] = header_.date;
  run.details["trace_records"] = std::to_string(records_);
  run.details["pop_runtime_s"] = Number(runtime * unit_s);
  run.details["pop_useful_mean_s"] = Number(useful_mean * unit_s);
  run.details["pop_useful_max_s"] = Number(useful_max * unit_s);
  run.details["pop_useful_sum_s"] = Number(useful_sum * unit_s);
  // A counter's useful count over the threads, when some thread read it.
  auto useful = [&run](const char* key, const std::vector<UsefulCounter>& counters) {
    double sum = 0;
    bool read = false;
    for (const UsefulCounter& counter : counters) {
      sum += counter.sum;
      read = read || counter.read;
    }
    if (read) run.details[key] = Number(sum);
  };
  useful("pop_useful_instructions", useful_instructions_);
  useful("pop_useful_cycles", useful_cycles_);
  if (useful_max > 0 && runtime > 0) {
    run.details["pop_load_balance"] = Number(useful_mean / useful_max);
    run.details["pop_communication_efficiency"] = Number(useful_max / runtime);
    run.details["pop_parallel_efficiency"] = Number(useful_mean / runtime);
  }
  if (ends_without_start_ > 0)
    run.details["paraver.mpi_ends_without_start"] = std::to_string(ends_without_start_);
  if (open_at_end_ > 0) run.details["paraver.mpi_calls_open_at_end"] = std::to_string(open_at_end_);
  if (global_comms_ > 0) run.details["paraver.global_communication_records_skipped"] = std::to_string(global_comms_);

  run.derivations["app_time_s_per_rank"] =
      "Paraver: the trace's end time less the task's first thread's \"Tracing disabled\" time (POP Total Runtime)";
  run.derivations["mpi_time_s_per_rank"] =
      "Paraver: from each MPI call's start event (Extrae types 50000001-50000005) to its end (value 0), every "
      "thread of the task" +
      std::string(open_at_end_ > 0 ? "; " + std::to_string(open_at_end_) + " call(s) open at the end closed there" : "") +
      std::string(capped > 0 ? "; on " + std::to_string(capped) +
                                   " rank(s) the threads' MPI calls overlap for longer than the rank ran: its runtime"
                             : "");
  run.derivations["p2p_calls_per_rank"] = "Paraver: communication records sent by the task";
  run.derivations["p2p_bytes_sent_per_rank"] = "Paraver: sizes of the communication records sent by the task";
  run.derivations["collective_calls_per_rank"] = "Paraver: calls of event type 50000002 (MPI Collective Comm)";
  run.derivations["collective_bytes_sent_per_rank"] = "Paraver: event 50100001 (Send Size in MPI Global OP)";
  run.derivations["call_sites"] = std::string("Paraver: one per MPI routine (event type and value)") +
                                  (names.event_types.empty() ? ", unnamed: no .pcf beside the trace" : ", named by the .pcf");
  return run;
}

ParaverRecordSums::ParaverRecordSums(const ParaverHeader& header, const std::string& path)
    : impl_(std::make_unique<Impl>(header, path)) {}
ParaverRecordSums::~ParaverRecordSums() = default;
void ParaverRecordSums::Read(LineReader& lines) { impl_->Read(lines); }
RunStats ParaverRecordSums::ToRun(const ParaverNames& names) const { return impl_->ToRun(names); }

}  // namespace qnm
