#pragma once
// Leaving the node is a regime change: runs on one node exchange messages
// through shared memory, runs on several through the network, and a
// strong-scaling curve fitted across the boundary bends to join the two
// regimes and extrapolates neither (a series is 2x slower at P = 2 than at
// P = 1 when each rank has a node of its own). Every prediction beyond the
// training range is a multi-node run, so when the data show the jump — the
// first multi-node training run slower than the last single-node one, which
// strong scaling alone never does — the curve is fitted to the multi-node runs.
#include <string>
#include <utility>
#include <vector>

namespace qnm {

struct NodeRegimeSplit {
  std::vector<std::pair<int, double>> fitted;  // the points the curve is fitted to
  int dropped = 0;                             // single-node points left out
  std::string note;                            // why, for the model's notes; empty when nothing was dropped
};

/// One run's layout: processes, nodes and ranks per node (0 = unknown).
struct RunLayout {
  int procs = 0, nodes = 0, ranks_per_node = 0;
};

/// The ranks per node of a series: the value its multi-node runs share, provided every
/// single-node run fits on one such node (a run of 16 ranks on one node of a series run with 32
/// per node says 16 ranks per node of its own); with no multi-node run, the value every run
/// gives (a table's column). 0 when a run does not say, or the runs disagree.
int SeriesRanksPerNode(const std::vector<RunLayout>& runs);

/// `points` (procs, time_s) sorted by procs; `ranks_per_node` <= 0 (unknown)
/// keeps every point. Single-node points are left out only when at least
/// `min_multi_node_points` multi-node points remain and the time rises across
/// the node boundary.
NodeRegimeSplit SplitAtNodeBoundary(const std::vector<std::pair<int, double>>& points, int ranks_per_node,
                                    int min_multi_node_points = 3);

/// When every training point (procs, time_s; sorted by procs) fits on one node of
/// `ranks_per_node` ranks, what the data cannot tell beyond it, with the parallel efficiency
/// T(P_min) P_min / (T(P_max) P_max) the runs reached inside the node; empty when a training run
/// already spans several nodes, the layout is unknown, or fewer than two points are positive.
/// Both ways are real: network costs can make the first multi-node run jump, and an efficiency
/// lost to the node's shared memory bandwidth stops falling at its boundary, each new node
/// bringing its own (bench/README.md, round 9: the wavetrisk series, 37% on one node of Niagara,
/// then near-perfect scaling to 64 nodes; amgcl's SuperMUC series kept losing beyond the node).
std::string InNodeTrainingNote(const std::vector<std::pair<int, double>>& points, int ranks_per_node);

/// The same when every training run says it ran on one node (RunStats::nodes == 1) but not how
/// many ranks a node holds (ranks per node unknown): where the node ends is not known, so every
/// prediction beyond the training range may be of a multi-node run. Empty for no points.
std::string OneNodeOfUnknownSizeNote(const std::vector<std::pair<int, double>>& points);

}  // namespace qnm
