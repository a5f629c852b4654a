#include "imbalance/dissimilarity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "util/enum_names.h"
#include "util/text_format.h"

namespace qnm {
namespace {

std::string Percent(double share) { return FormatDouble("%.1f%%", 100.0 * share); }

/// Argmax over `values` restricted to finite entries; -1 if none is > 0.
int ArgMaxPositive(const std::vector<double>& values) {
  int best = -1;
  for (std::size_t k = 0; k < values.size(); ++k)
    if (values[k] > 0 && (best < 0 || values[k] > values[static_cast<std::size_t>(best)]))
      best = static_cast<int>(k);
  return best;
}

/// Indices of entries with a finite key, sorted by key descending, then time
/// descending, then input order (deterministic on ties).
std::vector<int> RankDescending(const std::vector<double>& key, const std::vector<double>& time_s) {
  std::vector<int> order;
  for (std::size_t k = 0; k < key.size(); ++k)
    if (std::isfinite(key[k])) order.push_back(static_cast<int>(k));
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    if (key[ua] != key[ub]) return key[ua] > key[ub];
    return time_s[ua] > time_s[ub];
  });
  return order;
}

/// Marks candidates along `ranking` by the severity criterion of Calzarossa et al. 2004, §3:
/// the maximum (threshold NaN) or every value >= threshold. A value of 0
/// (perfect balance) is never a candidate.
std::vector<bool> Candidates(const std::vector<int>& ranking, const std::vector<double>& value,
                             double threshold) {
  std::vector<bool> candidate(value.size(), false);
  for (std::size_t r = 0; r < ranking.size(); ++r) {
    auto k = static_cast<std::size_t>(ranking[r]);
    if (!(value[k] > 0)) break;
    if (Known(threshold) ? value[k] >= threshold : r == 0) candidate[k] = true;
  }
  return candidate;
}

void CheckOptions(const DissimilarityOptions& options) {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("dissimilarity options: " + error);
}

