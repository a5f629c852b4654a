// qnm-replay-mpi TRACE [--format table|json|csv] [-o FILE]: the report of
// `qnm-predict trace analyze`, computed by a parallel replay over MPI (Geimer
// et al. 2009). Every process parses the same arguments; process 0 writes the report.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "trace/analysis_report.h"
#include "replay/parallel_replay_mpi.h"

namespace {

int Run(int argc, char** argv, int self) {
  CLI::App app("Parallel Scalasca wait-state analysis of an OTF2 trace over MPI "
               "(the report of `qnm-predict trace analyze`)",
               "qnm-replay-mpi");
  qnm::trace::AnalyzeReportOptions args;
  std::string trace_path;
  app.add_option("trace", trace_path, "traces.otf2 anchor or the directory holding it")->required();
  app.add_option("--format", args.format, "table (default), json or csv");
  app.add_option("-o,--output", args.output, "write the report to FILE instead of stdout");
  app.add_option("--cube", args.cube, "also write a CUBE4 report (.cubex) to FILE");
  app.add_option("--top", args.top, "rows in the ranked lists (default 10, 0 = all)");
  app.add_flag("--no-dissimilarity", args.no_dissimilarity, "leave out the dissimilarity indices");
  bool timings = false;
  app.add_flag("--timings", timings, "print wall and CPU time of each phase (max over processes) to stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Every process parsed the same arguments, so all exit here together.
    if (self != 0) return e.get_exit_code();
    return app.exit(e);
  }
  int status = 0;
  try {
    qnm::trace::CheckedReportFormat(args);  // the same on every process: all throw
    qnm::trace::ParallelAnalysis analysis = qnm::trace::AnalyzeWaitStatesParallel(trace_path, MPI_COMM_WORLD);
    if (self == 0) qnm::trace::WriteAnalysisReport(analysis.trace, analysis.result, args);
    if (self == 0 && timings)
      for (const qnm::trace::PhaseTime& time : analysis.phase_times)
        std::cerr << "qnm-replay-mpi: " << time.phase << ": wall " << time.wall_s << " s, cpu " << time.cpu_s
                  << " s\n";
  } catch (const std::exception& e) {
    if (self == 0) std::cerr << "qnm-replay-mpi: " << e.what() << "\n";
    status = 1;
  }
  // Process 0 alone may fail writing the report: every process exits with its status.
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int self = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &self);
  int status = Run(argc, argv, self);
  MPI_Finalize();
  return status;
}
