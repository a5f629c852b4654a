#include "whatif/whatif_simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "util/input_error.h"
#include "whatif/balance_modes.h"
#include "whatif/region_names.h"
#include "whatif/whatif_dependencies.h"

namespace qnm::trace {
namespace {

/// Time factors per call path, from the scale and balance hypotheses.
struct RegionFactors {
  std::vector<double> cnode_factor;  // product of the scale hypotheses hitting the cnode's region
  double outside_factor = 1.0;       // time outside every region counts as computation
  double transfer_factor = 1.0;      // receive completions bound by their message
  std::vector<int> cnode_balance;    // index of the balance hypothesis, or -1
  std::size_t balanced = 0;
  std::vector<BalanceMode> balance_modes;  // per balance hypothesis
};

RegionFactors BuildFactors(const Trace& trace, const std::vector<Hypothesis>& hypotheses) {
  const CallPaths& paths = trace.call_paths;
  std::vector<const Hypothesis*> balance;
  for (const Hypothesis& h : hypotheses) {
    RequireRegionNamed(trace, h);
    if (h.kind == HypothesisKind::kBalanceRegion) balance.push_back(&h);
  }
  RegionFactors factors;
  for (const Hypothesis* h : balance) factors.balance_modes.push_back(h->balance_mode);
  factors.cnode_factor.assign(paths.size(), 1.0);
  factors.cnode_balance.assign(paths.size(), -1);
  factors.balanced = balance.size();
  for (const Hypothesis& h : hypotheses)
    if (h.kind == HypothesisKind::kScaleComputation) factors.outside_factor *= h.factor;
    else if (h.kind == HypothesisKind::kScaleTransfer) factors.transfer_factor *= h.factor;
  for (uint32_t c = 0; c < paths.size(); ++c) {
    const Region& region = paths.RegionOf(c);
    double& f = factors.cnode_factor[c];
    for (const Hypothesis& h : hypotheses) {
      // Scaling applies to exclusive time only (Hermanns 2008, §3.4.1).
      if (h.kind == HypothesisKind::kScaleRegion && region.name == h.region) f *= h.factor;
      if (h.kind == HypothesisKind::kScaleComputation && !region.is_mpi &&
          region.category != TimeCategory::kPaused)
        f *= h.factor;
      // MPI_Init/Finalize are start-up and tear-down, not communication cost.
      if (h.kind == HypothesisKind::kScaleMpi && region.is_mpi &&
          region.call_class != CallClass::kInit && region.call_class != CallClass::kFinalize)
        f *= h.factor;
    }
    for (std::size_t b = 0; b < balance.size() && factors.cnode_balance[c] < 0; ++b)
      if (region.name == balance[b]->region) factors.cnode_balance[c] = static_cast<int>(b);
  }
  return factors;
}

/// The part of the gap before event i that is the rank's own work: for an
/// event waiting on remote sources, the span after the latest of them (the
/// waiting itself is not balanced or scaled; see Replay::NewTime).
uint64_t LocalTicks(const Trace& trace, const WhatifDependencies& deps, uint32_t p, std::size_t i,
                    const Dependency* dep) {
  const auto& events = trace.ranks[p].events;
  uint64_t t = events[i].ticks, tp = events[i - 1].ticks;
  if (!dep) return t - tp;
  uint64_t latest = 0;
  for (uint32_t s = dep->first; s < dep->first + dep->count; ++s)
    latest = std::max(latest, trace.ranks[deps.sources[s].rank].events[deps.sources[s].event].ticks);
  return latest <= t ? t - std::max(tp, latest) : t - tp;
}

/// Per rank, balanced region and instance: exclusive ticks (the rank's own
/// work, waiting excluded). BALANCE REGION sets new ones (Hermanns 2008,
/// §3.4.2, Figure 3.3; see whatif/balance_modes.h).
using InstanceTicks = std::vector<std::vector<std::vector<double>>>;
InstanceTicks BalancedTargets(const Trace& trace, const RegionFactors& factors,
                              const WhatifDependencies& deps, InstanceTicks* original) {
  InstanceTicks excl(trace.ranks.size(), std::vector<std::vector<double>>(factors.balanced));
  for (uint32_t p = 0; p < trace.ranks.size(); ++p) {
    const auto& events = trace.ranks[p].events;
    const auto& dependencies = deps.per_rank[p];
    std::size_t next_dep = 0;
    std::vector<std::pair<int, std::size_t>> stack;  // (balanced index, instance) or (-1, 0)
    for (std::size_t i = 0; i < events.size(); ++i) {
      const Dependency* dep = nullptr;
      if (next_dep < dependencies.size() && dependencies[next_dep].event == i)
        dep = &dependencies[next_dep++];
      if (i > 0 && !stack.empty() && stack.back().first >= 0 &&
          !(deps.flags[p][i] & WhatifDependencies::kCollapsed))
        excl[p][stack.back().first][stack.back().second] +=
            static_cast<double>(LocalTicks(trace, deps, p, i, dep));
      if (events[i].kind == EventKind::kEnter) {
        int b = factors.cnode_balance[events[i].ref];
        if (b >= 0) {
          excl[p][b].push_back(0);
          stack.push_back({b, excl[p][b].size() - 1});
        } else {
          stack.push_back({-1, 0});
        }
      } else if (events[i].kind == EventKind::kLeave && !stack.empty()) {
        stack.pop_back();
      }
    }
  }
  InstanceTicks target = excl;
  for (std::size_t b = 0; b < factors.balanced; ++b) {
    std::vector<std::vector<double>> per_rank(excl.size());
    for (std::size_t p = 0; p < excl.size(); ++p) per_rank[p] = excl[p][b];
    per_rank = BalanceInstances(per_rank, factors.balance_modes[b]);
    for (std::size_t p = 0; p < excl.size(); ++p) target[p][b] = std::move(per_rank[p]);
  }
  *original = std::move(excl);
  return target;
}

/// `ticks` * `factor` in whole ticks; `carry` keeps the rounding remainder so
/// that a rank's scaled time sums stay within one tick of the exact product.
uint64_t Scaled(uint64_t ticks, double factor, double* carry) {
  if (factor == 1.0) return ticks;  // keeps the identity replay exact
  double exact = static_cast<double>(ticks) * factor + *carry;
  // Factors are finite and at most 1000 each (kScaleFactor), but several can
  // hit one region; a product past 2^62 ticks is no longer a time.
  if (!(exact < 0x1p62))
    throw InputError("", 0, "what-if: the scaled times overflow (factors too large for this trace's " +
                                std::to_string(ticks) + "-tick intervals)");
  double whole = std::max(0.0, std::round(exact));
  *carry = exact - whole;
  return static_cast<uint64_t>(whole);
}

/// The replay: one cursor per rank, each advancing until an event waits for
/// a remote event not yet re-timed. The new time of event i (Hermanns 2008, §4.3:
/// the accumulated shift delta_t is carried forward) is
///   t'_i = t'_{i-1} + f * (t_i - t_{i-1})                         (local)
///   t'_i = max(t'_{i-1}, D') + f * (t_i - max(t_{i-1}, D))        (dependency)
/// where D/D' are the latest original/new times of the source events and f
/// the factor of the innermost region. With no hypothesis every t'_i = t_i.
class Replay {
 public:
  Replay(const Trace& trace, const std::vector<Hypothesis>& hypotheses)
      : trace_(trace),
        deps_(BuildDependencies(trace, hypotheses)),
        factors_(BuildFactors(trace, hypotheses)) {
    if (factors_.balanced > 0) target_ = BalancedTargets(trace, factors_, deps_, &original_);
    ranks_.resize(trace.ranks.size());
    for (uint32_t p = 0; p < trace.ranks.size(); ++p) {
      ranks_[p].ticks.resize(trace.ranks[p].events.size());
      ranks_[p].instances.assign(factors_.balanced, 0);
    }
  }

