#include "whatif_scaling/profile_whatif.h"

#include <algorithm>
#include <numeric>

#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

using trace::Hypothesis;
using trace::HypothesisKind;

std::string FileOf(const RunStats& run) {
  return run.sources.empty() ? run.app.str() : run.sources.front();
}

double MaxOf(const std::vector<double>& values) {
  return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

double MeanOf(const std::vector<double>& values) {
  return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / values.size();
}

bool StartsWithNoCase(const std::string& text, const char* prefix) {
  return ToLower(text).rfind(prefix, 0) == 0;
}

/// Call sites that move data: point-to-point and collectives, not completions or synchronisation.
bool MovesData(const CallSiteStats& site) {
  if (site.activity != MpiActivity::kPointToPoint && site.activity != MpiActivity::kCollective) return false;
  return !StartsWithNoCase(site.mpi_function, "wait") && !StartsWithNoCase(site.mpi_function, "test");
}

/// Does `site` answer to region name `name`: its MPI function (with or without "MPI_", any case) or its location.
bool NamesSite(const std::string& name, const CallSiteStats& site) {
  std::string function = ToLower(name);
  if (function.rfind("mpi_", 0) == 0) function = function.substr(4);
  return ToLower(site.mpi_function) == function || site.source_location == name;
}

/// The run's times as the hypotheses change them: per rank (or one "rank" of means).
class ProfileTimes {
 public:
  ProfileTimes(const RunStats& run, bool absent_region_is_noop)
      : run_(run), file_(FileOf(run)), absent_region_is_noop_(absent_region_is_noop) {
    const std::size_t ranks = run.app_time_s_per_rank.size();
    per_rank_ = ranks > 0 && run.mpi_time_s_per_rank.size() == ranks;
    if (per_rank_) {
      app_ = run.app_time_s_per_rank;
      mpi_ = run.mpi_time_s_per_rank;
    } else if (Known(run.app_time_mean_s) && Known(run.mpi_time_mean_s)) {
      app_ = {run.app_time_mean_s};
      mpi_ = {run.mpi_time_mean_s};
    } else {
      throw InputError(file_, 0,
                       "a what-if needs the run's MPI time (per rank or its mean; mpiP, CUBE, a table's "
                       "MPI time column) or a trace; this run has only its run time");
    }
    sites_ = run.call_sites;
  }

  void Apply(const Hypothesis& h, std::vector<std::string>* notes) {
    switch (h.kind) {
      case HypothesisKind::kScaleComputation: ScaleComputation(h.factor); break;
      case HypothesisKind::kScaleMpi:
        ScaleSites([](const CallSiteStats&) { return true; }, h.factor, h, true);
        if (notes && h.factor != 1.0)
          notes->push_back(h.Describe() + ": a profile cannot tell waiting from MPI service, so its waiting "
                                          "time is scaled too (a trace scales only the service)");
        break;
      case HypothesisKind::kScaleTransfer:
        ScaleSites(MovesData, h.factor, h, false);
        if (notes && h.factor != 1.0)
          notes->push_back(h.Describe() + ": on a profile, the whole time of the call sites that move data "
                                          "(their overhead and waiting too; a trace scales the transfer alone)");
        break;
      case HypothesisKind::kScaleRegion:
        if (ToLower(h.region) == kProfileComputation)
          ScaleComputation(h.factor);
        else
          ScaleSites([&h](const CallSiteStats& s) { return NamesSite(h.region, s); }, h.factor, h, false);
        break;
      case HypothesisKind::kBalanceRegion:
        if (h.balance_mode == trace::BalanceMode::kProcessLocal) {
          // Keeps each rank's total (Hermanns 2008, §3.4.2 (c)): nothing a profile's per-rank totals show.
          if (notes)
            notes->push_back(h.Describe() + ": process-local balancing keeps each rank's total, which is all "
                                            "a profile holds: no change without a trace");
          RequirePerRank(h);
          if (ToLower(h.region) != kProfileComputation) MatchedSites(h);
          break;
        }
        if (ToLower(h.region) == kProfileComputation)
          BalanceComputation(h);
        else
          BalanceSites(h);
        break;
      default: throw InputError(file_, 0, h.Describe() + ": " + WhyTraceNeeded(h));
    }
  }

  RunStats Result() const {
    RunStats out = run_;
    std::vector<double> app_delta(app_.size()), mpi_delta(mpi_.size());
    const std::vector<double>& app0 = per_rank_ ? run_.app_time_s_per_rank.vector() : std::vector<double>{run_.app_time_mean_s};
    const std::vector<double>& mpi0 = per_rank_ ? run_.mpi_time_s_per_rank.vector() : std::vector<double>{run_.mpi_time_mean_s};
    for (std::size_t r = 0; r < app_.size(); ++r) {
      app_delta[r] = app_[r] - app0[r];
      mpi_delta[r] = mpi_[r] - mpi0[r];
    }
    // Summaries move by the change of their per-rank data, so a hypothesis
    // that changes nothing leaves every value exactly as it was.
    const double app_ratio = MaxOf(app0) > 0 ? MaxOf(app_) / MaxOf(app0) : 1.0;
    const double mpi_ratio = MaxOf(mpi0) > 0 ? MaxOf(mpi_) / MaxOf(mpi0) : 1.0;
    if (per_rank_) {
      out.app_time_s_per_rank = app_;
      out.mpi_time_s_per_rank = mpi_;
    }
    if (Known(out.app_time_mean_s)) out.app_time_mean_s += MeanOf(app_delta);
    if (Known(out.mpi_time_mean_s)) out.mpi_time_mean_s += MeanOf(mpi_delta);
    if (Known(out.compute_time_mean_s)) out.compute_time_mean_s += MeanOf(app_delta) - MeanOf(mpi_delta);
    if (Known(out.app_time_max_s)) out.app_time_max_s *= app_ratio;
    if (Known(out.mpi_time_max_s)) out.mpi_time_max_s *= mpi_ratio;
    // The application's own timer follows its slowest rank.
    if (Known(out.wall_time_s)) out.wall_time_s *= per_rank_ ? app_ratio : (app0[0] > 0 ? app_[0] / app0[0] : 1.0);
    out.call_sites = sites_;
    return out;
  }

 private:
  void RequirePerRank(const Hypothesis& h) const {
    if (!per_rank_)
      throw InputError(file_, 0, h.Describe() + " needs per-rank times; this run has only their means");
  }

  void ScaleComputation(double factor) {
    for (std::size_t r = 0; r < app_.size(); ++r) app_[r] -= (1.0 - factor) * std::max(0.0, app_[r] - mpi_[r]);
  }

  std::vector<CallSiteStats*> MatchedSites(const Hypothesis& h) {
    std::vector<CallSiteStats*> matched;
    for (CallSiteStats& site : sites_)
      if (NamesSite(h.region, site)) matched.push_back(&site);
    if (matched.empty() && absent_region_is_noop_) return matched;
    if (matched.empty()) {
      std::vector<std::string> names;
      for (const CallSiteStats& site : sites_)
        if (std::find(names.begin(), names.end(), site.mpi_function) == names.end()) names.push_back(site.mpi_function);
      std::string list;
      for (std::size_t i = 0; i < names.size() && i < 12; ++i) list += (i ? ", " : "") + names[i];
      throw InputError(file_, 0,
                       "region '" + h.region + "' is no MPI call site of this profile (it has: " +
                           (list.empty() ? std::string("none") : list) + "; or '" + kProfileComputation +
                           "'); a computation region needs a trace");
    }
    for (const CallSiteStats* site : matched)
      if (site->time_s_per_rank.size() != app_.size() || !site->ranks_complete)
        throw InputError(file_, 0, h.Describe() + ": call site " + site->source_location +
                                       " lacks per-rank times (mpiP -t hides small ones); a trace has them");
    return matched;
  }

  /// Scales the time of every call site `select` picks on every rank; `all_mpi`: the rank's whole MPI time.
  template <typename Select>
  void ScaleSites(Select select, double factor, const Hypothesis& h, bool all_mpi) {
    std::vector<CallSiteStats*> chosen;
    if (h.kind == HypothesisKind::kScaleRegion) {
      chosen = MatchedSites(h);
    } else {
      for (CallSiteStats& site : sites_)
        if (select(site) && site.time_s_per_rank.size() == app_.size()) chosen.push_back(&site);
      if (!all_mpi && chosen.empty())
        throw InputError(file_, 0, h.Describe() + ": the run has no call sites with per-rank times that move "
                                                  "data; a trace has the transfers");
    }
    for (std::size_t r = 0; r < app_.size(); ++r) {
      double removed = 0;
      for (CallSiteStats* site : chosen) {
        removed += (1.0 - factor) * site->time_s_per_rank[r];
        site->time_s_per_rank[r] *= factor;
      }
      if (all_mpi) removed = (1.0 - factor) * mpi_[r];
      app_[r] -= removed;
      mpi_[r] -= removed;
    }
    for (CallSiteStats* site : chosen) site->total_time_s *= factor;
  }

  void BalanceComputation(const Hypothesis& h) {
    RequirePerRank(h);
    std::vector<double> compute(app_.size());
    for (std::size_t r = 0; r < app_.size(); ++r) compute[r] = std::max(0.0, app_[r] - mpi_[r]);
    const double mean = MeanOf(compute), max = MaxOf(compute);
    for (std::size_t r = 0; r < app_.size(); ++r) {
      // The wait for the slowest rank (max - compute[r]) leaves the MPI time, at most all of it.
      const double mpi = std::max(0.0, mpi_[r] - (max - compute[r]));
      if (compute[r] == mean && mpi == mpi_[r]) continue;  // already balanced: exactly unchanged
      ScaleRankSites(r, mpi_[r] > 0 ? mpi / mpi_[r] : 1.0);
      mpi_[r] = mpi;
      app_[r] = mean + mpi;
    }
  }

  void BalanceSites(const Hypothesis& h) {
    RequirePerRank(h);
    std::vector<CallSiteStats*> matched = MatchedSites(h);
    std::vector<double> time(app_.size(), 0.0);
    for (std::size_t r = 0; r < app_.size(); ++r)
      for (const CallSiteStats* site : matched) time[r] += site->time_s_per_rank[r];
    const double mean = MeanOf(time);
    for (std::size_t r = 0; r < app_.size(); ++r) {
      if (time[r] == mean) continue;
      for (CallSiteStats* site : matched)
        site->time_s_per_rank[r] = time[r] > 0 ? site->time_s_per_rank[r] * mean / time[r]
                                               : (site == matched.front() ? mean : 0.0);
      app_[r] += mean - time[r];
      mpi_[r] += mean - time[r];
    }
    for (CallSiteStats* site : matched)
      site->total_time_s = std::accumulate(site->time_s_per_rank.begin(), site->time_s_per_rank.end(), 0.0);
  }

  /// Rank r's call-site times times `factor` (their share of a changed MPI time).
  void ScaleRankSites(std::size_t r, double factor) {
    for (CallSiteStats& site : sites_) {
      if (site.time_s_per_rank.size() != app_.size()) continue;
      const double before = site.time_s_per_rank[r];
      site.time_s_per_rank[r] *= factor;
      if (Known(site.total_time_s)) site.total_time_s += site.time_s_per_rank[r] - before;
    }
  }

  const RunStats& run_;
  std::string file_;
  bool absent_region_is_noop_ = false;
  bool per_rank_ = false;
  std::vector<double> app_, mpi_;
  std::vector<CallSiteStats> sites_;
};

}  // namespace

