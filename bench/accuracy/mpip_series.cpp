#include "bench/accuracy/mpip_series.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "bench/accuracy/configurations.h"
#include "bench/accuracy/corpus.h"
#include "bench/accuracy/tables.h"

namespace accuracy {

std::vector<ScoredSet> RunMpipAndTables(const std::string& data, const std::string& tests,
                                        const qnm::PredictionOptions& shipped, const qnm::PredictionOptions& uniform) {
  std::vector<Series> mpip_scaling = Load({data + "/mpip-scaling"});
  std::vector<Series> cab = Load({tests + "/mpip"});
  std::vector<Series> npb = Load({tests + "/npb/npb_series_median.csv"});
  std::vector<ScoredSet> extras;
  // The queueing model's input curves weigh their candidates with the same temperature
  // (RuntimeModelOptions::weight_temperature); for each mpiP source it is chosen on the other
  // one: mpip-scaling (train 1..16) and cab's NPB-MZ (train 1..8), mean |log error| at the largest P.
  std::vector<Entry> mpip_entries, cab_entries;
  for (const Series& s : mpip_scaling)
    mpip_entries.push_back(Entry{"mpip-scaling", &s, {1, 2, 4, 8, 16}, nullptr, &AppTimeMax});
  for (const Series& s : cab)
    if (s.name.find("-mz.C") != std::string::npos)
      cab_entries.push_back(Entry{"cab", &s, {1, 2, 4, 8}, nullptr, nullptr});
  auto input_temperature = [&](const std::vector<Entry>& others, std::string* row) {
    std::vector<double> objectives;
    for (double t : kTemperatures) {
      qnm::PredictionOptions o = shipped;
      o.runtime.weight_temperature = t;
      double sum = 0;
      for (const Entry& e : others) sum += LastLogError(LastPrediction(e, o));
      const double objective = sum / std::max<std::size_t>(1, others.size());
      char cell[32];
      std::snprintf(cell, sizeof cell, " %.4f |", objective);
      *row += cell;
      objectives.push_back(objective);
    }
    const double best = kTemperatures[ArgMin(objectives)];
    char chosen[32];
    std::snprintf(chosen, sizeof chosen, " %.1f |\n", best);
    *row += chosen;
    return best;
  };
  std::string mpip_row = "| mpip-scaling (chosen on cab) |", cab_row = "| cab (chosen on mpip-scaling) |";
  qnm::PredictionOptions mpip_options = shipped, cab_options = shipped;
  mpip_options.runtime.weight_temperature = input_temperature(cab_entries, &mpip_row);
  cab_options.runtime.weight_temperature = input_temperature(mpip_entries, &cab_row);
  std::vector<Entry> both = cab_entries;
  both.insert(both.end(), mpip_entries.begin(), mpip_entries.end());
  std::string both_row = "| (none: what the tool ships; both) |";
  input_temperature(both, &both_row);
  std::printf("\n## mpiP-driven series and NPB tables\n\nThe queueing model's input curves' weight "
              "temperature for each mpiP source, chosen on the other (mean |log error| at the largest P):"
              "\n\n| left out |");
  for (double t : kTemperatures) std::printf(" temperature %.1f |", t);
  std::printf(" chosen |\n|---|");
  for (std::size_t k = 0; k <= std::size(kTemperatures); ++k) std::printf("---:|");
  std::printf("\n%s%s%s\n", mpip_row.c_str(), cab_row.c_str(), both_row.c_str());
  ScoredSet th8_16{"mpip-scaling: NPB-MZ C th=8, train 1..16 -> 32,64,128 (vs mpiP AppTime max)", {}};
  ScoredSet th8_8{"mpip-scaling: NPB-MZ C th=8, train 1..8 -> 16..128 (vs mpiP AppTime max)", {}};
  for (const Series& s : mpip_scaling) {
    for (auto [train, set] : {std::pair{std::vector<int>{1, 2, 4, 8, 16}, &th8_16},
                              std::pair{std::vector<int>{1, 2, 4, 8}, &th8_8}}) {
      Entry e{"mpip-scaling", &s, train, nullptr, &AppTimeMax};
      SeriesResult r = Score(e, mpip_options, uniform);
      r.note = RiseNote(e, mpip_options);
      set->results.push_back(r);
    }
  }
  extras.push_back(th8_16);
  extras.push_back(th8_8);
  ScoredSet mz8{"NPB-MZ C on cab (mpiP), train 1,2,4,8 -> 16", {}};
  ScoredSet mz4{"NPB-MZ C on cab (mpiP), train 1,2,4 -> 8,16", {}};
  for (const Entry& e8 : cab_entries) {  // trained on 1, 2, 4, 8
    SeriesResult r = Score(e8, cab_options, uniform);
    r.note = RiseNote(e8, cab_options);
    mz8.results.push_back(r);
    mz4.results.push_back(Score(Entry{"cab", e8.series, {1, 2, 4}, nullptr, nullptr}, cab_options, uniform));
  }
  extras.push_back(mz8);
  extras.push_back(mz4);
  ScoredSet tables{"NPB tables (runtime only; train min(5, n-1) smallest P)", {}};
  for (const Series& s : npb) {
    int n = static_cast<int>(Times(s).size());
    if (n < 4) continue;
    tables.results.push_back(Score(Entry{"npb", &s, Smallest(s, std::min(5, n - 1)), nullptr, nullptr},
                                   shipped, uniform));
  }
  extras.push_back(tables);

  PrintTotalsHeader();
  for (const ScoredSet& x : extras) {
    Totals t;
    for (const SeriesResult& s : x.results) t.Add(s);
    PrintTotals(x.label, t);
  }
  return extras;
}

}  // namespace accuracy
