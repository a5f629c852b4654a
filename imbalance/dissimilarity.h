#pragma once
// Load-imbalance dissimilarity indices of Calzarossa, Massari and Tessera
// (Calzarossa, Massari, Tessera 2004, "A Methodology Towards Automatic Performance Analysis of Parallel
// Applications", §2-§3) over activities x code regions x ranks.
//
// Index convention. The paper writes t_ijp with i = code region, j = activity;
// this header (ActivityRegionTimes) stores activity-major, so the paper's
// ID_ij is `cell_index[activity * regions + region]` here. Equation numbers
// below count the displayed equations of §3 in order:
//   eq. 1  standardised times   t~_ijp = t_ijp / sum_p t_ijp
//   eq. 2  ID_ij   = sqrt(sum_p (t~_ijp - mean_p t~_ijp)^2)   (Euclidean, the paper's choice)
//   eq. 3  ID_A_j  = sum_i (t_ij / T_j) ID_ij
//   eq. 4  SID_A_j = (T_j / sum_j T_j) ID_A_j
//   eq. 5  ID_C_i  = sum_j (t_ij / t_i) ID_ij
//   eq. 6  SID_C_i = (t_i / sum_i t_i) ID_C_i
// t_ij is the time all ranks spend in activity j of region i (the denominator
// of eq. 1); T_j = sum_i t_ij, t_i = sum_j t_ij (Table 1). Every weight is a
// ratio of such times, so summing or averaging over ranks gives the same
// indices; the result stores sums and reports also show means per rank.
#include <cstddef>
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// t_ijp: time of activity i in code region j on rank p (Calzarossa et al. 2004 notation).
struct ActivityRegionTimes {
  std::vector<std::string> activities;  // "computation", "p2p", "collective", "synchronization", "rma", ...
  std::vector<std::string> regions;     // code regions / call paths / call sites
  int ranks = 0;
  std::vector<double> time_s;           // size activities x regions x ranks, index At()

  void Resize(std::size_t n_activities, std::size_t n_regions, int n_ranks) {
    ranks = n_ranks;
    time_s.assign(n_activities * n_regions * static_cast<std::size_t>(n_ranks), 0.0);
  }
  std::size_t Index(std::size_t activity, std::size_t region, int rank) const {
    return (activity * regions.size() + region) * static_cast<std::size_t>(ranks) +
           static_cast<std::size_t>(rank);
  }
  double& At(std::size_t activity, std::size_t region, int rank) { return time_s[Index(activity, region, rank)]; }
  double At(std::size_t activity, std::size_t region, int rank) const { return time_s[Index(activity, region, rank)]; }
};

/// The index of dispersion of the standardised times of one cell. Calzarossa et al. 2004, §3
/// lists variance, coefficient of variation, Euclidean distance, mean absolute
/// deviation and the maximum as candidates and chooses the Euclidean distance.
enum class DispersionIndex {
  kEuclidean,               // sqrt(sum_p (t~ - 1/P)^2): Calzarossa et al. 2004, eq. 2 (the paper's index)
  kVariance,                // (1/P) sum_p (t~ - 1/P)^2
  kCoefficientOfVariation,  // population std. deviation of t~ / mean of t~ (= P * std. dev.)
  kMeanAbsoluteDeviation,   // (1/P) sum_p |t~ - 1/P|
  kChebyshev,               // max_p |t~ - 1/P| (maximum distance from perfect balance)
};
const char* ToString(DispersionIndex index);
/// Parses "euclidean", "variance", "cov", "mad", "chebyshev"; false if unknown.
bool ParseDispersionIndex(const std::string& text, DispersionIndex* index);

/// What orders activities and regions from most to least imbalanced.
enum class ImbalanceCriterion {
  kScaledIndex,  // SID_A / SID_C: Calzarossa et al. 2004, §3 ranks by these ("most suitable candidates")
  kIndex,        // ID_A / ID_C: imbalance regardless of how much time is at stake
};
const char* ToString(ImbalanceCriterion criterion);

struct DissimilarityOptions {
  /// Index of dispersion for ID_ij; the paper's is the Euclidean distance.
  DispersionIndex dispersion = DispersionIndex::kEuclidean;
  /// Ranking criterion for activities and regions (paper: maximum SID).
  ImbalanceCriterion criterion = ImbalanceCriterion::kScaledIndex;
  /// Calzarossa et al. 2004, §3 allows "predefined thresholds" as severity criterion: an
  /// activity/region whose criterion value is >= this is a tuning candidate.
  /// NaN (default) = the paper's criterion: only the maximum is a candidate.
  double severity_threshold = kUnknown;
  /// A cell (activity, region) whose t_ij summed over ranks is <= this is
  /// "not performed" (a '-' in the paper's Table 7): no ID_ij, weight 0.
  double min_cell_time_s = 0.0;
  /// Length of the ranked lists in the Summary reports (0 = all).
  int report_top = 10;

  bool IsValid(std::string* error) const;
};

/// One activity j: its time, eqs. 3-4, and its best/worst regions (§2).
struct ActivityDissimilarity {
  std::string name;
  double time_s = 0;        // T_j, summed over ranks
  double time_share = 0;    // T_j / sum_j T_j
  double index = kUnknown;  // ID_A_j (eq. 3); NaN when T_j = 0
  double scaled_index = kUnknown;  // SID_A_j (eq. 4); NaN when T_j = 0
  int regions_performed = 0;       // cells with t_ij > min_cell_time_s
  int worst_region = -1;           // region with maximum t_ij in this activity (§2)
  int best_region = -1;            // region with minimum positive t_ij (§2)
  int most_imbalanced_region = -1; // region with maximum ID_ij in this activity
  bool candidate = false;          // passes the severity criterion
};

