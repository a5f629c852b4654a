// AMG outputs (amg_output.h, docs/formats/amg-output.md).
#include "app_outputs/amg_output.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::string_view kBanner = "Running with these driver parameters:";

// The timers AMG's driver (test/amg.c) starts, each around one phase, back to back, and the
// record's detail for each. Problem 1 runs the first four, problem 2 the first two and the last.
struct PhaseName {
  const char* timer;
  const char* detail;
};
constexpr PhaseName kPhaseNames[] = {
    {"Hypre init", "amg_hypre_init_s"},               // AMG2023: heading "Hypre init times"
    {"Spatial Operator", "amg_generate_matrix_s"},    // heading "Generate Matrix"
    {"RHS and Initial Guess", "amg_vector_setup_s"},  // heading "IJ Vector Setup"
    {"PCG Setup", "amg_setup_s"},                     // "Problem 1: AMG Setup Time"
    {"PCG Solve", "amg_solve_s"},                     // "Problem 1: AMG-PCG Solve Time"
    {"GMRES Solve", "amg_time_steps_s"},              // "Problem 2: Cumulative AMG-GMRES Solve Time"
    {"GMRES Setup", "amg_setup_s"},                   // AMG2023 problem 1: "Problem 1: AMG Setup Time"
};

const PhaseName* FindPhaseName(std::string_view timer) {
  for (const PhaseName& name : kPhaseNames)
    if (timer == name.timer) return &name;
  return nullptr;
}

// The phases a finished run of `problem` printed, in the driver's order (AMG2023's "Hypre init",
// printed before them, is not required).
std::vector<std::string_view> PhasesOfProblem(int problem, bool amg2023) {
  if (amg2023 && problem == 1) return {"Spatial Operator", "RHS and Initial Guess", "GMRES Setup", "GMRES Solve"};
  if (problem == 1 || amg2023) return {"Spatial Operator", "RHS and Initial Guess", "PCG Setup", "PCG Solve"};
  return {"Spatial Operator", "RHS and Initial Guess", "GMRES Solve"};
}

// The detail a phase's time is kept under: AMG2023's one GMRES solve is a solve, not LLNL/AMG's
// loop of time steps.
std::string PhaseDetail(const AmgRun& run, const std::string& timer) {
  if (run.problem_id > 0 && timer == "GMRES Solve") return "amg_solve_s";
  return FindPhaseName(timer)->detail;
}

// The text after "<label> =" when the trimmed `line` is "<label> = ..."; nullopt otherwise (so
// "Iterations" does not take "GMRES Iterations = 13").
std::optional<std::string_view> ValueAfter(std::string_view line, std::string_view label) {
  if (!StartsWith(line, label)) return std::nullopt;
  const std::string_view rest = Trim(line.substr(label.size()));
  if (rest.empty() || rest.front() != '=') return std::nullopt;
  return Trim(rest.substr(1));
}

// "(40, 40, 40)" -> its three fields; throws naming `what` unless there are three.
std::vector<std::string_view> TripleFields(std::string_view value, const std::string& path, int line,
                                           const char* what) {
  std::vector<std::string_view> fields;
  if (value.size() >= 2 && value.front() == '(' && value.back() == ')')
    fields = SplitFields(value.substr(1, value.size() - 2), ',');
  if (fields.size() != 3)
    throw InputError(
        path, line,
        std::string(what) + " needs three numbers in parentheses, got '" + std::string(value.substr(0, 60)) + "'");
  return fields;
}

