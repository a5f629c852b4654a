#include "trace/streaming_analysis.h"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <exception>
#include <new>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/call_tree_unify.h"
#include "trace/match_while_reading.h"
#include "trace/otf2_allocation.h"
#include "trace/otf2_reader.h"
#include "trace/rank_replay_pass.h"
#include "trace/replay_records.h"
#include "trace/wait_state_patterns.h"
#include "trace/window_gate.h"
#include "util/cpu_clock.h"

namespace qnm::trace {
namespace {

constexpr int kMaxJobs = 4096;
/// Up to this many ranks, the matching while reading keeps an event reader
/// open per rank; beyond, the blocks of ranks are read whole.
constexpr uint32_t kMaxWindowedRanks = 256;

/// Feeds each decoded event of one thread's ranks (or of one rank, read in
/// windows) to that rank's replay pass.
class ReplaySink final : public EventSink {
 public:
  void BeginRank(const Trace& trace, uint32_t rank, const LocationTrace& data) override {
    if (records.outside_ticks.empty()) {
      records.init.assign(trace.ranks.size(), {});
      records.finalize.assign(trace.ranks.size(), {});
      records.outside_ticks.assign(trace.ranks.size(), 0.0);
    }
    has_windows = !trace.windows.empty();
    pass_.emplace(trace, trace.call_paths, rank, data, /*streaming=*/true, &records);
  }
  void ExpectEvents(uint64_t events, uint64_t) override {
    if (windows_) {
      // A window's point-to-point records at a time: those tables grow to
      // that and are reused. The collective records stay to the end: address
      // space for one per 64 events (untouched pages cost nothing).
      try {
        records.collectives.reserve(records.collectives.size() + events / 64);
      } catch (const std::bad_alloc&) {
      }
      return;
    }
    // Address space for the big tables (untouched pages cost nothing), so
    // that no table is copied while it grows: a quarter of the block's
    // records each (one send and one receive per 10 records in a stencil).
    const std::size_t reserve = events / 4;
    try {
      records.sends.reserve(reserve);
      records.recvs.reserve(reserve);
      records.instances.reserve(reserve);
      records.collectives.reserve(events / 64);
    } catch (const std::bad_alloc&) {  // no such address space: the tables grow instead
    }
  }
  void OnEvent(const Event& event, uint32_t index) override { pass_->OnEvent(event, index); }
  void EndRank(uint32_t) override {
    pass_->Finish();
    profiles.push_back(pass_->TakeProfile());
    pass_.reset();
  }

  /// The rank is read in windows (matching while reading).
  void ReadInWindows() { windows_ = true; }
  /// The oldest call instance the pass holds open (kNone: none, or no pass).
  uint32_t OldestOpenInstance() const { return pass_ ? pass_->OldestOpenInstance() : kNone; }

  ReplayRecords records;             // this thread's ranks, in rank order
  std::vector<RankProfile> profiles;  // per rank of the block
  bool has_windows = false;           // the trace defines RMA windows