/// One code region i: its time and eqs. 5-6.
struct RegionDissimilarity {
  std::string name;
  double time_s = 0;        // t_i, summed over ranks
  double time_share = 0;    // t_i / sum_i t_i
  double index = kUnknown;  // ID_C_i (eq. 5); NaN when t_i = 0
  double scaled_index = kUnknown;  // SID_C_i (eq. 6); NaN when t_i = 0
  int dominant_activity = -1;      // activity with maximum t_ij in this region
  bool candidate = false;
};

/// One (activity, region) pair with its ID_ij.
struct CellDissimilarity {
  int activity = -1, region = -1;
  double time_s = 0;        // t_ij, summed over ranks
  double index = kUnknown;  // ID_ij (eq. 2 or the chosen dispersion index)
  int heaviest_rank = -1;   // argmax_p t~_ijp (-1 when ranks are unknown)
  double heaviest_share = kUnknown;  // max_p t~_ijp; perfect balance = 1/P
};

struct DissimilaritySummary {
  int ranks = 0, activities = 0, regions = 0;
  int cells_performed = 0;   // cells with an ID_ij
  double total_time_s = 0;   // sum_j T_j = sum_i t_i, summed over ranks
  DispersionIndex dispersion = DispersionIndex::kEuclidean;
  ImbalanceCriterion criterion = ImbalanceCriterion::kScaledIndex;
  std::string dominant_activity, dominant_region;  // maximum T_j, maximum t_i (§2)
  std::string dominant_region_in_dominant_activity;  // maximum t_ij in that activity (§2)
  std::string most_imbalanced_activity, most_imbalanced_region;  // maximum criterion value > 0, else empty
  double most_imbalanced_activity_value = kUnknown, most_imbalanced_region_value = kUnknown;
  /// The first options.report_top entries of each ranking (most imbalanced first).
  struct Entry {
    std::string name;        // activity, region, or "activity @ region" for a cell
    double time_s = 0;       // T_j, t_i or t_ij, summed over ranks
    double index = kUnknown;         // ID_A, ID_C or ID_ij
    double scaled_index = kUnknown;  // SID_A, SID_C (NaN for cells)
    bool candidate = false;
  };
  std::vector<Entry> top_activities, top_regions, top_cells;
  std::vector<std::string> notes;  // e.g. "synchronization: T_j = 0, no index"

  /// One line: dominant and most imbalanced activity and region.
  std::string BriefReport() const;
  /// Several lines: the brief report, the ranked lists, the notes.
  std::string FullReport() const;
};

struct DissimilarityResult {
  std::vector<std::string> activity_names, region_names;
  int ranks = 0;
  /// t_ij (summed over ranks) and ID_ij per cell, activity-major
  /// [activity * regions + region]; ID is NaN where the cell is not performed.
  std::vector<double> cell_time_s, cell_index;
  std::vector<CellDissimilarity> cells;            // performed cells only, activity-major
  std::vector<ActivityDissimilarity> activities;   // one per activity, input order
  std::vector<RegionDissimilarity> regions;        // one per region, input order
  int dominant_activity = -1, dominant_region = -1;
  int dominant_region_in_dominant_activity = -1;
  /// Indices into activities / regions / cells, most imbalanced first (by the
  /// criterion for activities and regions, by ID_ij for cells); entries
  /// without an index (zero time) are left out.
  std::vector<int> activity_ranking, region_ranking, cell_ranking;
  DissimilaritySummary summary;

  double CellTime(std::size_t activity, std::size_t region) const {
    return cell_time_s[activity * region_names.size() + region];
  }
  double CellIndex(std::size_t activity, std::size_t region) const {
    return cell_index[activity * region_names.size() + region];
  }
};

/// Eqs. 1-6 and the ranking from per-rank times. Throws std::invalid_argument
/// when sizes disagree, ranks < 1, a time is negative or not finite, or the
/// options are invalid.
DissimilarityResult ComputeDissimilarity(const ActivityRegionTimes& times,
                                         const DissimilarityOptions& options);

/// Per-cell input of eqs. 3-6 when only t_ij and ID_ij are known (e.g. a
/// paper's published tables); activity-major like ActivityRegionTimes.
struct CellIndices {
  std::vector<std::string> activities, regions;
  int ranks = 0;                   // 0 when unknown
  std::vector<double> time_s;      // t_ij (any consistent unit / aggregation)
  std::vector<double> index;       // ID_ij; NaN where the cell is not performed
};

/// Eqs. 3-6 and the ranking from given t_ij and ID_ij (options.dispersion only
/// labels the result). Throws std::invalid_argument on inconsistent input.
DissimilarityResult AggregateDissimilarity(const CellIndices& cells,
                                           const DissimilarityOptions& options);

/// Index of dispersion of one cell's per-rank times (eqs. 1-2 for Euclidean);
/// NaN when the times sum to 0. Exposed for callers with their own layout.
double DispersionOf(const std::vector<double>& times_s, DispersionIndex index);

}  // namespace qnm