/// Eqs. 3-6, the §2 dominance criteria and the §3 ranking, given t_ij and
/// ID_ij in `result` (cell_time_s, cell_index, cells already filled).
void Aggregate(const DissimilarityOptions& options, DissimilarityResult* result) {
  const std::size_t n_activities = result->activity_names.size();
  const std::size_t n_regions = result->region_names.size();
  auto cell = [&](std::size_t a, std::size_t r) { return a * n_regions + r; };
  auto performed = [&](std::size_t a, std::size_t r) {
    return std::isfinite(result->cell_index[cell(a, r)]);
  };
  DissimilaritySummary& summary = result->summary;

  // T_j and t_i (Table 1) over performed cells, so that the weights of eqs. 3
  // and 5 sum to one.
  std::vector<double> activity_time(n_activities, 0.0), region_time(n_regions, 0.0);
  for (std::size_t a = 0; a < n_activities; ++a)
    for (std::size_t r = 0; r < n_regions; ++r)
      if (performed(a, r)) {
        activity_time[a] += result->cell_time_s[cell(a, r)];
        region_time[r] += result->cell_time_s[cell(a, r)];
      }
  const double total_time_s = std::accumulate(activity_time.begin(), activity_time.end(), 0.0);
  summary.total_time_s = total_time_s;

  result->activities.assign(n_activities, {});
  for (std::size_t a = 0; a < n_activities; ++a) {
    ActivityDissimilarity& activity = result->activities[a];
    activity.name = result->activity_names[a];
    activity.time_s = activity_time[a];
    activity.time_share = total_time_s > 0 ? activity_time[a] / total_time_s : 0.0;
    if (activity_time[a] <= 0) {
      summary.notes.push_back("activity '" + activity.name + "': no time, no index");
      continue;
    }
    double index = 0, worst_time = -1, best_time = 0, worst_index = -1;
    for (std::size_t r = 0; r < n_regions; ++r) {
      if (!performed(a, r)) continue;
      double t = result->cell_time_s[cell(a, r)], id = result->cell_index[cell(a, r)];
      index += t / activity_time[a] * id;  // Calzarossa et al. 2004, eq. 3: ID_A_j
      ++activity.regions_performed;
      if (t > worst_time) worst_time = t, activity.worst_region = static_cast<int>(r);
      if (t > 0 && (activity.best_region < 0 || t < best_time))
        best_time = t, activity.best_region = static_cast<int>(r);
      if (id > worst_index) worst_index = id, activity.most_imbalanced_region = static_cast<int>(r);
    }
    activity.index = index;
    activity.scaled_index = activity.time_share * index;  // Calzarossa et al. 2004, eq. 4: SID_A_j
  }

  result->regions.assign(n_regions, {});
  for (std::size_t r = 0; r < n_regions; ++r) {
    RegionDissimilarity& region = result->regions[r];
    region.name = result->region_names[r];
    region.time_s = region_time[r];
    region.time_share = total_time_s > 0 ? region_time[r] / total_time_s : 0.0;
    if (region_time[r] <= 0) continue;
    double index = 0, dominant_time = -1;
    for (std::size_t a = 0; a < n_activities; ++a) {
      if (!performed(a, r)) continue;
      double t = result->cell_time_s[cell(a, r)];
      index += t / region_time[r] * result->cell_index[cell(a, r)];  // Calzarossa et al. 2004, eq. 5: ID_C_i
      if (t > dominant_time) dominant_time = t, region.dominant_activity = static_cast<int>(a);
    }
    region.index = index;
    region.scaled_index = region.time_share * index;  // Calzarossa et al. 2004, eq. 6: SID_C_i
  }

  // §2: dominant ("heaviest") activity and region, and the region with the
  // maximum time in the dominant activity.
  result->dominant_activity = ArgMaxPositive(activity_time);
  result->dominant_region = ArgMaxPositive(region_time);
  if (result->dominant_activity >= 0)
    result->dominant_region_in_dominant_activity =
        result->activities[static_cast<std::size_t>(result->dominant_activity)].worst_region;

  // §3: rank by the criterion; the maximum (or those over a threshold) are the
  // candidates for tuning.
  const bool scaled = options.criterion == ImbalanceCriterion::kScaledIndex;
  std::vector<double> activity_key(n_activities), region_key(n_regions);
  for (std::size_t a = 0; a < n_activities; ++a)
    activity_key[a] = scaled ? result->activities[a].scaled_index : result->activities[a].index;
  for (std::size_t r = 0; r < n_regions; ++r)
    region_key[r] = scaled ? result->regions[r].scaled_index : result->regions[r].index;
  result->activity_ranking = RankDescending(activity_key, activity_time);
  result->region_ranking = RankDescending(region_key, region_time);
  std::vector<bool> activity_candidate =
      Candidates(result->activity_ranking, activity_key, options.severity_threshold);
  std::vector<bool> region_candidate =
      Candidates(result->region_ranking, region_key, options.severity_threshold);
  for (std::size_t a = 0; a < n_activities; ++a) result->activities[a].candidate = activity_candidate[a];
  for (std::size_t r = 0; r < n_regions; ++r) result->regions[r].candidate = region_candidate[r];

  std::vector<double> cell_key, cell_time;
  for (const CellDissimilarity& c : result->cells) {
    cell_key.push_back(c.index);
    cell_time.push_back(c.time_s);
  }
  result->cell_ranking = RankDescending(cell_key, cell_time);

  // Summary.
  summary.ranks = result->ranks;
  summary.activities = static_cast<int>(n_activities);
  summary.regions = static_cast<int>(n_regions);
  summary.cells_performed = static_cast<int>(result->cells.size());
  summary.dispersion = options.dispersion;
  summary.criterion = options.criterion;
  auto name_or_empty = [](const std::vector<std::string>& names, int k) {
    return k >= 0 ? names[static_cast<std::size_t>(k)] : std::string();
  };
  summary.dominant_activity = name_or_empty(result->activity_names, result->dominant_activity);
  summary.dominant_region = name_or_empty(result->region_names, result->dominant_region);
  summary.dominant_region_in_dominant_activity =
      name_or_empty(result->region_names, result->dominant_region_in_dominant_activity);
  // Perfect balance everywhere (e.g. one rank) has no most imbalanced entry.
  if (!result->activity_ranking.empty() && activity_key[static_cast<std::size_t>(result->activity_ranking.front())] > 0) {
    auto top = static_cast<std::size_t>(result->activity_ranking.front());
    summary.most_imbalanced_activity = result->activity_names[top];
    summary.most_imbalanced_activity_value = activity_key[top];
  }
  if (!result->region_ranking.empty() && region_key[static_cast<std::size_t>(result->region_ranking.front())] > 0) {
    auto top = static_cast<std::size_t>(result->region_ranking.front());
    summary.most_imbalanced_region = result->region_names[top];
    summary.most_imbalanced_region_value = region_key[top];
  }
  const std::size_t limit = options.report_top > 0 ? static_cast<std::size_t>(options.report_top)
                                                   : static_cast<std::size_t>(-1);
  for (std::size_t k = 0; k < result->activity_ranking.size() && k < limit; ++k) {
    const ActivityDissimilarity& a = result->activities[static_cast<std::size_t>(result->activity_ranking[k])];
    summary.top_activities.push_back({a.name, a.time_s, a.index, a.scaled_index, a.candidate});
  }
  for (std::size_t k = 0; k < result->region_ranking.size() && k < limit; ++k) {
    const RegionDissimilarity& r = result->regions[static_cast<std::size_t>(result->region_ranking[k])];
    summary.top_regions.push_back({r.name, r.time_s, r.index, r.scaled_index, r.candidate});
  }
  for (std::size_t k = 0; k < result->cell_ranking.size() && k < limit; ++k) {
    const CellDissimilarity& c = result->cells[static_cast<std::size_t>(result->cell_ranking[k])];
    summary.top_cells.push_back({result->activity_names[static_cast<std::size_t>(c.activity)] + " @ " +
                                     result->region_names[static_cast<std::size_t>(c.region)],
                                 c.time_s, c.index, kUnknown, false});
  }
}