std::string WhyTraceNeeded(const Hypothesis& hypothesis) {
  switch (hypothesis.kind) {
    case HypothesisKind::kCutRegion:
      return "needs a trace (which instances, messages and collectives the region holds); a profile has "
             "per-rank totals only";
    case HypothesisKind::kCutMessages:
      return "needs a trace (which messages match, and who waited for them); a profile has per-rank totals only";
    default: return "";
  }
}

bool ProfileHasRegion(const RunStats& run, const std::string& region) {
  if (ToLower(region) == kProfileComputation) return true;
  for (const CallSiteStats& site : run.call_sites)
    if (NamesSite(region, site)) return true;
  return false;
}

RunStats ApplyProfileWhatif(const RunStats& run, const std::vector<Hypothesis>& hypotheses,
                            std::vector<std::string>* notes, bool absent_region_is_noop) {
  for (const Hypothesis& h : hypotheses) {
    const std::string why = WhyTraceNeeded(h);
    if (!why.empty()) throw InputError(FileOf(run), 0, h.Describe() + " " + why);
  }
  ProfileTimes times(run, absent_region_is_noop);
  for (const Hypothesis& h : hypotheses) times.Apply(h, notes);
  RunStats out = times.Result();
  std::string described;
  for (const Hypothesis& h : hypotheses) described += (described.empty() ? "" : "; ") + h.Describe();
  out.derivations["whatif"] = "profile what-if: " + described;
  return out;
}

}  // namespace qnm