  Trace Run(WhatifSummary* summary) {
    std::size_t done = 0;
    for (const RankState& r : ranks_) done += r.ticks.empty();
    while (done < ranks_.size()) {
      bool progress = false;
      for (uint32_t p = 0; p < ranks_.size(); ++p) {
        RankState& r = ranks_[p];
        if (r.next == r.ticks.size()) continue;
        std::size_t before = r.next;
        Advance(p);
        progress |= r.next != before;
        if (r.next == r.ticks.size()) ++done;
      }
      if (!progress && done < ranks_.size()) BreakDeadlock();
    }
    if (summary) {
      summary->dependencies = 0;
      for (const auto& list : deps_.per_rank) summary->dependencies += list.size();
      summary->messages_matched = deps_.messages_matched;
      summary->messages_cut = deps_.messages_cut;
      summary->collective_instances = deps_.collective_instances;
      summary->collectives_incomplete = deps_.collectives_incomplete;
      summary->collectives_cut = deps_.collectives_cut;
      summary->region_instances_cut = deps_.region_instances_cut;
      summary->deadlocks_broken = deadlocks_broken_;
    }
    return BuildTrace();
  }

 private:
  struct Frame {
    double factor;
    double add_at_leave;  // balanced instance whose original exclusive time was zero
  };
  struct RankState {
    BulkVector<uint64_t> ticks;  // new times
    std::size_t next = 0, dep = 0;
    bool force = false;  // ignore the dependency of event `next` (deadlock)
    double carry = 0;    // rounding remainder of scaled gaps
    std::vector<Frame> stack;
    std::vector<std::size_t> instances;  // per balanced region: instances entered
  };

