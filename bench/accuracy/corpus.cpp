#include "bench/accuracy/corpus.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "ingest/ingest.h"
#include "util/statistics.h"

namespace accuracy {
namespace {

/// One field list of a CSV line with double-quoted fields ("a, b" stays one field).
std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else if (c != '\r') out.back() += c;
  }
  return out;
}

/// Ranks per node of the first development set, from its SOURCES.md (machine
/// cores per node / OpenMP threads per rank); 0 when the series says nothing.
int RanksPerNodeOfScalingSeries(const std::string& name) {
  int cores = 0;
  if (name.find("AWSc6gn") != std::string::npos) cores = 64;
  else if (name.find("SuperMUC") != std::string::npos) cores = 28;
  else if (name.find("MareNostrum4") != std::string::npos) cores = 48;
  else if (name.find("niagara") != std::string::npos) cores = 40;
  else if (name.find("bbserv") != std::string::npos) cores = 32;
  int threads = 1;
  std::size_t omp = name.find("-omp");
  if (omp != std::string::npos) threads = std::max(1, std::atoi(name.c_str() + omp + 4));
  return cores / threads;
}

}  // namespace

/// The source (repository or campaign) a series comes from: the unit left out.
std::string SourceOf(const std::string& series) {
  std::string prefix = series.substr(0, series.find('-'));
  if (prefix == "trilinosML") return "amgcl";  // same repository (ddemidov/amgcl benchmark data)
  return prefix;
}

/// A runtime series table: `series,procs,time_s,...[,ranks_per_node,threads,nodes,machine]`.
std::vector<Series> LoadRuntimeTable(const std::string& path, bool first_set) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header = SplitCsv(line);
  auto column = [&](const char* name) {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  int rpn = column("ranks_per_node"), nodes = column("nodes"), threads = column("threads"),
      machine = column("machine");
  std::vector<qnm::RunStats> runs;
  while (std::getline(in, line)) {
    std::vector<std::string> f = SplitCsv(line);
    if (f.size() < 3) continue;
    qnm::RunStats run;
    run.series = f[0];
    run.procs = std::stoi(f[1]);
    run.wall_time_s = std::stod(f[2]);
    // An empty cell is unknown (tables gathered elsewhere leave what their files do not say).
    auto known = [&](int k) { return k >= 0 && k < static_cast<int>(f.size()) && !f[k].empty(); };
    if (known(rpn)) run.ranks_per_node = std::stoi(f[rpn]);
    else if (first_set) run.ranks_per_node = RanksPerNodeOfScalingSeries(f[0]);
    if (known(nodes)) run.nodes = std::stoi(f[nodes]);
    else if (run.ranks_per_node > 0) run.nodes = (run.procs + run.ranks_per_node - 1) / run.ranks_per_node;
    if (known(threads)) run.threads_per_proc = std::stoi(f[threads]);
    if (machine >= 0 && machine < static_cast<int>(f.size())) run.machine = f[machine];
    run.sources = {path};
    runs.push_back(run);
  }
  return qnm::GroupIntoSeries(std::move(runs));
}

std::vector<Series> Load(const std::vector<std::string>& paths) {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths(paths, qnm::IngestOptions(), &summary);
  for (qnm::RunStats& run : runs) run.Derive();
  return qnm::GroupIntoSeries(std::move(runs));
}

/// Peer predictions: series -> P -> predicted time.
std::map<std::string, std::map<int, double>> ReadPeer(const std::string& path) {
  std::map<std::string, std::map<int, double>> peer;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // series,p_train_max,p_test,measured,extrap_pred,rel_err,model
  while (std::getline(in, line)) {
    std::vector<std::string> f = SplitCsv(line);
    if (f.size() < 6) continue;
    peer[f[0]][std::stoi(f[2])] = std::stod(f[4]);
  }
  return peer;
}

std::vector<std::pair<int, double>> Times(const Series& series) {
  std::vector<std::pair<int, double>> out;
  for (const qnm::RunGroup& group : series.groups)
    if (qnm::Known(group.median_time_s) && group.median_time_s > 0)
      out.emplace_back(group.procs, group.median_time_s);
  return out;
}

/// The k smallest process counts (the peer's protocol); empty when fewer than k + 1.
std::vector<int> Smallest(const Series& series, int k) {
  std::vector<int> procs;
  for (const auto& [p, t] : Times(series)) procs.push_back(p);
  if (static_cast<int>(procs.size()) <= k) return {};
  procs.resize(k);
  return procs;
}

double AppTimeMax(const qnm::RunGroup& group) {
  std::vector<double> values;
  for (const qnm::RunStats& run : group.runs)
    if (qnm::Known(run.app_time_max_s)) values.push_back(run.app_time_max_s);
  return values.empty() ? group.median_time_s : qnm::MedianOfKnown(values);
}

std::unique_ptr<RuntimeCorpus> LoadRuntimeCorpus(const std::string& data, const std::vector<std::string>& extra) {
  auto corpus = std::make_unique<RuntimeCorpus>();
  corpus->series.push_back(LoadRuntimeTable(data + "/scaling/scaling_series.csv", true));
  corpus->series.push_back(LoadRuntimeTable(data + "/scaling2/series.csv", false));
  std::vector<std::string> peers = {data + "/scaling/extrap_baseline.csv", data + "/scaling2/extrap_baseline.csv"};
  for (const std::string& folder : extra) {
    corpus->series.push_back(LoadRuntimeTable(folder + "/series.csv", false));
    peers.push_back(folder + "/extrap_baseline.csv");  // absent: Extra-P's column stays empty
  }
  for (const std::string& path : peers) {
    auto peer = ReadPeer(path);
    corpus->peer.insert(peer.begin(), peer.end());
  }
  for (const std::vector<Series>& set : corpus->series)
    for (const Series& s : set) {
      Entry e;
      e.source = SourceOf(s.name);
      e.series = &s;
      e.train = Smallest(s, 5);
      if (e.train.empty()) continue;
      auto it = corpus->peer.find(s.name);
      e.peer = it == corpus->peer.end() ? nullptr : &it->second;
      corpus->entries.push_back(e);
    }
  return corpus;
}

}  // namespace accuracy