// "Num MPI tasks = 2  Num OpenMP threads = 2" (BoomerAMG's setup statistics, -printstats).
void ReadTasksAndThreads(std::string_view line, const std::string& path, int n, AmgRun* run) {
  const std::vector<std::string_view> w = SplitWhitespace(line);
  if (w.size() != 10 || w[3] != "=" || w[5] != "Num" || w[6] != "OpenMP" || w[7] != "threads" || w[8] != "=")
    throw InputError(path, n,
                     "AMG statistics line needs 'Num MPI tasks = P  Num OpenMP threads = T', got '" +
                         std::string(line.substr(0, 60)) + "'");
  const int tasks = WholeCount(w[4], path, n, "AMG 'Num MPI tasks'", 1);
  const int threads = WholeCount(w[9], path, n, "AMG 'Num OpenMP threads'", 1);
  // Problem 2 prints it again at every time step: one run, one answer.
  if ((run->stats_tasks > 0 && run->stats_tasks != tasks) || (run->threads > 0 && run->threads != threads))
    throw InputError(path, n,
                     "AMG 'Num MPI tasks = " + std::to_string(tasks) + "  Num OpenMP threads = " +
                         std::to_string(threads) + "' after 'Num MPI tasks = " + std::to_string(run->stats_tasks) +
                         "  Num OpenMP threads = " + std::to_string(run->threads) + "' in one run");
  run->stats_tasks = tasks;
  run->threads = threads;
}

// "Spatial Operator:" on the line before "wall clock time = 0.205656 seconds".
void ReadPhase(std::string_view timer_line, std::string_view value, const std::string& path, int n, AmgRun* run) {
  std::string_view timer = timer_line;
  if (EndsWith(timer, ":")) timer.remove_suffix(1);
  if (timer.empty()) throw InputError(path, n, "AMG 'wall clock time' without its timer's name on the line above");
  if (!FindPhaseName(timer))
    throw InputError(path, n,
                     "AMG wall clock time of timer '" + std::string(timer.substr(0, 60)) +
                         "', not one of its driver's phases (Hypre init, Spatial Operator, RHS and Initial "
                         "Guess, PCG Setup, PCG Solve, GMRES Setup, GMRES Solve)");
  for (const AmgPhase& earlier : run->phases)
    if (earlier.timer == timer)
      throw InputError(path, n,
                       "a second AMG '" + earlier.timer + "' wall clock time in one run (the first at line " +
                           std::to_string(earlier.line) + ")");
  const std::vector<std::string_view> w = SplitWhitespace(value);
  if (w.size() != 2 || w[1] != "seconds")
    throw InputError(path, n,
                     "AMG 'wall clock time' needs '<number> seconds', got '" + std::string(value.substr(0, 60)) + "'");
  run->phases.push_back({std::string(timer), NonNegativeNumber(w[0], path, n, "AMG 'wall clock time'"), n});
}

// "Figure of Merit (FOM_1): 1.792130e+08": the last line of a finished run.
void ReadFigureOfMerit(std::string_view line, const std::string& path, int n, AmgRun* run) {
  constexpr std::string_view kLabel = "Figure of Merit (FOM_";
  const std::string_view rest = line.substr(kLabel.size());
  const std::size_t close = rest.find("):");
  if (close == std::string_view::npos)
    throw InputError(path, n, "AMG 'Figure of Merit (FOM_k): f' line, got '" + std::string(line.substr(0, 60)) + "'");
  run->problem = static_cast<int>(WholeNumber(rest.substr(0, close), path, n, "AMG 'Figure of Merit (FOM_k)'", 1, 2));
  run->fom = NonNegativeNumber(Trim(rest.substr(close + 2)), path, n, "AMG 'Figure of Merit'");
  run->fom_line = n;
}

// AMG2023's "Figure of Merit (FOM): nnz_AP / (Setup Phase Time + 3 * Solve Phase Time) 4.412989e+09":
// the last line of a finished run, of the problem its banner named.
void ReadAmg2023FigureOfMerit(std::string_view line, const std::string& path, int n, AmgRun* run) {
  if (run->problem_id == 0)
    throw InputError(path, n, "AMG2023 'Figure of Merit (FOM):' in a run whose banner names no 'Problem ID'");
  const std::vector<std::string_view> w = SplitWhitespace(line);
  run->problem = run->problem_id;
  run->fom = NonNegativeNumber(w.back(), path, n, "AMG2023 'Figure of Merit (FOM)'");
  run->fom_line = n;
}

// The number after the last ':' of "FOM_Setup: nnz_AP / Setup Phase Time: 8.016058e+06".
double ValueAfterLastColon(std::string_view line, const std::string& path, int n, const char* what) {
  return NonNegativeNumber(Trim(line.substr(line.rfind(':') + 1)), path, n, what);
}

