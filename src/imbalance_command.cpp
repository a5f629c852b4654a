// `qnm-predict imbalance RUNS...`: the load-imbalance dissimilarity ranking of
// Calzarossa, Massari and Tessera (2004) for each mpiP report found.
#include <cctype>
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "imbalance/dissimilarity.h"
#include "imbalance/dissimilarity_mpip.h"
#include "imbalance/dissimilarity_report.h"
#include "ingest/ingest.h"
#include "pipeline/skipped_inputs.h"
#include "src/commands.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {
namespace {

struct ImbalanceArgs {
  std::vector<std::string> paths;
  std::string format = "table";
  std::string output;
  std::string dispersion = "euclidean";
  std::string rank_by = "scaled";
  std::string regions = "callsite";
  double threshold = kUnknown;  // NaN: not given
  bool threshold_given = false;
  int top = 10;
  bool no_computation = false;
  bool by_address = false;
};

/// The run's mpiP report (an NPB stdout may be paired with it), else its first source.
std::string LabelOf(const RunStats& run) {
  for (const std::string& source : run.sources) {
    std::string lower = source;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find(".mpip") != std::string::npos) return source;
  }
  return run.sources.empty() ? run.app.str() : run.sources.front();
}

void RunImbalance(const ImbalanceArgs& args) {
  DissimilarityFormat format;
  if (!ParseDissimilarityFormat(args.format, &format))
    throw InputError("", 0, "--format must be table, json or csv, not '" + args.format + "'");
  DissimilarityOptions options;
  if (!ParseDispersionIndex(args.dispersion, &options.dispersion))
    throw InputError("", 0, "--dispersion must be euclidean, variance, cov, mad or chebyshev, not '" +
                                args.dispersion + "'");
  if (args.rank_by != "scaled" && args.rank_by != "index")
    throw InputError("", 0, "--rank-by must be scaled or index, not '" + args.rank_by + "'");
  options.criterion = args.rank_by == "scaled" ? ImbalanceCriterion::kScaledIndex : ImbalanceCriterion::kIndex;
  if (args.top < 0) throw InputError("", 0, "--top must be >= 0 (0 = all rows)");
  if (args.threshold_given && !(args.threshold >= 0 && std::isfinite(args.threshold)))
    throw InputError("--threshold", 0, "must be a finite number >= 0");
  options.severity_threshold = args.threshold;
  options.report_top = args.top;
  std::string error;
  if (!options.IsValid(&error)) throw InputError("", 0, error);
  MpipDissimilarityOptions mpip;
  if (!ParseMpipRegionGrouping(args.regions, &mpip.grouping))
    throw InputError("", 0, "--regions must be callsite, function or mpi, not '" + args.regions + "'");
  mpip.include_computation = !args.no_computation;
  mpip.unresolved_by_address = args.by_address;

  IngestOptions ingest;
  ingest.progress = isatty(STDERR_FILENO) != 0;
  IngestSummary summary;
  std::vector<RunStats> runs = IngestPaths(args.paths, ingest, &summary);
  ReportSkippedInputs(args.paths, summary);

  std::vector<std::unique_ptr<DissimilarityResult>> results;
  std::vector<DissimilarityReportEntry> entries;
  std::vector<std::string> without_call_sites;
  for (const RunStats& run : runs) {
    const std::string label = LabelOf(run);
    bool has_call_sites = false;
    for (const CallSiteStats& site : run.call_sites) has_call_sites |= !site.time_s_per_rank.empty();
    if (!has_call_sites) {
      without_call_sites.push_back(label);
      continue;
    }
    MpipActivityRegionTimes times = ActivityRegionTimesFromMpip(run, mpip);
    try {
      results.push_back(std::make_unique<DissimilarityResult>(ComputeDissimilarity(times.times, options)));
    } catch (const std::invalid_argument& e) {
      throw InputError(label, 0, e.what());
    }
    entries.push_back({label, results.back().get(), times.notes});
  }
  if (entries.empty())
    throw InputError(without_call_sites.size() == 1 ? without_call_sites.front() : args.paths.front(), 0,
                     "no run with per-rank mpiP call-site times among " +
                         std::to_string(summary.files_seen) + " file(s)");
  for (const std::string& label : without_call_sites)  // one line each, the others are reported
    std::cerr << "qnm-predict: skipped " << label << ": no per-rank call-site times\n";
  const std::string text = RenderDissimilarity(entries, format, args.top);
  WriteOutput(args.output, text);
}

}  // namespace

void AddImbalanceCommand(CLI::App& app) {
  auto args = std::make_shared<ImbalanceArgs>();
  CLI::App* sub = app.add_subcommand(
      "imbalance",
      "Load-imbalance dissimilarity indices (Calzarossa, Massari, Tessera) per run from mpiP reports:\n"
      "ID_ij per activity x code region, ID_A/SID_A per activity, ID_C/SID_C per region, ranked");
  sub->add_option("runs", args->paths,
                  "files or directories; every format ingest reads (" + ReadableFormatList() +
                      "), of which runs with per-rank MPI call-site times count: mpiP reports, OTF2 traces, "
                      "CUBE4 profiles")
      ->required();
  sub->add_option("--format", args->format, "table, json or csv")->capture_default_str();
  sub->add_option("-o,--output", args->output, "write here (atomically) instead of stdout");
  sub->add_option("--dispersion", args->dispersion,
                  "index of dispersion: euclidean (the paper's), variance, cov, mad, chebyshev")
      ->capture_default_str();
  sub->add_option("--rank-by", args->rank_by, "scaled (SID, the paper's criterion) or index (ID)")
      ->capture_default_str();
  CLI::Option* threshold = sub->add_option("--threshold", args->threshold,
                  "every activity/region whose ranking value is >= this is a tuning candidate "
                  "(default: only the maximum)");
  sub->add_option("--regions", args->regions,
                  "code regions: callsite (MPI call @ location), function, or mpi (MPI function)")
      ->capture_default_str();
  sub->add_option("--top", args->top, "rows per ranked list in the table (0 = all)")->capture_default_str();
  sub->add_flag("--no-computation", args->no_computation,
                "leave out the computation activity (AppTime - MPITime per rank)");
  sub->add_flag("--by-address", args->by_address,
                "keep unresolved call sites apart by address (wrong when ASLR gave each rank its own)");
  sub->callback([args, threshold] {
    args->threshold_given = threshold->count() > 0;
    RefuseOutputOverInputs(args->output, args->paths);
    RunImbalance(*args);
  });
}

}  // namespace qnm::cli
