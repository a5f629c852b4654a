#pragma once
// The series accuracy_bench scores: the runtime tables of bench/data (scaling/,
// scaling2/) with Extra-P's predictions beside them, and any path the ingest
// layer reads (mpiP campaigns, NPB tables). An Entry is one series as it is
// scored: its source (the unit left out), its training process counts and
// what counts as measured.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "record/run_stats.h"

namespace accuracy {

using qnm::Series;

/// One series of the corpus and how it is scored.
struct Entry {
  std::string source;
  const Series* series = nullptr;
  std::vector<int> train;
  const std::map<int, double>* peer = nullptr;
  double (*truth)(const qnm::RunGroup&) = nullptr;  // measured value of a group (default: median time)
};

/// The source (repository or campaign) a series comes from: the unit left out.
std::string SourceOf(const std::string& series);

/// A runtime series table: `series,procs,time_s,...[,ranks_per_node,threads,nodes,machine]`;
/// `first_set`: the first development set, whose ranks per node come from its SOURCES.md.
std::vector<Series> LoadRuntimeTable(const std::string& path, bool first_set);
/// Every series the ingest layer reads under `paths`.
std::vector<Series> Load(const std::vector<std::string>& paths);
/// Peer predictions (an extrap_baseline.csv): series -> P -> predicted time.
std::map<std::string, std::map<int, double>> ReadPeer(const std::string& path);

/// The series' (procs, median time) with a known positive time, ascending P.
std::vector<std::pair<int, double>> Times(const Series& series);
/// The k smallest process counts (the peer's protocol); empty when fewer than k + 1.
std::vector<int> Smallest(const Series& series, int k);
/// The median over a group's runs of the largest per-rank mpiP AppTime (the group's median time without it).
double AppTimeMax(const qnm::RunGroup& group);

/// The 164 runtime series of bench/data, trained on their 5 smallest P as Extra-P was. The
/// entries point into `series` and `peer`: a RuntimeCorpus is built in place and not copied.
struct RuntimeCorpus {
  std::vector<std::vector<Series>> series;              // scaling/, scaling2/, then each --extra folder
  std::map<std::string, std::map<int, double>> peer;    // Extra-P's predictions
  std::vector<Entry> entries;
  RuntimeCorpus() = default;
  RuntimeCorpus(const RuntimeCorpus&) = delete;
  RuntimeCorpus& operator=(const RuntimeCorpus&) = delete;
};
/// bench/data's two runtime tables, then each folder of `extra` (its `series.csv` in scaling2's
/// layout and, when present, Extra-P's predictions in `extrap_baseline.csv`): further sources.
std::unique_ptr<RuntimeCorpus> LoadRuntimeCorpus(const std::string& data,
                                                 const std::vector<std::string>& extra = {});

}  // namespace accuracy