// One line of a run (after its banner); `before` is the line above it, trimmed.
void ReadRunLine(std::string_view t, std::string_view before, const std::string& path, int n, AmgRun* run) {
  if (auto v = ValueAfter(t, "Problem ID")) {
    run->problem_id = static_cast<int>(WholeNumber(*v, path, n, "AMG2023 'Problem ID'", 1, 2));
  } else if (StartsWith(t, "Laplacian_") && EndsWith(t, "pt:")) {
    run->stencil = std::string(t.substr(0, t.size() - 1));
  } else if (auto v = ValueAfter(t, "solver ID")) {
    run->solver_id = static_cast<int>(WholeNumber(*v, path, n, "AMG 'solver ID'", 0, 1000));
  } else if (auto v = ValueAfter(t, "(Nx, Ny, Nz)")) {
    const std::vector<std::string_view> f = TripleFields(*v, path, n, "AMG '(Nx, Ny, Nz)'");
    for (int k = 0; k < 3; ++k) run->grid[k] = WholeNumber(f[k], path, n, "AMG '(Nx, Ny, Nz)'", 1);
  } else if (auto v = ValueAfter(t, "(Px, Py, Pz)")) {
    const std::vector<std::string_view> f = TripleFields(*v, path, n, "AMG '(Px, Py, Pz)'");
    for (int k = 0; k < 3; ++k) run->topology[k] = WholeCount(f[k], path, n, "AMG '(Px, Py, Pz)'", 1);
    run->topology_line = n;
  } else if (auto v = ValueAfter(t, "wall clock time")) {
    ReadPhase(before, *v, path, n, run);
  } else if (StartsWith(t, "Num MPI tasks")) {
    ReadTasksAndThreads(t, path, n, run);
  } else if (auto v = ValueAfter(t, "Iterations")) {
    run->iterations = WholeNumber(*v, path, n, "AMG 'Iterations'", 0);
  } else if (auto v = ValueAfter(t, "Cum. No. of Iterations")) {
    run->iterations = WholeNumber(*v, path, n, "AMG 'Cum. No. of Iterations'", 0);
  } else if (auto v = ValueAfter(t, "No. of Time Steps")) {
    run->time_steps = WholeNumber(*v, path, n, "AMG 'No. of Time Steps'", 1);
  } else if (auto v = ValueAfter(t, "Final Relative Residual Norm")) {
    NonNegativeNumber(*v, path, n, "AMG 'Final Relative Residual Norm'");
    run->final_residual = std::string(*v);
  } else if (StartsWith(t, "FOM_Setup:")) {
    run->fom_setup = ValueAfterLastColon(t, path, n, "AMG 'FOM_Setup'");
  } else if (StartsWith(t, "FOM_Solve:")) {
    run->fom_solve = ValueAfterLastColon(t, path, n, "AMG 'FOM_Solve'");
  } else if (StartsWith(t, "Figure of Merit (FOM_")) {
    ReadFigureOfMerit(t, path, n, run);
  } else if (StartsWith(t, "Figure of Merit (FOM):")) {
    ReadAmg2023FigureOfMerit(t, path, n, run);
  } else if (StartsWith(t, "Error:") && run->error_line == 0) {
    run->error = std::string(t);
    run->error_line = n;
  }
}

