// ONETEP outputs read into the run record (tests/data/onetep: two outputs of ONETEP 6.1.45 from the ONETEP
// tutorials, SOURCES.md there): the processes, the ranks on the root's node, the threads, the timing report's
// TOTAL TIME; a cut output noted as unfinished; the refusals. The values below are copied from the files by hand.
#include "app_outputs/onetep_output.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "ingest/ingest.h"
#include "reader/file_name_info.h"
#include "record/run_stats.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kOnetep = std::string(QNM_TEST_DATA_DIR) + "/onetep";

qnm::ReaderOutput Read(const std::string& path, const std::string& text) {
  qnm::ReaderInput input;
  input.path = path;
  input.text = text;
  input.name = qnm::ParseFileName(path);
  return qnm::ReadOnetepOutput(input);
}

std::string ErrorOf(const std::string& text) {
  try {
    qnm::ParseOnetepOutput(text, "t.out");
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("ONETEP: processes, ranks per node, threads and TOTAL TIME of a run on five nodes", "[onetep]") {
  const std::string path = kOnetep + "/C70_in_10-8.out";
  const std::string text = qnm::ReadFile(path);
  CHECK(qnm::LooksLikeOnetepOutput(text));
  const std::vector<qnm::OnetepRun> runs = qnm::ParseOnetepOutput(text, path);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].version == "6.1.45");
  CHECK(runs[0].input == "C70_in_10-8.dat");
  CHECK(runs[0].processes == 90);
  CHECK(runs[0].ranks_on_root_node == 18);
  CHECK(runs[0].threads == 4);
  const qnm::ReaderOutput output = Read(path, text);
  REQUIRE(output.runs.size() == 1);
  const qnm::RunStats& run = output.runs[0];
  CHECK(run.app.str() == "onetep");
  CHECK(run.procs == 90);
  CHECK(run.ranks_per_node == 18);
  CHECK(run.nodes == 5);
  CHECK(run.threads_per_proc == 4);
  CHECK(run.wall_time_s == 464.997);
  CHECK(run.app_time_mean_s == 464.994);
  CHECK(run.tool_version == "ONETEP 6.1.45");
  CHECK(run.problem_class == "C70_in_10-8.dat");
  CHECK(run.derivations.at("wall_time_s") == "ONETEP timing report's 'TOTAL TIME' (the run's wall-clock time)");
}

TEST_CASE("ONETEP: two processes on one node; a cut output did not finish; refusals", "[onetep]") {
  const std::string path = kOnetep + "/methyl.out";
  const std::string text = qnm::ReadFile(path);
  const qnm::ReaderOutput output = Read(path, text);
  REQUIRE(output.runs.size() == 1);
  CHECK(output.runs[0].procs == 2);
  CHECK(output.runs[0].ranks_per_node == 2);
  CHECK(output.runs[0].nodes == 1);
  CHECK(output.runs[0].threads_per_proc == 10);
  CHECK(output.runs[0].wall_time_s == 109.595);
  // Cut before its timing report (killed, out of time): noted, not read; alone, the file is refused.
  const std::string cut = text.substr(0, text.find("TOTAL TIME:"));
  CHECK_THROWS_WITH(Read("cut.out", cut), Catch::Contains("did not finish"));
  // Ingest tells the two tutorials' inputs apart.
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> both = qnm::IngestPaths({kOnetep}, {}, &summary);
  CHECK(both.size() == 2);
  CHECK(qnm::GroupIntoSeries(both).size() == 2);
  CHECK(ErrorOf(" |        Linear-Scaling Ab Initio Total Energy Program          |\n"
                "   Running with 4 MPI processes.\nTOTAL TIME:   12.5s on   8 proc(s)\n") ==
        "t.out:3: ONETEP: 'TOTAL TIME' on 8 proc(s) in a run of 4 MPI processes");
  CHECK(ErrorOf(" |        Linear-Scaling Ab Initio Total Energy Program          |\n"
                "TOTAL TIME:   x.5s on   8 proc(s)\n")
            .find("t.out:2:") == 0);
  CHECK(ErrorOf(" |        Linear-Scaling Ab Initio Total Energy Program          |\n"
                "   Running with many MPI processes.\n")
            .find("t.out:2:") == 0);
  CHECK_FALSE(qnm::LooksLikeOnetepOutput("CASTEP version 20.11\nTotal time = 12 s\n"));
}