 private:
  std::optional<RankReplayPass> pass_;
  bool windows_ = false;
};

/// One thread's block of ranks.
struct Part {
  Trace trace;
  RankRange range;
  QuirkCounts quirks;
  ReplaySink sink;
  std::exception_ptr error;
  double cpu_s = 0;  // the reading thread's CPU time
};


uint32_t Shift(uint32_t index, std::size_t offset) {
  return index == kNone ? kNone : static_cast<uint32_t>(index + offset);
}
uint32_t Renumber(uint32_t cnode, const std::vector<uint32_t>& map) {
  return cnode < map.size() ? map[cnode] : cnode;
}

bool IsIdentity(const std::vector<uint32_t>& map) {
  for (uint32_t c = 0; c < map.size(); ++c)
    if (map[c] != c) return false;
  return true;
}

/// Gathers what the cross-rank patterns other than point-to-point need from
/// every block — collective, window and RMA records, Init/Finalize, the
/// profile — into one table set in rank order, with call paths renumbered as
/// a sequential pass numbers them. The RMA records' call instances are copied
/// along (renumbered densely); the blocks' big tables stay where they are.
ReplayRecords SharedRecords(std::vector<Part>& parts, const std::vector<std::vector<uint32_t>>& maps,
                            std::size_t ranks, std::size_t cnodes) {
  ReplayRecords all;
  all.exclusive_ticks.assign(cnodes * ranks, 0.0);
  all.visits.assign(cnodes * ranks, 0);
  all.init.resize(ranks);
  all.finalize.resize(ranks);
  all.outside_ticks.resize(ranks, 0.0);
  all.sent.Resize(cnodes, ranks);
  std::size_t collectives = 0;  // one table of that size, not one grown by copying
  for (const Part& part : parts) collectives += part.sink.records.collectives.size();
  all.collectives.reserve(collectives);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    ReplayRecords& part = parts[p].sink.records;
    const std::vector<uint32_t>& map = maps[p];
    const RankRange range = parts[p].range;
    const std::size_t op_offset = all.rma_ops.size();
    const std::size_t access_offset = all.access_epochs.size(), lock_offset = all.lock_epochs.size();
    std::unordered_map<uint32_t, uint32_t> shared_instance;  // block instance -> all.instances
    auto instance = [&](uint32_t local) -> uint32_t {
      if (local == kNone) return kNone;
      auto [it, added] = shared_instance.try_emplace(local, static_cast<uint32_t>(all.instances.size()));
      if (added) {
        CallInstance copy = part.instances[local];
        copy.cnode = Renumber(copy.cnode, map);
        all.instances.push_back(copy);
      }
      return it->second;
    };
    for (CollectiveCall& c : part.collectives) {
      c.cnode = Renumber(c.cnode, map);
      all.collectives.push_back(c);
    }
    for (WindowCall& w : part.window_calls) {
      w.cnode = Renumber(w.cnode, map);
      all.window_calls.push_back(w);
    }
    for (RmaOpCall& op : part.rma_ops) {
      op.instance = instance(op.instance);
      op.access_epoch = Shift(op.access_epoch, access_offset);
      op.lock_epoch = Shift(op.lock_epoch, lock_offset);
      all.rma_ops.push_back(op);
    }
    for (AccessEpoch& epoch : part.access_epochs) {
      epoch.start = instance(epoch.start);
      epoch.complete = instance(epoch.complete);
      for (uint32_t& op : epoch.ops) op = Shift(op, op_offset);
      all.access_epochs.push_back(std::move(epoch));
    }
    for (ExposureEpoch& epoch : part.exposure_epochs) {
      epoch.post = instance(epoch.post);
      epoch.wait = instance(epoch.wait);
      all.exposure_epochs.push_back(std::move(epoch));
    }
    for (LockEpoch& epoch : part.lock_epochs) {
      epoch.lock_call = instance(epoch.lock_call);
      all.lock_epochs.push_back(epoch);
    }
    part.collectives = {};
    part.window_calls = {};
    part.rma_ops = {};
    part.access_epochs = {};
    part.exposure_epochs = {};
    part.lock_epochs = {};
    for (uint32_t r = range.first; r < range.end; ++r) {
      all.init[r] = part.init[r];
      all.finalize[r] = part.finalize[r];
      if (all.init[r].found) all.init[r].cnode = Renumber(all.init[r].cnode, map);
      if (all.finalize[r].found) all.finalize[r].cnode = Renumber(all.finalize[r].cnode, map);
      all.outside_ticks[r] = part.outside_ticks[r];
    }
    all.bad_peers += part.bad_peers;
    all.incomplete_sends += part.incomplete_sends;
    const std::vector<RankProfile>& profiles = parts[p].sink.profiles;
    for (std::size_t i = 0; i < profiles.size(); ++i)
      PlaceRankProfile(profiles[i], range.first + static_cast<uint32_t>(i), &map, &all);
  }
  return all;
}

/// The parts' call trees unified (§3.1); maps[p]: part p's call paths -> the trace's.
CallPaths UnifyParts(const std::vector<Part>& parts, std::vector<std::vector<uint32_t>>* maps) {
  std::vector<std::vector<CallPathDef>> lists;
  for (const Part& part : parts) lists.push_back(CallPathDefs(part.trace.call_paths));
  return UnifyCallPaths(parts[0].trace.call_paths, lists, maps);
}

/// The definitions and per-rank metadata of every block in one trace.
Trace JoinTraces(std::vector<Part>& parts, CallPaths call_paths) {
  Trace trace = std::move(parts[0].trace);
  trace.call_paths = std::move(call_paths);
  QuirkCounts quirks = std::move(parts[0].quirks);
  for (std::size_t p = 1; p < parts.size(); ++p) {
    Trace& part = parts[p].trace;
    for (uint32_t r = parts[p].range.first; r < parts[p].range.end; ++r) trace.ranks[r] = std::move(part.ranks[r]);
    trace.metric_records += part.metric_records;
    trace.repaired_leaves += part.repaired_leaves;
    // The first ProgramBegin in rank order names the program.
    if (!trace.program_begin && part.program_begin) {
      trace.program_begin = true;
      trace.program_name = part.program_name;
      trace.program_region = part.program_region;
    }
    for (auto& [what, per_rank] : parts[p].quirks)  // blocks ascend, so ranks stay ascending
      quirks[what].insert(quirks[what].end(), per_rank.begin(), per_rank.end());
  }
  AddQuirkWarnings(quirks, &trace.warnings);
  return trace;
}

std::size_t RecordBytes(const ReplayRecords& records) {
  std::size_t bytes = records.instances.size() * sizeof(CallInstance) + records.sends.size() * sizeof(SendRecord) +
                      records.recvs.size() * sizeof(RecvRecord) +
                      records.collectives.size() * sizeof(CollectiveCall) +
                      records.window_calls.size() * sizeof(WindowCall) + records.rma_ops.size() * sizeof(RmaOpCall) +
                      records.lock_epochs.size() * sizeof(LockEpoch) +
                      records.exclusive_ticks.size() * (sizeof(double) + sizeof(uint64_t));
  for (const AccessEpoch& epoch : records.access_epochs)
    bytes += sizeof(AccessEpoch) + (epoch.targets.size() + epoch.ops.size()) * sizeof(uint32_t);
  for (const ExposureEpoch& epoch : records.exposure_epochs)
    bytes += sizeof(ExposureEpoch) + epoch.origins.size() * sizeof(uint32_t);
  return bytes;
}

}  // namespace

