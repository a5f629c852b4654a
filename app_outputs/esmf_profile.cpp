// ESMF profile summaries (esmf_profile.h, docs/formats/esmf-profile.md).
#include "app_outputs/esmf_profile.h"

#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kWholeRun = "[ESMF]";

// The header's columns after "Region", two-word names joined ("Mean (s)", "Min PET"); empty when the
// line is no header.
std::vector<std::string> HeaderColumns(std::string_view t) {
  const std::vector<std::string_view> words = SplitWhitespace(t);
  if (words.size() < 2 || words[0] != "Region" || words[1] != "PETs") return {};
  std::vector<std::string> columns;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const bool second = (words[i] == "(s)" || words[i] == "PET") && !columns.empty() &&
                        (columns.back() == "Mean" || columns.back() == "Min" || columns.back() == "Max");
    if (second)
      columns.back() += " " + std::string(words[i]);
    else
      columns.emplace_back(words[i]);
  }
  return columns;
}

int ColumnOf(const std::vector<std::string>& columns, std::string_view name) {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

bool LooksLikeEsmfProfileSummary(std::string_view text) {
  const std::string_view head = text.substr(0, 1 << 16);
  if (head.find("PETs") == std::string_view::npos) return false;  // most files: no line split at all
  for (std::string_view line : SplitLines(head)) {
    const std::vector<std::string> columns = HeaderColumns(Trim(line));
    if (ColumnOf(columns, "Mean (s)") >= 0 || ColumnOf(columns, "Max (s)") >= 0) return true;
  }
  return false;
}

std::vector<EsmfRegion> ParseEsmfProfileSummary(std::string_view text, const std::string& path) {
  const std::vector<std::string_view> lines = SplitLines(text);
  std::vector<std::string> columns;
  std::size_t i = 0;
  for (; i < lines.size() && columns.empty(); ++i) columns = HeaderColumns(Trim(lines[i]));
  if (columns.empty()) throw InputError(path, 0, "no ESMF profile summary header ('Region  PETs ... Max (s)') in it");
  const int header_line = static_cast<int>(i);
  const int pets = ColumnOf(columns, "PETs"), pes = ColumnOf(columns, "PEs"), count = ColumnOf(columns, "Count");
  const int mean = ColumnOf(columns, "Mean (s)"), min = ColumnOf(columns, "Min (s)"),
            max = ColumnOf(columns, "Max (s)");
  for (auto [at, name] : {std::pair{mean, "Mean (s)"}, {max, "Max (s)"}})
    if (at < 0) throw InputError(path, header_line, std::string("ESMF profile summary header without '") + name + "'");
  std::vector<EsmfRegion> regions;
  for (; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if (t.empty()) continue;
    const std::vector<std::string_view> words = SplitWhitespace(t);
    if (words.size() <= columns.size())
      throw InputError(path, n,
                       "ESMF profile summary row without the header's " + std::to_string(columns.size()) +
                           " values: '" + std::string(t).substr(0, 80) + "'");
    const std::size_t first = words.size() - columns.size();
    EsmfRegion region;
    region.name = JoinWords(words, 0, first);
    region.line = n;
    const std::size_t indent = lines[i].find_first_not_of(' ');
    region.depth = static_cast<int>(indent / 2);
    auto value = [&](int column, const char* what) {
      return column < 0 ? 0.0 : NonNegativeNumber(words[first + static_cast<std::size_t>(column)], path, n, what);
    };
    region.pets = WholeCount(words[first + static_cast<std::size_t>(pets)], path, n, "ESMF profile summary PETs", 1);
    if (pes >= 0)
      region.pes = WholeCount(words[first + static_cast<std::size_t>(pes)], path, n, "ESMF profile summary PEs", 1);
    region.count = value(count, "ESMF profile summary Count");
    region.mean_s = value(mean, "ESMF profile summary Mean (s)");
    region.min_s = value(min, "ESMF profile summary Min (s)");
    region.max_s = value(max, "ESMF profile summary Max (s)");
    regions.push_back(std::move(region));
  }
  bool whole = false;
  for (const EsmfRegion& region : regions) whole = whole || region.name == kWholeRun;
  if (!whole) throw InputError(path, header_line, "ESMF profile summary without its [ESMF] row (the whole run)");
  return regions;
}

RunStats EsmfProfileToRunStats(const std::vector<EsmfRegion>& regions, const std::string& path) {
  const EsmfRegion* whole = nullptr;
  for (const EsmfRegion& region : regions)
    if (!whole && region.name == kWholeRun) whole = &region;
  if (!(whole->min_s <= whole->mean_s * (1 + 1e-6) && whole->mean_s <= whole->max_s * (1 + 1e-6)))
    throw InputError(path, whole->line, "ESMF [ESMF] region: Min (s) <= Mean (s) <= Max (s) does not hold");
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(whole->line));
  // The summary names no model, and ESMF names the file alike for every run: one application, "esmf" (a
  // folder per run, named for its process count, must not split the series).
  run.app = "esmf";
  run.derivations["app"] = "ESMF's profile summary names no model";
  run.procs = whole->pets;
  run.derivations["procs"] = "ESMF profile summary [ESMF] PETs (line " + std::to_string(whole->line) + ")";
  if (whole->pes > whole->pets && whole->pes % whole->pets == 0) {
    run.threads_per_proc = whole->pes / whole->pets;
    run.derivations["threads_per_proc"] = "ESMF profile summary [ESMF] PEs / PETs";
  }
  // Each PET's time from ESMF_Initialize to ESMF_Finalize; the run lasts as long as the slowest.
  run.wall_time_s = whole->max_s;
  run.derivations["wall_time_s"] =
      "ESMF profile summary [ESMF] Max (s) over the PETs (line " + std::to_string(whole->line) + ")";
  run.app_time_mean_s = whole->mean_s;
  run.app_time_max_s = whole->max_s;
  run.derivations["app_time_mean_s"] = "ESMF profile summary [ESMF] Mean (s) over the PETs";
  run.details["esmf_min_s"] = NumberText(whole->min_s);
  run.details["esmf_regions"] = std::to_string(regions.size());
  run.Derive();
  RequirePlausibleRecord(run, path, whole->line);
  return run;
}

bool SniffEsmfProfileSummary(const std::string&, std::string_view text) { return LooksLikeEsmfProfileSummary(text); }

ReaderOutput ReadEsmfProfileSummary(const ReaderInput& input) {
  return AppOutputRun(EsmfProfileToRunStats(ParseEsmfProfileSummary(input.text, input.path), input.FormatPath()),
                      input.name);
}

}  // namespace qnm
