// The extrapolation protocol on every series the project holds, scored source
// by source. Train on the k smallest process counts, predict every larger one,
// compare with what was measured, beside Extra-P 4.2 (its predictions on the
// same protocol, bench/data/*/extrap_baseline.csv), a plain Amdahl fit
// (a + b/P, non-negative relative least squares) and the naive "last training
// point x P_last / P" (perfect scaling from the edge).
//
// Headline: leave one source out, what the tool does: every series predicted with its
// configuration (kShippedRuntimeConfiguration) at the weight temperature and interval rate chosen
// on the other sources. Beside it each model configuration (uniform average, node terms, Occam's
// window, the corpus prior over candidate curves of models/extrapolation_prior.h, Amdahl alone,
// the cost laws) is scored on the other sources, the best is chosen there and only then applied
// to the scored source (the choice per source); the prior is learned without the scored source too. Beside "ours": the plain
// uniform average ("uniform"), the weighting of the previous round. The parts
// are in bench/accuracy/: the corpus, scoring, the configurations, the tables,
// and the two sections (leave one source out; mpiP series and NPB tables).
//
// Usage: accuracy_bench [--data DIR] [--tests DIR] [--quiet] [--dump FILE] [--write-prior FILE] [--force CONFIG]
//                       [--objective mean|median|wins|balanced|regret] [--extra DIR]...
//                       [--coverage-weight point|source]
//   --data        bench/data (scaling/, scaling2/, mpip-scaling/)
//   --tests       the project's tests/data (NPB tables, mpiP reports of NPB-MZ on cab)
//   --quiet       only the summaries, no per-series rows
//   --dump        every held-out point of the leave-one-source-out results, signed, as CSV
//   --write-prior the corpus prior learned on every source, as JSON (not shipped: not chosen)
//   --extra       a folder of further runtime series (series.csv in scaling2/'s layout, optionally
//                 Extra-P's extrap_baseline.csv): their sources join the leave-one-source-out
//                 protocol (e.g. a set gathered after the tool's choices were made; bench/heldout_study.py)
//   --coverage-weight  the interval rate is chosen so that the other sources' held-out points
//                 (point, the default) or the mean of their per-source shares (source) are 90% inside
//   --force       every source gets configuration CONFIG (its best temperature on the other sources);
//                 default: the tool's, nodes + split + cost 0.5; "per-series": the tool of rounds 15-23
//   --objective   what the leave-one-source-out choice minimises over the other sources' series:
//                 the mean (default) or median |log error| at the largest P, or the share of
//                 series not better than Extra-P there (the tables then show that value),
//                 "balanced": the mean over the other sources of each source's mean |log error|
//                 (every source weighs one, whatever its number of series), or "regret": the
//                 worst other source's mean |log error| over the least any configuration
//                 reaches on that source (minimax regret)

#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/accuracy/corpus.h"
#include "bench/accuracy/leave_one_source_out.h"
#include "bench/accuracy/mpip_series.h"
#include "bench/accuracy/tables.h"

int main(int argc, char** argv) {
  using namespace accuracy;
  std::string data = "bench/data", tests = "tests/data";
  bool quiet = false;
  std::string force;
  std::vector<std::string> extra;
  ChoiceOptions choice;
  for (int k = 1; k < argc; ++k) {
    std::string arg = argv[k];
    if (arg == "--data" && k + 1 < argc) data = argv[++k];
    else if (arg == "--tests" && k + 1 < argc) tests = argv[++k];
    else if (arg == "--write-prior" && k + 1 < argc) choice.write_prior = argv[++k];
    else if (arg == "--quiet") quiet = true;
    else if (arg == "--dump" && k + 1 < argc) choice.dump = argv[++k];
    else if (arg == "--force" && k + 1 < argc) force = argv[++k];
    else if (arg == "--objective" && k + 1 < argc) choice.objective = argv[++k];
    else if (arg == "--extra" && k + 1 < argc) extra.push_back(argv[++k]);
    else if (arg == "--coverage-weight" && k + 1 < argc) choice.coverage_weight = argv[++k];
    else {
      std::fprintf(stderr, "accuracy_bench: unknown argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  // --force NAME: every source gets configuration NAME (at its best temperature on the other
  // sources) instead of the leave-one-source-out choice; for the "what it did everywhere" rows.
  if (!force.empty()) {
    choice.forced = force == qnm::kPerSeriesConfiguration ? std::size(kConfigs) : std::size(kConfigs) + 1;
    for (std::size_t k = 0; k < std::size(kConfigs); ++k)
      if (force == kConfigs[k].name) choice.forced = k;
    if (choice.forced > std::size(kConfigs)) {
      std::fprintf(stderr, "accuracy_bench: no configuration named '%s'\n", force.c_str());
      return 2;
    }
  }
  if (std::string error; !choice.IsValid(&error)) {
    std::fprintf(stderr, "accuracy_bench: %s\n", error.c_str());
    return 2;
  }
  try {
    // The 164 runtime series of six sources, Extra-P's protocol (5 smallest P).
    std::unique_ptr<RuntimeCorpus> corpus = LoadRuntimeCorpus(data, extra);
    // Beside "ours": the candidate average with uniform weights and no Occam's window.
    qnm::PredictionOptions uniform;
    uniform.choose_configuration = false;
    uniform.runtime.more_terms_gain = 1.0;
    uniform.runtime.node_terms = false;
    uniform.runtime.weight_temperature = 1.0;  // round 3's weighting and interval rate, the baseline column
    uniform.runtime.error.prior_log_sd_per_octave = 0.3;
    const LeaveOneSourceOutResult headline = RunLeaveOneSourceOut(corpus->entries, uniform, choice);
    // The mpiP-driven series (the queueing model) and the NPB tables.
    const std::vector<ScoredSet> extras = RunMpipAndTables(data, tests, headline.shipped, uniform);
    if (!quiet) {
      std::printf("\n<details><summary>Per series (|error| at each predicted P)</summary>\n");
      for (const auto& [source, results] : headline.by_source)
        PrintSeries(source + " (left out of the prior)", results);
      for (const ScoredSet& x : extras) PrintSeries(x.label, x.results);
      std::printf("\n</details>\n");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "accuracy_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