// A finished run must hold what its Figure of Merit was computed from; throws otherwise.
void CheckFinishedRun(const AmgRun& run, const std::string& path) {
  if (run.topology_line == 0 || run.grid[0] == 0)
    throw InputError(path, run.line, "AMG run without its '(Nx, Ny, Nz)' grid and '(Px, Py, Pz)' processor topology");
  const long long procs = static_cast<long long>(run.topology[0]) * run.topology[1] * run.topology[2];
  if (procs > (1 << 24))
    throw InputError(path, run.topology_line,
                     "AMG processor topology of " + std::to_string(procs) + " processes is more than 2^24");
  for (int k = 0; k < 3; ++k)
    if (run.grid[k] % run.topology[k] != 0)  // the driver prints the global grid as -P times -n
      throw InputError(path, run.topology_line, "AMG global grid (Nx, Ny, Nz) is not a multiple of (Px, Py, Pz)");
  if (run.stats_tasks > 0 && run.stats_tasks != procs)
    throw InputError(path, run.topology_line,
                     "AMG processor topology of " + std::to_string(procs) +
                         " processes, its statistics say 'Num MPI tasks = " + std::to_string(run.stats_tasks) + "'");
  const bool amg2023 = run.problem_id > 0;
  const std::vector<std::string_view> expected = PhasesOfProblem(run.problem, amg2023);
  for (const AmgPhase& phase : run.phases)
    if (std::find(expected.begin(), expected.end(), phase.timer) == expected.end() &&
        !(amg2023 && phase.timer == "Hypre init"))
      throw InputError(path, phase.line,
                       "AMG '" + phase.timer + "' time in a problem " + std::to_string(run.problem) + " run (FOM_" +
                           std::to_string(run.problem) + ")");
  for (std::string_view timer : expected)
    if (std::none_of(run.phases.begin(), run.phases.end(), [&](const AmgPhase& p) { return p.timer == timer; }))
      throw InputError(path, run.fom_line,
                       "AMG problem " + std::to_string(run.problem) + " run without its '" + std::string(timer) +
                           "' wall clock time");
  if (run.iterations < 0)
    throw InputError(path, run.fom_line, "AMG run without its iterations before its 'Figure of Merit'");
}

// Why a run did not finish, and the line that shows it; empty when it finished.
std::string AmgRunUnfinished(const AmgRun& run, int* line) {
  *line = run.line;
  if (run.problem > 0) return {};
  if (run.error_line > 0) {
    *line = run.error_line;
    return "AMG stopped with '" + run.error.substr(0, 80) + "'";
  }
  return "AMG run without its 'Figure of Merit' line: it did not finish (killed, out of time, or the output was cut)";
}

}  // namespace

bool LooksLikeAmgOutput(std::string_view text) {
  if (text.find(kBanner) == std::string_view::npos) return false;
  // The driver's global grid (hypre's own ij driver prints the local "(nx, ny, nz)"), or its timings.
  return text.find("(Nx, Ny, Nz) = (") != std::string_view::npos ||
         text.find("Problem 1: AMG Setup Time:") != std::string_view::npos ||
         text.find("Problem 2: Cumulative AMG-GMRES Solve Time:") != std::string_view::npos;
}

std::vector<AmgRun> ParseAmgOutput(std::string_view text, const std::string& path) {
  std::vector<AmgRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  std::string_view before;  // the last line above, trimmed
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if (t == kBanner) {
      runs.emplace_back();
      runs.back().line = n;
    } else if (!runs.empty() && runs.back().problem == 0 && !t.empty()) {
      ReadRunLine(t, before, path, n, &runs.back());
    }
    before = t;
  }
  if (runs.empty()) throw InputError(path, 0, "no AMG run: no 'Running with these driver parameters:' line");
  for (const AmgRun& run : runs)
    if (run.problem > 0) CheckFinishedRun(run, path);
  return runs;
}

