// LSF job reports in a job's output file (job_records/lsf_job_output.h; tests/data/lsf, written in LSF 10.1's
// layout, SOURCES.md there): the report at the head or appended at the end, processes from the launch command or
// #BSUB -n, the layout the script fixes (not the scheduler's placement), a launch node left out, LSF's run time,
// a job killed at its run limit noted, and the refusals.
#include "job_records/lsf_job_output.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "reader/file_name_info.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kLsf = std::string(QNM_TEST_DATA_DIR) + "/lsf";

qnm::ReaderOutput Read(const std::string& name) {
  qnm::ReaderInput input;
  input.path = kLsf + "/" + name;
  const std::string text = qnm::ReadFile(input.path);  // the reader's input views it
  input.text = text;
  input.name = qnm::ParseFileName(input.path);
  return qnm::ReadLsfJobOutput(input);
}

}  // namespace

TEST_CASE("LSF: the report at the head of a job's output, #BSUB -n and span[ptile]", "[lsf]") {
  const std::string text = qnm::ReadFile(kLsf + "/stencil_head.out");
  CHECK(qnm::LooksLikeLsfJobOutput(text));
  const std::vector<qnm::LsfJobReport> jobs = qnm::ParseLsfJobOutput(text, "stencil_head.out");
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].job_id == "482113");
  CHECK(jobs[0].queue == "parallel");
  REQUIRE(jobs[0].hosts.size() == 2);
  CHECK(jobs[0].hosts[1] == std::pair<std::string, int>{"node018", 4});
  CHECK(jobs[0].bsub_n == 8);
  CHECK(jobs[0].ptile == 4);
  CHECK(jobs[0].command == "mpirun ./stencil 4000000 100");
  CHECK(jobs[0].run_time_s == 42);
  CHECK(jobs[0].between_s == 43);
  CHECK(jobs[0].completed);
  const qnm::ReaderOutput output = Read("stencil_head.out");
  REQUIRE(output.runs.size() == 1);
  const qnm::RunStats& run = output.runs[0];
  CHECK(run.procs == 8);
  CHECK(run.derivations.at("procs") == "LSF job script's #BSUB -n");
  CHECK(run.ranks_per_node == 4);
  CHECK(run.nodes == 2);
  CHECK(run.wall_time_s == 42);
  CHECK(run.app.str() == "stencil");
  CHECK(run.details.at("command.arguments") == "4000000 100");
  CHECK(run.details.at("lsf_hosts") == "4*node017 4*node018");
  CHECK(run.details.at("lsf_cpu_time_s") == "331.2");
}

TEST_CASE("LSF: the report appended after the output; the command's -np; no layout the scheduler chose", "[lsf]") {
  const qnm::ReaderOutput output = Read("stencil_tail.out");
  REQUIRE(output.runs.size() == 1);
  const qnm::RunStats& run = output.runs[0];
  CHECK(run.procs == 16);
  CHECK(run.derivations.at("procs") == "LSF job script's command (line 23): mpirun -np 16");
  CHECK(run.threads_per_proc == 1);
  CHECK(run.nodes == 0);  // 16 slots on one host: where LSF put them, not what the script asked for
  CHECK(run.ranks_per_node == 0);
  CHECK(run.wall_time_s == 26);
  CHECK(run.sources.front() == kLsf + "/stencil_tail.out:4");
  // Both jobs of one program and input: one series at P = 8 and 16.
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({kLsf + "/stencil_head.out", kLsf + "/stencil_tail.out"}, {}, &summary);
  REQUIRE(runs.size() == 2);
  CHECK(qnm::GroupIntoSeries(runs).size() == 1);
}

TEST_CASE("LSF: a launch node left out, jsrun's processes, #BSUB -nnodes; a killed job; refusals", "[lsf]") {
  const qnm::ReaderOutput output = Read("jsrun_launch_node.out");
  REQUIRE(output.runs.size() == 1);
  CHECK(output.runs[0].procs == 84);
  CHECK(output.runs[0].nodes == 2);
  CHECK(output.runs[0].ranks_per_node == 42);
  CHECK(output.runs[0].details.at("lsf_hosts") == "42*a01n01 42*a01n02");
  CHECK(output.runs[0].wall_time_s == 219);
  CHECK(output.runs[0].app.str() == "lulesh2.0");
  CHECK_THROWS_WITH(Read("stencil_runlimit.out"),
                    Catch::Contains("the LSF job did not complete: TERM_RUNLIMIT: job killed after reaching LSF run "
                                    "time limit."));
  auto refusal = [](const std::string& text) {
    try {
      qnm::ParseLsfJobOutput(text, "j.out");
    } catch (const qnm::InputError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(refusal("Sender: LSF System <a>\nSubject: Job 1: <x> Done\nJob was executed on host(s) <x*n1>, in queue <q>\n")
            .find("j.out:3:") == 0);
  CHECK(
      refusal("Sender: LSF System <a>\nSubject: Job 1: <x> Done\nSuccessfully completed.\n    Run time :   abc sec.\n")
          .find("j.out:4:") == 0);
  CHECK_FALSE(qnm::LooksLikeLsfJobOutput("Sender: LSF System is a phrase\nnothing else\n"));
  CHECK_FALSE(qnm::LooksLikeLsfJobOutput("Job was executed on host(s) <n1>\n"));
}
