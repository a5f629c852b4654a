// qnm-replay-mpi TRACE [--format table|json|csv] [-o FILE]: the report of
// `qnm-predict trace analyze`, computed by a parallel replay over MPI (Geimer
// et al. 2009). Every process parses the same arguments; process 0 writes the report.
// TRACE may be a tar or .zip archive holding one trace, as for `trace analyze`
// (ingest/archived_trace.h): the first process of each node unpacks it once into
// its private temporary folder, the node's other processes read it there, and
// it is removed when every one of them is done. The executable's wiring, above
// both replay/ and ingest/ (its own folder: replay/ may not include ingest/).
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "ingest/archived_trace.h"
#include "replay/parallel_replay_mpi.h"
#include "trace/analysis_report.h"

namespace {

/// `text` of process 0 of `comm` on every process of it.
std::string Broadcast(std::string text, MPI_Comm comm) {
  unsigned long long size = text.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  text.resize(static_cast<std::size_t>(size));
  if (size > 0) MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, 0, comm);
  return text;
}

/// The trace as each node reads it: on the node's first process the TraceInput (an archive
/// unpacked), the path to read and, when the input failed, its one-line error on every process.
struct NodeTrace {
  std::unique_ptr<qnm::TraceInput> input;  // the node's first process only
  std::string read_path, error;
};

NodeTrace OpenOnNode(const std::string& path, MPI_Comm node) {
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  NodeTrace out;
  if (node_rank == 0) {
    try {
      out.input = std::make_unique<qnm::TraceInput>(path);
      out.read_path = out.input->ReadPath();
    } catch (const std::exception& e) {
      out.error = e.what();
    }
  }
  out.error = Broadcast(out.error, node);
  out.read_path = Broadcast(out.read_path, node);
  return out;
}

int Run(int argc, char** argv, int self) {
  CLI::App app("Parallel Scalasca wait-state analysis of an OTF2 trace over MPI "
               "(the report of `qnm-predict trace analyze`)",
               "qnm-replay-mpi");
  qnm::trace::AnalyzeReportOptions args;
  std::string trace_path;
  app.add_option("trace", trace_path,
                 "traces.otf2 anchor, the directory holding it, or a tar or .zip archive holding one trace")
      ->required();
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
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, self, MPI_INFO_NULL, &node);
  NodeTrace trace = OpenOnNode(trace_path, node);
  // World rank 0 is its node's first process: it holds the input that tells unpacked paths.
  auto told = [&](const std::string& text) { return trace.input ? trace.input->Told(text) : text; };
  try {
    qnm::trace::CheckedReportFormat(args);  // the same on every process: all throw
    if (!trace.error.empty()) throw std::runtime_error(trace.error);  // already "file: why"
    qnm::trace::ParallelAnalysis analysis = qnm::trace::AnalyzeWaitStatesParallel(trace.read_path, MPI_COMM_WORLD);
    analysis.trace.path = told(analysis.trace.path);
    if (self == 0) qnm::trace::WriteAnalysisReport(analysis.trace, analysis.result, args);
    if (self == 0 && timings)
      for (const qnm::trace::PhaseTime& time : analysis.phase_times)
        std::cerr << "qnm-replay-mpi: " << time.phase << ": wall " << time.wall_s << " s, cpu " << time.cpu_s
                  << " s\n";
  } catch (const std::exception& e) {
    if (self == 0) std::cerr << "qnm-replay-mpi: " << told(e.what()) << "\n";
    status = 1;
  }
  // Process 0 alone may fail writing the report: every process exits with its status.
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // The node's unpacked trace outlives every reader on the node.
  MPI_Barrier(node);
  trace.input.reset();
  MPI_Comm_free(&node);
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
