// Our .cubex read back the way a peer reads it: through the CUBE reader of
// ingest/ (anchor.xml, then each metric's .index and .data), the same path
// that reads Score-P's and Scalasca's files. A peer (pyCubexR, Extra-P) takes
// the call tree's root as the whole program, so there must be exactly one,
// and its inclusive time must be the JSON report's total
// (docs/formats/scalasca-patterns.md section 9 says how pyCubexR was checked).
#include <catch2/catch.hpp>

#include <string>

#include "cube/cube_profile.h"
#include "trace/cube_writer.h"
#include "trace/otf2_reader.h"
#include "trace/wait_state_report.h"
#include "trace/wait_states.h"

using namespace qnm;

TEST_CASE("cube writer: one root, and the peer-read totals equal the JSON report's", "[trace][cube]") {
  auto tag = GENERATE(as<std::string>{}, "pipit-ping-pong-otf2", "sstelements-emberotf2-test",
                      "sstmacro-mpi-coverage-test", "synthetic-patterns-4rank", "tracer-stencil4d-32");
  INFO(tag);
  trace::Trace trace = trace::ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag);
  trace::WaitStateResult result = trace::AnalyzeWaitStates(trace);
  double json_total = 0, json_mpi = 0;
  for (const trace::MetricNode& node : trace::MetricTree(trace, result)) {
    if (node.id == "time") json_total = node.value_s;
    if (node.id == "mpi") json_mpi = node.value_s;
  }
  REQUIRE(json_total > 0);

  CubeProfile cube = ParseCubeProfile(trace::CubeReport(trace, result), tag + ".cubex");
  int roots = 0, root = -1;
  for (std::size_t c = 0; c < cube.call_nodes.size(); ++c)
    if (cube.call_nodes[c].parent < 0) {
      ++roots;
      root = static_cast<int>(c);
    }
  REQUIRE(roots == 1);
  // The root is the program ProgramBegin names, or our artificial "(program)".
  const std::string& root_name = cube.regions[cube.call_nodes[root].region].name;
  if (trace.program_region != trace::kNone)
    CHECK(root_name == trace.call_paths.region(trace.program_region).name);
  else
    CHECK(root_name == (trace.program_name.empty() ? "(program)" : trace.program_name));

  const std::size_t columns = cube.locations.size();
  REQUIRE(cube.inclusive_time.size() == cube.call_nodes.size() * columns);
  double root_inclusive = 0, exclusive_sum = 0;
  for (std::size_t l = 0; l < columns; ++l) root_inclusive += cube.inclusive_time[root * columns + l];
  for (double seconds : cube.exclusive_time) exclusive_sum += seconds;
  CHECK(root_inclusive == Approx(json_total).epsilon(1e-12));
  CHECK(exclusive_sum == Approx(json_total).epsilon(1e-12));

  // Each call path's inclusive time covers its children (what Cube and
  // Extra-P show), and the MPI regions hold the JSON's MPI time.
  double mpi_exclusive = 0;
  for (std::size_t c = 0; c < cube.call_nodes.size(); ++c) {
    const CubeCallNode& node = cube.call_nodes[c];
    if (cube.regions[node.region].paradigm == "mpi")
      for (std::size_t l = 0; l < columns; ++l) mpi_exclusive += cube.exclusive_time[c * columns + l];
    if (node.parent < 0) continue;
    for (std::size_t l = 0; l < columns; ++l)
      CHECK(cube.inclusive_time[node.parent * columns + l] >= cube.inclusive_time[c * columns + l] - 1e-12);
  }
  CHECK(mpi_exclusive == Approx(json_mpi).epsilon(1e-9));
}