  const Dependency* PendingDependency(RankState& r, uint32_t p) const {
    const auto& list = deps_.per_rank[p];
    while (r.dep < list.size() && list[r.dep].event < r.next) ++r.dep;  // a second one on an event
    if (r.dep < list.size() && list[r.dep].event == r.next) return &list[r.dep];
    return nullptr;
  }

  bool Ready(const Dependency& d) const {
    for (uint32_t s = d.first; s < d.first + d.count; ++s) {
      const RemoteEvent& source = deps_.sources[s];
      if (ranks_[source.rank].next <= source.event) return false;
    }
    return true;
  }

  void Advance(uint32_t p) {
    RankState& r = ranks_[p];
    const auto& events = trace_.ranks[p].events;
    while (r.next < events.size()) {
      std::size_t i = r.next;
      const Dependency* dep = PendingDependency(r, p);
      if (dep && !r.force && !Ready(*dep)) return;
      r.ticks[i] = i == 0 ? events[0].ticks : NewTime(p, i, r.force ? nullptr : dep);
      if (dep) ++r.dep;
      r.force = false;
      Push(p, events[i]);
      ++r.next;
    }
  }

  uint64_t NewTime(uint32_t p, std::size_t i, const Dependency* dep) {
    RankState& r = ranks_[p];
    const auto& events = trace_.ranks[p].events;
    uint64_t t = events[i].ticks, tp = events[i - 1].ticks, prev = r.ticks[i - 1];
    if (deps_.flags[p][i] & WhatifDependencies::kCollapsed) return prev;
    double factor = r.stack.empty() ? factors_.outside_factor : r.stack.back().factor;
    if (dep) {
      uint64_t latest = 0, latest_new = 0;
      for (uint32_t s = dep->first; s < dep->first + dep->count; ++s) {
        const RemoteEvent& source = deps_.sources[s];
        latest = std::max(latest, trace_.ranks[source.rank].events[source.event].ticks);
        latest_new = std::max(latest_new, ranks_[source.rank].ticks[source.event]);
      }
      // A source after the completion (rooted collective, eager message)
      // shows the event did not wait for it: keep it local.
      // A message-bound receive (the send came after the receiver was ready)
      // spent the span moving the message: that is what `scale transfer` scales.
      if (dep->message && latest > tp) factor *= factors_.transfer_factor;
      if (latest <= t)
        return std::max(prev, latest_new) + Scaled(t - std::max(tp, latest), factor, &r.carry);
    }
    uint64_t gap = Scaled(t - tp, factor, &r.carry);
    if (events[i].kind == EventKind::kLeave && !r.stack.empty())
      gap += static_cast<uint64_t>(std::llround(r.stack.back().add_at_leave));
    return prev + gap;
  }

  void Push(uint32_t p, const Event& event) {
    RankState& r = ranks_[p];
    if (event.kind == EventKind::kLeave) {
      if (!r.stack.empty()) r.stack.pop_back();
      return;
    }
    if (event.kind != EventKind::kEnter) return;
    Frame frame{factors_.cnode_factor[event.ref], 0};
    int b = factors_.cnode_balance[event.ref];
    if (b >= 0) {
      std::size_t k = r.instances[b]++;
      double before = original_[p][b][k], after = target_[p][b][k];
      if (before > 0)
        frame.factor *= after / before;
      else
        frame.add_at_leave = after;
    }
    r.stack.push_back(frame);
  }