void CheckNames(const std::vector<std::string>& activities, const std::vector<std::string>& regions) {
  if (activities.empty()) throw std::invalid_argument("dissimilarity: no activities");
  if (regions.empty()) throw std::invalid_argument("dissimilarity: no code regions");
}

}  // namespace

constexpr EnumName<DispersionIndex> kDispersionNames[] = {
    {DispersionIndex::kEuclidean, "euclidean"},
    {DispersionIndex::kVariance, "variance"},
    {DispersionIndex::kCoefficientOfVariation, "cov"},
    {DispersionIndex::kMeanAbsoluteDeviation, "mad"},
    {DispersionIndex::kChebyshev, "chebyshev"}};

const char* ToString(DispersionIndex index) { return NameOf(kDispersionNames, index, "euclidean"); }

bool ParseDispersionIndex(const std::string& text, DispersionIndex* index) {
  return ValueOf(kDispersionNames, text, index);
}

constexpr EnumName<ImbalanceCriterion> kCriterionNames[] = {
    {ImbalanceCriterion::kScaledIndex, "scaled"}, {ImbalanceCriterion::kIndex, "index"}};

const char* ToString(ImbalanceCriterion criterion) { return NameOf(kCriterionNames, criterion, "index"); }

bool DissimilarityOptions::IsValid(std::string* error) const {
  auto fail = [&](const std::string& message) {
    if (error) *error = message;
    return false;
  };
  if (!(min_cell_time_s >= 0) || !std::isfinite(min_cell_time_s))
    return fail("min_cell_time_s must be finite and >= 0");
  if (!std::isnan(severity_threshold) && !(severity_threshold >= 0 && std::isfinite(severity_threshold)))
    return fail("severity_threshold must be NaN (maximum only) or finite and >= 0");
  if (report_top < 0) return fail("report_top must be >= 0");
  return true;
}

