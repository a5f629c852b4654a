// miniFE outputs (minife_output.h, docs/formats/minife-output.md).
#include "app_outputs/minife_output.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::string_view kNameLine = "Mini-Application Name: miniFE";
constexpr char kProgramTime[] = "Total Program Time";

// "  key: value" -> key, value. miniFE's OpenMP builds print one key with its own colon
// ("OpenMP Max Threads:: 2"): the second colon is the key's, not the value's.
bool KeyValue(std::string_view trimmed, std::string_view* key, std::string_view* value) {
  if (!SplitAtFirstColon(trimmed, key, value)) return false;
  if (!value->empty() && value->front() == ':') *value = Trim(value->substr(1));
  return true;
}

// Build strings are printed quoted ("CXXFLAGS: '-O3 -g'").
std::string Unquoted(const std::string& text) {
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') return text.substr(1, text.size() - 2);
  return text;
}

std::string MinifeRunUnfinished(const MinifeRun& run, int* line) {
  *line = run.line;
  if (run.end_line > 0) return {};
  return "miniFE document without its 'Total Program Time': the run did not finish (killed, out of time, or the "
         "file was cut)";
}

// A sibling `miniFE.*.yaml`: the run's document beside its standard output.
bool HasMinifeDocumentBeside(const std::string& path) {
  std::error_code error;
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  for (std::filesystem::directory_iterator it(folder.empty() ? "." : folder, error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (StartsWith(name, "miniFE.") && EndsWith(name, ".yaml")) return true;
  }
  return false;
}

}  // namespace

bool LooksLikeMinifeOutput(std::string_view text) { return text.find(kNameLine) != std::string_view::npos; }

bool LooksLikeMinifeProgress(std::string_view text) {
  return text.find("creating/filling mesh...") != std::string_view::npos &&
         text.find("Starting CG solver") != std::string_view::npos;
}

std::vector<MinifeRun> ParseMinifeOutput(std::string_view text, const std::string& path) {
  std::vector<MinifeRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  std::vector<std::string> sections;  // the open sections, one per two spaces of indentation
  bool in_document = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view raw = lines[i];
    const std::string_view t = Trim(raw);
    if (t == kNameLine) {
      runs.emplace_back();
      runs.back().line = n;
      sections.clear();
      in_document = true;
      continue;
    }
    if (!in_document) continue;
    std::string_view key, value;
    // The document is printed whole and ends at its Total Program Time; any other line (a job's
    // next command, a blank) ends a cut document, which then lacks that line.
    if (t.empty() || !KeyValue(t, &key, &value)) {
      in_document = false;
      continue;
    }
    const std::size_t indent = raw.find_first_not_of(' ');
    const std::size_t level = indent / 2;
    if (indent % 2 != 0 || level > sections.size())
      throw InputError(path, n,
                       "miniFE document line indented under no section: '" + std::string(t.substr(0, 60)) + "'");
    sections.resize(level);
    std::string key_path;
    for (const std::string& section : sections) key_path += section + "/";
    key_path += std::string(key);
    if (value.empty()) {  // a section: its keys follow, indented
      sections.emplace_back(key);
      continue;
    }
    MinifeRun& run = runs.back();
    const auto [at, added] = run.values.emplace(key_path, KeyedValue{std::string(value), n});
    if (!added)
      throw InputError(path, n,
                       "miniFE document repeats '" + key_path + "' (first at line " + std::to_string(at->second.line) +
                           ")");
    if (key_path == kProgramTime) {
      run.end_line = n;
      in_document = false;
    }
  }
  if (runs.empty()) throw InputError(path, 0, "no miniFE run: no 'Mini-Application Name: miniFE' line");
  return runs;
}