bool StreamingAnalysisOptions::IsValid(std::string* error) const {
  if (jobs < 0 || jobs > kMaxJobs) {
    if (error)
      *error = "jobs must be 0 (every core available) to " + std::to_string(kMaxJobs) + ", not " +
               std::to_string(jobs);
    return false;
  }
  return true;
}

int AvailableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? static_cast<int>(cores) : 1;
}

namespace {

/// Each thread reads a block of ranks whole; the point-to-point patterns run
/// on the blocks' records once every rank is read.
StreamingAnalysis AnalyzeInBlocks(const std::string& path, const StreamingAnalysisOptions& options,
                                  uint32_t threads) {
  ZeroedOtf2Allocations zeroed;
  std::vector<Part> parts(threads);
  auto read = [&](uint32_t p) {
    const double start = ThreadCpuSeconds();
    try {
      parts[p].trace = ReadOtf2TraceRanks(path, RankPartition{p, threads}, &parts[p].range, &parts[p].quirks,
                                          &parts[p].sink);
    } catch (...) {
      parts[p].error = std::current_exception();
    }
    parts[p].cpu_s = ThreadCpuSeconds() - start;
  };
  std::vector<std::thread> workers;
  std::vector<uint32_t> inline_parts;  // blocks no thread could be started for: read here
  for (uint32_t p = 1; p < threads; ++p) {
    try {
      workers.emplace_back(read, p);
    } catch (const std::system_error&) {
      inline_parts.push_back(p);
    }
  }
  read(0);
  for (uint32_t p : inline_parts) read(p);
  for (std::thread& worker : workers) worker.join();
  zeroed.End();
  const double serial_start = ThreadCpuSeconds();
  std::vector<double> read_cpu_s;
  for (const Part& part : parts) read_cpu_s.push_back(part.cpu_s);
  for (const Part& part : parts)  // the lowest block's error is the first rank's a sequential read meets
    if (part.error) std::rethrow_exception(part.error);

  // Blocks that own no rank (more threads than ranks) add nothing.
  const std::size_t ranks = parts[0].trace.ranks.size();
  std::vector<Part> owning;
  for (Part& part : parts)
    if (part.range.first < part.range.end || owning.empty()) owning.push_back(std::move(part));
  parts = std::vector<Part>();

  std::vector<std::vector<uint32_t>> maps;
  CallPaths call_paths = UnifyParts(owning, &maps);
  const std::size_t cnodes = call_paths.size();

  StreamingAnalysis out;
  out.threads = static_cast<int>(threads);
  ReplayRecords shared = SharedRecords(owning, maps, ranks, cnodes);
  std::vector<RecordBlock> blocks(owning.size());
  uint32_t instances = 0;
  out.record_bytes = RecordBytes(shared);
  for (std::size_t p = 0; p < owning.size(); ++p) {
    blocks[p].records = &owning[p].sink.records;
    blocks[p].ranks = owning[p].range;
    blocks[p].cnode_map = IsIdentity(maps[p]) ? nullptr : &maps[p];
    blocks[p].instance_offset = instances;
    instances += static_cast<uint32_t>(owning[p].sink.records.instances.size());
    out.record_bytes += RecordBytes(owning[p].sink.records);
  }
  out.trace = JoinTraces(owning, std::move(call_paths));
  ParallelStepTimes times;
  out.result =
      AnalyzeReplayBlocks(out.trace, blocks, shared, static_cast<int>(blocks.size()), options.wait_states, &times);
  out.sent = std::move(shared.sent);
  out.read_cpu_s = std::move(read_cpu_s);
  out.serial_cpu_s = ThreadCpuSeconds() - serial_start - times.caller_cpu_s;
  out.parallel_cpu_s = times.critical_cpu_s;
  return out;
}


/// A thread per block of ranks (at most one per rank), each reading its
/// ranks in windows of `window_events` event records through one
/// Otf2BlockReader (an event reader per rank); after each window, the
/// point-to-point patterns run on what it brought, on the same threads, and
/// the records they are done with are dropped (trace/match_while_reading.h).
/// A thread goes on reading the next window as soon as its ranks' Late
/// Receiver step is done. Returns nothing if a thread could not be started
/// (the caller reads in blocks instead).
std::optional<StreamingAnalysis> AnalyzeInWindows(const std::string& path, const StreamingAnalysisOptions& options,
                                                  uint32_t threads, uint32_t ranks) {
  threads = std::max<uint32_t>(1, std::min(threads, ranks));
  const uint64_t window = std::max<uint64_t>(options.window_events, 1);
  ZeroedOtf2Allocations zeroed;
  std::vector<Part> parts(ranks);
  std::vector<ReplayRecords*> tables;
  for (Part& part : parts) {
    part.sink.ReadInWindows();
    tables.push_back(&part.sink.records);
  }
  std::vector<char> done(ranks, 0);  // written by the rank's thread while it reads only
  std::vector<uint32_t> open_instance(ranks, kNone);
  // Which ranks have RMA windows is known once their first window is read
  // (after_reading); until then no call instance is dropped.
  MatchWhileReading matching(tables, static_cast<int>(threads), options.wait_states, false);
  bool first_step = true;
  std::vector<double> read_s(threads, 0.0), step_s(threads, 0.0);
  std::vector<std::exception_ptr> failure(threads);
  double read_critical_s = 0, p2p_critical_s = 0;
  bool final = false, stop = false;
  WindowBarrier barrier(threads);
  auto slowest = [](std::vector<double>& cpu_s) {
    const double max = *std::max_element(cpu_s.begin(), cpu_s.end());
    std::fill(cpu_s.begin(), cpu_s.end(), 0.0);
    return max;
  };
  // Runs on the last thread to arrive, the others waiting.
  auto after_reading = [&] {
    read_critical_s += slowest(read_s);
    p2p_critical_s += slowest(step_s);  // the previous window's Late Receiver step
    final = std::all_of(done.begin(), done.end(), [](char d) { return d != 0; });
    if (first_step) {
      first_step = false;
      bool keep_instances = false;  // the RMA records name call instances until the end
      for (const Part& part : parts) keep_instances = keep_instances || part.sink.has_windows;
      if (keep_instances) matching.KeepInstances();
    }
    matching.BeginStep();
    stop = std::any_of(failure.begin(), failure.end(), [](const std::exception_ptr& e) { return e != nullptr; });
  };
  auto after_matching = [&] {
    p2p_critical_s += slowest(step_s);
    stop = std::any_of(failure.begin(), failure.end(), [](const std::exception_ptr& e) { return e != nullptr; });
  };
  auto block = [&](uint32_t t) {
    const RankRange range = RankPartition{t, threads}.Of(ranks);
    double clock = ThreadCpuSeconds();
    std::optional<Otf2BlockReader> reader;
    try {
      reader.emplace(path, RankPartition{t, threads});
    } catch (...) {
      for (uint32_t r = range.first; r < range.end; ++r) parts[r].error = std::current_exception(), done[r] = 1;
    }
    for (uint32_t r = range.first; r < range.end && reader; ++r) {
      parts[r].range = RankRange{r, r + 1};
      try {
        reader->Begin(r, &parts[r].trace, &parts[r].quirks, &parts[r].sink);
      } catch (...) {
        parts[r].error = std::current_exception();
        done[r] = 1;
      }
    }
    for (;;) {
      for (uint32_t r = range.first; r < range.end; ++r) {
        if (done[r]) continue;
        try {
          if (!reader->Read(r, window)) done[r] = 1;
        } catch (...) {
          parts[r].error = std::current_exception();
          done[r] = 1;
        }
        open_instance[r] = parts[r].sink.OldestOpenInstance();
      }
      double now = ThreadCpuSeconds();
      read_s[t] = now - clock;
      clock = now;
      try {
        matching.RouteSends(t);
      } catch (...) {
        failure[t] = std::current_exception();
      }
      now = ThreadCpuSeconds();
      step_s[t] += now - clock;  // with the previous window's Late Receiver step
      clock = now;
      barrier.Arrive(after_reading);
      if (stop) return;
      try {
        matching.MatchAndLateSender(t, done, final);
      } catch (...) {
        failure[t] = std::current_exception();
      }
      now = ThreadCpuSeconds();
      step_s[t] = now - clock;
      clock = now;
      barrier.Arrive(after_matching);
      if (stop) return;
      try {
        matching.LateReceiverAndDrop(t, open_instance, done, final);
      } catch (...) {
        failure[t] = std::current_exception();
      }
      now = ThreadCpuSeconds();
      step_s[t] = now - clock;
      clock = now;
      if (final) return;
    }
  };
  // The threads start together once all exist: a block whose thread could
  // not be started would leave the others waiting at the barrier.
  std::mutex start_mutex;
  std::condition_variable start_cv;
  bool started = false, abandon = false;
  auto worker = [&](uint32_t t) {
    {
      std::unique_lock<std::mutex> lock(start_mutex);
      start_cv.wait(lock, [&] { return started; });
      if (abandon) return;
    }
    block(t);
  };
  std::vector<std::thread> workers;
  for (uint32_t t = 1; t < threads && !abandon; ++t) {
    try {
      workers.emplace_back(worker, t);
    } catch (const std::system_error&) {
      abandon = true;
    }
  }
  {
    std::lock_guard<std::mutex> lock(start_mutex);
    started = true;
  }
  start_cv.notify_all();
  if (!abandon) block(0);
  for (std::thread& thread : workers) thread.join();
  zeroed.End();
  if (abandon) return std::nullopt;
  const double serial_start = ThreadCpuSeconds();
  p2p_critical_s += *std::max_element(step_s.begin(), step_s.end());  // the final Late Receiver step
  for (const Part& part : parts)  // the lowest rank's error is the first a sequential read meets
    if (part.error) std::rethrow_exception(part.error);
  for (const std::exception_ptr& error : failure)
    if (error) std::rethrow_exception(error);

  std::vector<std::vector<uint32_t>> maps;
  CallPaths call_paths = UnifyParts(parts, &maps);
  const std::size_t cnodes = call_paths.size();

  StreamingAnalysis out;
  out.threads = static_cast<int>(threads);
  ReplayRecords shared = SharedRecords(parts, maps, ranks, cnodes);
  out.record_bytes = RecordBytes(shared) + matching.PeakRecordBytes();
  out.trace = JoinTraces(parts, std::move(call_paths));
  WaitStateResult point_to_point = matching.Result(maps);
  std::vector<RecordBlock> no_blocks;
  out.result = AnalyzeReplayBlocks(out.trace, no_blocks, shared, static_cast<int>(threads), options.wait_states,
                                   nullptr, &point_to_point);
  out.sent = std::move(shared.sent);
  out.read_cpu_s = {read_critical_s};
  out.parallel_cpu_s = p2p_critical_s;
  out.serial_cpu_s = ThreadCpuSeconds() - serial_start;
  return out;
}

}  // namespace

StreamingAnalysis AnalyzeTraceStreaming(const std::string& path, const StreamingAnalysisOptions& options) {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument(error);
  const uint32_t threads = static_cast<uint32_t>(options.jobs > 0 ? options.jobs : AvailableCores());
  if (options.window_events > 0) {
    uint64_t event_bytes = 0;
    const uint32_t ranks = CountOtf2Ranks(path, &event_bytes);
    if (ranks > 0 && ranks <= kMaxWindowedRanks && event_bytes >= options.window_min_rank_bytes * ranks) {
      std::optional<StreamingAnalysis> analysis = AnalyzeInWindows(path, options, threads, ranks);
      if (analysis) return std::move(*analysis);
    }
  }
  return AnalyzeInBlocks(path, options, threads);
}

}  // namespace qnm::trace