double DispersionOf(const std::vector<double>& times_s, DispersionIndex index) {
  const double sum = std::accumulate(times_s.begin(), times_s.end(), 0.0);
  if (times_s.empty() || !(sum > 0)) return kUnknown;
  const double ranks = static_cast<double>(times_s.size());
  const double mean = 1.0 / ranks;  // mean of the standardised times (they sum to 1)
  // Equal times are perfect balance: exactly 0, not rounding noise.
  auto [low, high] = std::minmax_element(times_s.begin(), times_s.end());
  if (*low == *high) return 0.0;
  const double mean_time_s = sum / ranks;
  double squares = 0, absolute = 0, largest = 0;
  for (double t : times_s) {
    // Calzarossa et al. 2004, eq. 1: t~_ijp - mean = (t_ijp - mean_p t_ijp) / sum_p t_ijp
    double deviation = (t - mean_time_s) / sum;
    squares += deviation * deviation;
    absolute += std::fabs(deviation);
    largest = std::max(largest, std::fabs(deviation));
  }
  switch (index) {
    case DispersionIndex::kEuclidean: return std::sqrt(squares);  // Calzarossa et al. 2004, eq. 2: ID_ij
    case DispersionIndex::kVariance: return squares / ranks;
    case DispersionIndex::kCoefficientOfVariation: return std::sqrt(squares / ranks) / mean;
    case DispersionIndex::kMeanAbsoluteDeviation: return absolute / ranks;
    case DispersionIndex::kChebyshev: return largest;
  }
  return kUnknown;
}

DissimilarityResult ComputeDissimilarity(const ActivityRegionTimes& times,
                                         const DissimilarityOptions& options) {
  CheckOptions(options);
  CheckNames(times.activities, times.regions);
  if (times.ranks < 1) throw std::invalid_argument("dissimilarity: ranks must be >= 1");
  const std::size_t n_activities = times.activities.size(), n_regions = times.regions.size();
  const auto n_ranks = static_cast<std::size_t>(times.ranks);
  if (times.time_s.size() != n_activities * n_regions * n_ranks)
    throw std::invalid_argument("dissimilarity: " + std::to_string(times.time_s.size()) +
                                " times for " + std::to_string(n_activities) + " activities x " +
                                std::to_string(n_regions) + " regions x " + std::to_string(n_ranks) +
                                " ranks");
  for (std::size_t k = 0; k < times.time_s.size(); ++k)
    if (!std::isfinite(times.time_s[k]) || times.time_s[k] < 0) {
      std::size_t rank = k % n_ranks, region = k / n_ranks % n_regions, activity = k / n_ranks / n_regions;
      throw std::invalid_argument("dissimilarity: time of '" + times.activities[activity] + "' in '" +
                                  times.regions[region] + "' on rank " + std::to_string(rank) +
                                  " is " + FormatDouble("%g", times.time_s[k]) +
                                  " (must be finite and >= 0)");
    }

  DissimilarityResult result;
  result.activity_names = times.activities;
  result.region_names = times.regions;
  result.ranks = times.ranks;
  result.cell_time_s.assign(n_activities * n_regions, 0.0);
  result.cell_index.assign(n_activities * n_regions, kUnknown);
  std::vector<double> slice(n_ranks);
  for (std::size_t a = 0; a < n_activities; ++a)
    for (std::size_t r = 0; r < n_regions; ++r) {
      const double* first = &times.time_s[times.Index(a, r, 0)];
      slice.assign(first, first + n_ranks);
      const double sum = std::accumulate(slice.begin(), slice.end(), 0.0);  // t_ij, eq. 1 denominator
      result.cell_time_s[a * n_regions + r] = sum;
      if (!(sum > options.min_cell_time_s) || !(sum > 0)) continue;
      CellDissimilarity cell;
      cell.activity = static_cast<int>(a);
      cell.region = static_cast<int>(r);
      cell.time_s = sum;
      cell.index = DispersionOf(slice, options.dispersion);
      auto heaviest = std::max_element(slice.begin(), slice.end());
      cell.heaviest_rank = static_cast<int>(heaviest - slice.begin());
      cell.heaviest_share = *heaviest / sum;
      result.cell_index[a * n_regions + r] = cell.index;
      result.cells.push_back(cell);
    }
  Aggregate(options, &result);
  return result;
}