  /// A cycle (or a dependency on a missing event): let the lowest blocked
  /// rank go ahead with its local time for the one waiting event.
  void BreakDeadlock() {
    for (RankState& r : ranks_)
      if (r.next < r.ticks.size()) {
        r.force = true;
        ++deadlocks_broken_;
        return;
      }
  }

  Trace BuildTrace() const {
    Trace out;
    out.path = trace_.path;
    out.creator = trace_.creator;
    out.timer_resolution = trace_.timer_resolution;
    out.global_offset = trace_.global_offset;
    out.call_paths = trace_.call_paths;
    out.comms = trace_.comms;
    out.windows = trace_.windows;
    out.groups = trace_.groups;
    out.group_defs = trace_.group_defs;
    out.program_name = trace_.program_name;
    out.program_region = trace_.program_region;
    out.metric_records = trace_.metric_records;
    out.repaired_leaves = trace_.repaired_leaves;
    out.ranks.resize(trace_.ranks.size());
    for (uint32_t p = 0; p < trace_.ranks.size(); ++p) {
      const LocationTrace& in = trace_.ranks[p];
      LocationTrace& o = out.ranks[p];
      o.otf2_location = in.otf2_location;
      o.name = in.name;
      o.node = in.node;
      o.collectives = in.collectives;
      o.rma_collectives = in.rma_collectives;
      o.rma_syncs = in.rma_syncs;
      o.rma_ops = in.rma_ops;
      o.rma_locks = in.rma_locks;
      o.raw_events = in.raw_events;
      o.header_events = in.header_events;
      const auto& ticks = ranks_[p].ticks;
      o.messages.assign(in.messages.begin(), in.messages.end());
      if (!deps_.has_drops[p]) {  // the common case: same events, new times
        o.events.assign(in.events.begin(), in.events.end());
        for (std::size_t i = 0; i < o.events.size(); ++i) o.events[i].ticks = ticks[i];
      } else {
        std::vector<uint32_t> index(in.events.size(), kNone);
        o.events.reserve(in.events.size());
        for (std::size_t i = 0; i < in.events.size(); ++i) {
          if (deps_.flags[p][i] & WhatifDependencies::kDropped) continue;
          index[i] = static_cast<uint32_t>(o.events.size());
          o.events.push_back(in.events[i]);
          o.events.back().ticks = ticks[i];
        }
        for (Message& m : o.messages)
          if (m.request_event < index.size()) m.request_event = index[m.request_event];
      }
      o.first_ticks = in.first_ticks;
      o.last_ticks = in.last_ticks;
      if (!in.events.empty() && !o.events.empty())
        o.last_ticks = o.events.back().ticks + (in.last_ticks - in.events.back().ticks);
    }
    return out;
  }