RunStats AmgRunToRunStats(const AmgRun& a, const std::string& path) {
  RunStats run;
  const bool amg2023 = a.problem_id > 0;
  run.sources.push_back(path + ":" + std::to_string(a.line));
  run.app = amg2023 ? "amg2023" : "amg";
  run.derivations["app"] = std::string(amg2023 ? "AMG2023 output: its banner's 'Problem ID'" : "AMG output") +
                           ", 'Running with these driver parameters:' (line " + std::to_string(a.line) + ")";
  run.procs = a.topology[0] * a.topology[1] * a.topology[2];
  run.derivations["procs"] = "AMG '(Px, Py, Pz)': Px x Py x Pz (line " + std::to_string(a.topology_line) + ")";
  if (a.threads > 0) {
    run.threads_per_proc = a.threads;
    run.derivations["threads_per_proc"] = "AMG -printstats 'Num OpenMP threads'";
  }
  // The time: the driver times its phases back to back, from the matrix's generation to the solve's
  // end, each the slowest rank's, so their sum is the run; setup and solve alone (what AMG's FOMs
  // divide by) stay details.
  double sum_s = 0;
  std::string timers;
  for (const AmgPhase& phase : a.phases) {
    sum_s += phase.wall_s;
    timers += (timers.empty() ? "" : " + ") + phase.timer;
    run.details[PhaseDetail(a, phase.timer)] = NumberText(phase.wall_s);
  }
  run.wall_time_s = sum_s;
  run.derivations["wall_time_s"] =
      "AMG: the sum of its phases' 'wall clock time' (" + timers + "), each the maximum over the ranks";
  // The problem: AMG's -n is per process, so the global grid (-n x -P, as printed) is what a
  // strong-scaling series keeps while the ranks grow.
  const std::string grid =
      std::to_string(a.grid[0]) + "x" + std::to_string(a.grid[1]) + "x" + std::to_string(a.grid[2]);
  if (amg2023) {
    // AMG2023's problem fixes its solver: 1 is the 27-point problem with AMG-GMRES, 2 the 7-point with AMG-PCG.
    const std::string stencil = a.stencil.empty() ? (a.problem == 1 ? "Laplacian_27pt" : "Laplacian_7pt") : a.stencil;
    run.problem_class = "problem " + std::to_string(a.problem) + ", " + stencil + " " + grid;
    run.derivations["problem_class"] = "AMG2023: its 'Problem ID', stencil and global grid '(Nx, Ny, Nz)'";
  } else {
    run.problem_class =
        "problem " + std::to_string(a.problem) + ", solver " + std::to_string(a.solver_id) + ", Laplacian_27pt " + grid;
    run.derivations["problem_class"] =
        "AMG: the problem (its 'Figure of Merit (FOM_k)'), 'solver ID' and the global grid '(Nx, Ny, Nz)'";
  }
  run.iterations = static_cast<int>(std::min<long long>(a.iterations, 1LL << 30));
  run.details["amg_iterations"] = std::to_string(a.iterations);
  if (a.time_steps > 0) run.details["amg_time_steps"] = std::to_string(a.time_steps);
  if (!a.final_residual.empty()) run.details["amg_final_relative_residual"] = a.final_residual;
  run.details["amg_topology"] =
      std::to_string(a.topology[0]) + "x" + std::to_string(a.topology[1]) + "x" + std::to_string(a.topology[2]);
  run.details["amg_figure_of_merit"] = NumberText(a.fom);
  if (a.fom_setup >= 0) run.details["amg_fom_setup"] = NumberText(a.fom_setup);
  if (a.fom_solve >= 0) run.details["amg_fom_solve"] = NumberText(a.fom_solve);
  // Problem 1's PCG stops at a relative residual of 1e-8 (test/amg.c), or at its iteration limit.
  // Problem 2's last solves run a fixed number of GMRES steps: its residual is no verdict.
  // AMG2023 sets its tolerances per problem and build; no verdict is drawn from its residual.
  if (!amg2023 && a.problem == 1 && !a.final_residual.empty()) {
    const bool converged = *ParseDouble(a.final_residual) < 1e-8;
    run.verification = converged ? "SUCCESSFUL" : "UNSUCCESSFUL";
    run.derivations["verification"] = "AMG problem 1: 'Final Relative Residual Norm' " +
                                      std::string(converged ? "below" : "not below") +
                                      " the driver's PCG tolerance 1e-8";
  }
  run.Derive();
  RequirePlausibleRecord(run, path, a.fom_line);
  return run;
}

bool SniffAmgOutput(const std::string&, std::string_view text) { return LooksLikeAmgOutput(text); }

ReaderOutput ReadAmgOutput(const ReaderInput& input) {
  return AppOutputRuns(
      input, ParseAmgOutput(input.text, input.path), AmgRunUnfinished,
      [&](const AmgRun& run) { return AmgRunToRunStats(run, input.path); }, "AMG runs did not finish");
}

}  // namespace qnm
