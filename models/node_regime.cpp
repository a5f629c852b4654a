#include "models/node_regime.h"

#include <set>

#include "util/text_format.h"

namespace qnm {

namespace {

bool SeveralNodes(const RunLayout& run) {
  return run.nodes > 0 ? run.nodes >= 2 : run.procs > run.ranks_per_node;
}

}  // namespace

int SeriesRanksPerNode(const std::vector<RunLayout>& runs) {
  std::set<int> all, multi_node;
  for (const RunLayout& run : runs) {
    if (run.ranks_per_node <= 0) return 0;  // a run that does not say
    all.insert(run.ranks_per_node);
    if (SeveralNodes(run)) multi_node.insert(run.ranks_per_node);
  }
  if (multi_node.empty()) return all.size() == 1 ? *all.begin() : 0;
  if (multi_node.size() != 1) return 0;
  const int per_node = *multi_node.begin();
  for (const RunLayout& run : runs)  // a single-node run must fit on one such node
    if (!SeveralNodes(run) && (run.ranks_per_node > per_node || run.procs > per_node)) return 0;
  return per_node;
}

NodeRegimeSplit SplitAtNodeBoundary(const std::vector<std::pair<int, double>>& points, int ranks_per_node,
                                    int min_multi_node_points) {
  NodeRegimeSplit split;
  split.fitted = points;
  if (ranks_per_node <= 0) return split;
  std::vector<std::pair<int, double>> single, multi;
  for (const auto& point : points) (point.first <= ranks_per_node ? single : multi).push_back(point);
  if (single.empty() || static_cast<int>(multi.size()) < min_multi_node_points) return split;
  const auto& [last_single_procs, last_single_s] = single.back();
  const auto& [first_multi_procs, first_multi_s] = multi.front();
  if (!(first_multi_s > last_single_s)) return split;  // no jump: one regime as far as the data tell
  split.fitted = multi;
  split.dropped = static_cast<int>(single.size());
  split.note = "leaving the node is a regime change: P=" + std::to_string(first_multi_procs) + " (" +
               std::to_string(ranks_per_node) + " ranks per node, more than one node) took " +
               FormatDouble("%.4g", first_multi_s) + " s, more than P=" + std::to_string(last_single_procs) +
               " on one node (" + FormatDouble("%.4g", last_single_s) + " s); the curve is fitted to the " +
               std::to_string(multi.size()) + " multi-node runs, the " + std::to_string(single.size()) +
               " single-node one" + (single.size() == 1 ? "" : "s") + " left out";
  return split;
}

namespace {

/// "the parallel efficiency went to X% from P=a to P=b", T(a) a / (T(b) b) over the first positive
/// and the last training point; empty when fewer than two points are positive.
std::string InNodeEfficiency(const std::vector<std::pair<int, double>>& points) {
  const std::pair<int, double>* first = nullptr;
  for (const auto& point : points)
    if (point.second > 0 && point.first > 0) {
      first = &point;
      break;
    }
  if (first == nullptr) return "";
  const auto& last = points.back();
  if (first == &last || !(last.second > 0)) return "";
  const double efficiency = first->second * first->first / (last.second * last.first);
  return "the parallel efficiency went to " + FormatDouble("%.0f", 100 * efficiency) + "% from P=" +
         std::to_string(first->first) + " to P=" + std::to_string(last.first);
}

const char kEitherWay[] =
    "A multi-node run may be slower (network costs) or scale better (an efficiency lost to the node's shared "
    "memory bandwidth stops falling at its boundary: each new node brings its own); no training run tells which";

}  // namespace

std::string InNodeTrainingNote(const std::vector<std::pair<int, double>>& points, int ranks_per_node) {
  if (ranks_per_node <= 0 || points.empty() || points.back().first > ranks_per_node) return "";
  const std::string efficiency = InNodeEfficiency(points);
  if (efficiency.empty()) return "";
  return "every training run fits on one node (" + std::to_string(ranks_per_node) +
         " ranks per node): beyond P=" + std::to_string(ranks_per_node) +
         " the predictions carry on the trend inside the node, where " + efficiency + ". " + kEitherWay;
}

std::string OneNodeOfUnknownSizeNote(const std::vector<std::pair<int, double>>& points) {
  if (points.empty()) return "";
  const std::string efficiency = InNodeEfficiency(points);
  return "every training run ran on one node, and the data do not say how many ranks a node holds: a prediction "
         "beyond P=" + std::to_string(points.back().first) + " may be of a multi-node run, while the predictions "
         "carry on the trend inside the node" + (efficiency.empty() ? "" : ", where " + efficiency) + ". " +
         kEitherWay + " (--ranks-per-node tells which predictions leave the node)";
}

}  // namespace qnm