DissimilarityResult AggregateDissimilarity(const CellIndices& cells, const DissimilarityOptions& options) {
  CheckOptions(options);
  CheckNames(cells.activities, cells.regions);
  const std::size_t n_activities = cells.activities.size(), n_regions = cells.regions.size();
  if (cells.time_s.size() != n_activities * n_regions || cells.index.size() != n_activities * n_regions)
    throw std::invalid_argument("dissimilarity: t_ij and ID_ij need " +
                                std::to_string(n_activities * n_regions) + " cells each");
  DissimilarityResult result;
  result.activity_names = cells.activities;
  result.region_names = cells.regions;
  result.ranks = cells.ranks;
  result.cell_time_s = cells.time_s;
  result.cell_index.assign(n_activities * n_regions, kUnknown);
  for (std::size_t a = 0; a < n_activities; ++a)
    for (std::size_t r = 0; r < n_regions; ++r) {
      const std::size_t k = a * n_regions + r;
      const double t = cells.time_s[k], id = cells.index[k];
      if (!std::isfinite(t) || t < 0 || (!std::isnan(id) && !(std::isfinite(id) && id >= 0)))
        throw std::invalid_argument("dissimilarity: cell '" + cells.activities[a] + "' @ '" +
                                    cells.regions[r] + "' has t_ij " + FormatDouble("%g", t) +
                                    ", ID_ij " + FormatDouble("%g", id));
      if (std::isnan(id) || !(t > options.min_cell_time_s) || !(t > 0)) {
        if (t > 0 && std::isnan(id))
          result.summary.notes.push_back("cell '" + cells.activities[a] + "' @ '" + cells.regions[r] +
                                         "' has time but no ID_ij; left out");
        continue;
      }
      CellDissimilarity cell;
      cell.activity = static_cast<int>(a);
      cell.region = static_cast<int>(r);
      cell.time_s = t;
      cell.index = id;
      result.cell_index[k] = id;
      result.cells.push_back(cell);
    }
  Aggregate(options, &result);
  return result;
}

std::string DissimilaritySummary::BriefReport() const {
  std::ostringstream out;
  const char* scaled = criterion == ImbalanceCriterion::kScaledIndex ? "SID" : "ID";
  out << ranks << " ranks, " << activities << " activities x " << regions << " regions ("
      << cells_performed << " performed): dominant activity "
      << (dominant_activity.empty() ? "-" : dominant_activity) << ", dominant region "
      << (dominant_region.empty() ? "-" : dominant_region) << "; ";
  if (most_imbalanced_activity.empty() && most_imbalanced_region.empty()) {
    out << "no imbalance (every index is 0 or undefined)";
    return out.str();
  }
  out << "most imbalanced activity " << (most_imbalanced_activity.empty() ? "-" : most_imbalanced_activity)
      << " (" << scaled << "_A " << FormatDouble("%.6g", most_imbalanced_activity_value) << "), region "
      << (most_imbalanced_region.empty() ? "-" : most_imbalanced_region) << " (" << scaled << "_C "
      << FormatDouble("%.6g", most_imbalanced_region_value) << ")";
  return out.str();
}

std::string DissimilaritySummary::FullReport() const {
  std::ostringstream out;
  out << "Dissimilarity (Calzarossa et al. 2004, index of dispersion: " << ToString(dispersion)
      << ", ranked by " << (criterion == ImbalanceCriterion::kScaledIndex ? "SID" : "ID") << ")\n"
      << BriefReport() << "\n";
  if (!dominant_region_in_dominant_activity.empty())
    out << "Region with the most time in the dominant activity: " << dominant_region_in_dominant_activity
        << "\n";
  auto list = [&](const char* title, const std::vector<Entry>& entries, bool with_scaled) {
    if (entries.empty()) return;
    out << title << "\n";
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const Entry& e = entries[k];
      out << "  " << k + 1 << ". " << e.name << ": ID " << FormatDouble("%.6g", e.index);
      if (with_scaled) out << ", SID " << FormatDouble("%.6g", e.scaled_index);
      out << ", time share " << (total_time_s > 0 ? Percent(e.time_s / total_time_s) : "-")
          << (e.candidate ? "  <- tuning candidate" : "") << "\n";
    }
  };
  list("Activities, most imbalanced first:", top_activities, true);
  list("Code regions, most imbalanced first:", top_regions, true);
  list("Cells (activity @ region) by ID_ij:", top_cells, false);
  for (const std::string& note : notes) out << "Note: " << note << "\n";
  return out.str();
}

}  // namespace qnm