RunStats MinifeRunToRunStats(const MinifeRun& m, const std::string& path) {
  auto required = [&](const std::string& key_path) -> const KeyedValue& {
    return m.Require(key_path, path, m.line, "miniFE run");
  };
  auto text_of = [&](const std::string& key_path) {
    const KeyedValue* value = m.Find(key_path);
    return value == nullptr ? std::string() : Unquoted(value->text);
  };
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(m.line));
  run.app = "minife";
  run.derivations["app"] = "miniFE 'Mini-Application Name' (line " + std::to_string(m.line) + ")";

  const KeyedValue& procs = required("Global Run Parameters/number of processors");
  run.procs = WholeCount(procs.text, path, procs.line, "miniFE 'number of processors'", 1);
  run.derivations["procs"] = "miniFE 'number of processors' (its Global Run Parameters)";
  if (const KeyedValue* threads = m.Find("Global Run Parameters/OpenMP Max Threads")) {
    run.threads_per_proc = WholeCount(threads->text, path, threads->line, "miniFE 'OpenMP Max Threads'", 1);
    run.derivations["threads_per_proc"] = "miniFE 'OpenMP Max Threads' (omp_get_max_threads on rank 0)";
  } else if (text_of("Build/using OpenMP") == "yes") {
    run.derivations["threads_per_proc"] =
        "miniFE's OpenMP build prints no thread count (openmp-opt: 'using OpenMP: yes' alone): 1 assumed";
  }

  // The run's time: rank 0's clock from MPI_Init to the end of the CG solve, set-up included.
  const KeyedValue& total = required(kProgramTime);
  run.wall_time_s = NonNegativeNumber(total.text, path, total.line, "miniFE 'Total Program Time'");
  run.derivations["wall_time_s"] =
      "miniFE 'Total Program Time' (rank 0, MPI_Init to the end of the CG solve; line " + std::to_string(total.line) +
      ")";

  // The problem: the box of nx x ny x nz hexahedral elements, whatever the ranks.
  std::string box;
  for (const char* axis : {"nx", "ny", "nz"}) {
    const KeyedValue& size = required(std::string("Global Run Parameters/dimensions/") + axis);
    const long long elements = WholeNumber(size.text, path, size.line, "miniFE box dimension", 1, 1LL << 31);
    box += (box.empty() ? "" : "x") + std::to_string(elements);
  }
  run.problem_class = box + " elements";
  run.derivations["problem_class"] = "miniFE 'dimensions' nx x ny x nz (its Global Run Parameters)";

  if (const KeyedValue* iterations = m.Find("CG solve/Iterations")) {
    run.iterations = static_cast<int>(
        WholeNumber(iterations->text, path, iterations->line, "miniFE CG 'Iterations'", 0, 1LL << 30));
    run.derivations["iterations"] = "miniFE CG solve 'Iterations' (CG stops at its tolerance or its maximum)";
  }

  // What the program declares of its run: options that change the work, and the build.
  const std::string setting = kDeclaredSettingPrefix;
  auto declare = [&](const std::string& name, const std::string& value) {
    if (!value.empty()) run.details[setting + name] = value;
  };
  declare("version", text_of("Mini-Application Version"));
  declare("load_imbalance", text_of("Global Run Parameters/load_imbalance"));
  // "0 (no)" / "1 (yes)": the word is the setting.
  std::string overlap = text_of("Global Run Parameters/mv_overlap_comm_comp");
  if (const std::size_t open = overlap.find('('); open != std::string::npos && overlap.back() == ')')
    overlap = overlap.substr(open + 1, overlap.size() - open - 2);
  declare("mv_overlap_comm_comp", overlap);
  const std::string scalar = text_of("Global Run Parameters/ScalarType");
  if (!scalar.empty())
    declare("types", scalar + "/" + text_of("Global Run Parameters/GlobalOrdinalType") + "/" +
                         text_of("Global Run Parameters/LocalOrdinalType"));
  declare("compiler", text_of("Build/compiler version"));
  declare("cxxflags", text_of("Build/CXXFLAGS"));

  // Results and phases, as printed; miniFE prints 6 significant digits.
  for (const auto& [key_path, detail] : std::vector<std::pair<std::string, std::string>>{
           {"Matrix structure generation/Mat-struc-gen Time", "minife.matrix_structure_time_s"},
           {"FE assembly/FE assembly Time", "minife.fe_assembly_time_s"},
           {"CG solve/Total/Total CG Time", "minife.cg_time_s"},
           {"CG solve/Time per iteration", "minife.cg_time_per_iteration_s"},
           {"CG solve/Total/Total CG Mflops", "minife.cg_mflops"},
           {"CG solve/Final Resid Norm", "minife.final_residual"},
           {"Matrix attributes/Global Nrows", "minife.global_rows"},
           {"Matrix attributes/Rows per proc MIN", "minife.rows_per_proc_min"},
           {"Matrix attributes/Rows per proc MAX", "minife.rows_per_proc_max"},
           {"Global Max-RSS (kB)", "minife.max_rss_kb"},
           {"Run Date/Time", "minife.run_date"},
           // Where miniFE was built (uname -n at make time), not where it ran: not the machine.
           {"Platform/hostname", "minife.build_host"}})
    if (const std::string value = text_of(key_path); !value.empty()) run.details[detail] = value;

  // The same document printed into a job's output and left in its YAML file: one measurement.
  run.origin = std::string(kMeasurementOrigin) + "minife:" + text_of("Run Date/Time") + ":" + box + ":" +
               std::to_string(run.procs) + ":" + text_of("Platform/hostname");
  run.Derive();
  RequirePlausibleRecord(run, path, total.line);
  return run;
}

bool IsMinifeOutputBesideItsDocument(const std::string& path, std::string_view text) {
  return LooksLikeMinifeProgress(text) && !LooksLikeMinifeOutput(text) && HasMinifeDocumentBeside(path);
}

bool SniffMinifeOutput(const std::string& path, std::string_view text) {
  if (LooksLikeMinifeOutput(text)) return true;
  // The standard output alone names where the run went; beside the document it is left unread.
  return LooksLikeMinifeProgress(text) && !IsMinifeOutputBesideItsDocument(path, text);
}

ReaderOutput ReadMinifeOutput(const ReaderInput& input) {
  if (!LooksLikeMinifeOutput(input.text)) {
    const std::size_t at = input.text.find("Starting CG solver");
    const int line = static_cast<int>(std::count(input.text.begin(), input.text.begin() + at, '\n')) + 1;
    throw InputError(input.path, line,
                     "miniFE's standard output, not its YAML document: rank 0 writes the run's figures to "
                     "miniFE.<nx>x<ny>x<nz>.P<ranks>.<date>.yaml in the run's folder; read that file");
  }
  return AppOutputRuns(
      input, ParseMinifeOutput(input.text, input.path), MinifeRunUnfinished,
      [&](const MinifeRun& run) { return MinifeRunToRunStats(run, input.path); }, "miniFE runs did not finish");
}

}  // namespace qnm