  const Trace& trace_;
  WhatifDependencies deps_;
  RegionFactors factors_;
  InstanceTicks original_, target_;
  std::vector<RankState> ranks_;
  uint64_t deadlocks_broken_ = 0;
};

/// First and last event over all ranks (ticks).
std::pair<uint64_t, uint64_t> Span(const Trace& trace) {
  uint64_t first = UINT64_MAX, last = 0;
  for (const LocationTrace& rank : trace.ranks)
    if (!rank.events.empty()) {
      first = std::min<uint64_t>(first, rank.events.front().ticks);
      last = std::max<uint64_t>(last, rank.events.back().ticks);
    }
  return first == UINT64_MAX ? std::pair<uint64_t, uint64_t>{0, 0} : std::pair{first, last};
}

/// Exclusive ticks per region name, summed over ranks.
std::map<std::string, double> ExclusiveByRegion(const Trace& trace) {
  std::vector<double> per_region(trace.call_paths.region_count(), 0.0);
  double outside = 0;
  for (const LocationTrace& rank : trace.ranks) {
    std::vector<uint32_t> stack;
    for (std::size_t i = 0; i < rank.events.size(); ++i) {
      if (i > 0) {
        double gap = static_cast<double>(rank.events[i].ticks - rank.events[i - 1].ticks);
        if (stack.empty())
          outside += gap;
        else
          per_region[trace.call_paths.node(stack.back()).region] += gap;
      }
      if (rank.events[i].kind == EventKind::kEnter) stack.push_back(rank.events[i].ref);
      if (rank.events[i].kind == EventKind::kLeave && !stack.empty()) stack.pop_back();
    }
  }
  std::map<std::string, double> by_name;
  for (uint32_t r = 0; r < per_region.size(); ++r)
    if (per_region[r] != 0) by_name[trace.call_paths.region(r).name] += per_region[r];
  if (outside != 0) by_name["(outside regions)"] = outside;
  for (auto& [name, ticks] : by_name) ticks /= static_cast<double>(trace.timer_resolution);
  return by_name;
}

void CompareWaitStates(const Trace& original, const Trace& simulated, WhatifResult* result) {
  WaitStateResult before = AnalyzeWaitStates(original);
  WaitStateResult after = AnalyzeWaitStates(simulated);
  for (std::size_t p = 0; p < kPatternCount; ++p) {
    Pattern pattern = static_cast<Pattern>(p);
    double a = before.Total(pattern), b = after.Total(pattern);
    if (a != 0 || b != 0) result->pattern_totals.push_back({pattern, "", kNone, a, b});
    std::map<uint64_t, std::pair<double, double>> keys;
    for (const auto& [key, s] : before.severity[p]) keys[key].first = s;
    for (const auto& [key, s] : after.severity[p]) keys[key].second = s;
    for (const auto& [key, values] : keys) {
      if (values.first == values.second) continue;
      uint32_t cnode = static_cast<uint32_t>(key >> 32), rank = static_cast<uint32_t>(key);
      result->wait_changes.push_back({pattern, original.call_paths.PathString(cnode), rank,
                                      values.first, values.second});
    }
  }
  std::stable_sort(result->wait_changes.begin(), result->wait_changes.end(),
                   [](const WaitChange& x, const WaitChange& y) {
                     return std::abs(x.simulated_s - x.original_s) >
                            std::abs(y.simulated_s - y.original_s);
                   });
}

}  // namespace

Trace RetimeTrace(const Trace& trace, const std::vector<Hypothesis>& hypotheses,
                  WhatifSummary* summary) {
  return Replay(trace, hypotheses).Run(summary);
}

WhatifResult SimulateWhatif(const Trace& trace, const WhatifOptions& options) {
  WhatifResult result;
  result.simulated = RetimeTrace(trace, options.hypotheses, &result.summary);
  for (const Hypothesis& h : options.hypotheses) result.hypotheses.push_back(h.Describe());

  auto [first, last] = Span(trace);
  auto [sim_first, sim_last] = Span(result.simulated);
  WhatifSummary& s = result.summary;
  s.original_runtime_s = trace.Seconds(last - first);
  s.simulated_runtime_s = trace.Seconds(sim_last - std::min(first, sim_first));
  s.gain_s = s.original_runtime_s - s.simulated_runtime_s;
  s.gain_percent = s.original_runtime_s > 0 ? 100.0 * s.gain_s / s.original_runtime_s : 0.0;
  for (uint32_t p = 0; p < trace.ranks.size(); ++p) {
    const auto& in = trace.ranks[p].events;
    const auto& out = result.simulated.ranks[p].events;
    result.original_end_s.push_back(in.empty() ? 0.0 : trace.Seconds(in.back().ticks - first));
    result.simulated_end_s.push_back(out.empty() ? 0.0 : trace.Seconds(out.back().ticks - first));
  }

  std::map<std::string, double> before = ExclusiveByRegion(trace);
  std::map<std::string, double> after = ExclusiveByRegion(result.simulated);
  for (const auto& [name, seconds] : before) result.regions.push_back({name, seconds, after[name]});
  for (const auto& [name, seconds] : after)
    if (!before.count(name)) result.regions.push_back({name, 0.0, seconds});
  std::stable_sort(result.regions.begin(), result.regions.end(),
                   [](const RegionTimeChange& x, const RegionTimeChange& y) {
                     return std::abs(x.simulated_s - x.original_s) >
                            std::abs(y.simulated_s - y.original_s);
                   });
  if (options.analyze_wait_states) CompareWaitStates(trace, result.simulated, &result);

  char line[256];
  std::snprintf(line, sizeof line, "predicted run time %.6g s instead of %.6g s: %s %.6g s (%.2f %%)",
                s.simulated_runtime_s, s.original_runtime_s, s.gain_s >= 0 ? "gain" : "loss",
                std::abs(s.gain_s), std::abs(s.gain_percent));
  s.message = line;
  if (s.deadlocks_broken > 0)
    s.message += "; " + std::to_string(s.deadlocks_broken) + " cyclic dependencies ignored";
  return result;
}

}  // namespace qnm::trace
