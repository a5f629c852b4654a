// PBS job records read into run records (tests/data/pbs: the qstat -fx record of a finished OPM Flow
// job of 60 MPI processes on Azure, printed by PBS Pro in Azure/az-hop's tutorial, MIT, SOURCES.md
// there). The values below are copied from the file by hand. No public repository we found holds
// qstat records of one program at several sizes under a licence that allows copying them, so the
// campaign, Torque and damaged cases are edited copies of the real record, written by the test
// (what each edit changes is said where it is made).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "job_records/pbs_job_status.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kRecord = std::string(QNM_TEST_DATA_DIR) + "/pbs/azhop-opm-qstat-fx.txt";

// The real record as if the job had run `procs` processes on `nodes` nodes in `walltime`.
std::string Sized(int procs, int nodes, const std::string& walltime, const std::string& id) {
  std::string text = ReadText(kRecord);
  const std::string p = std::to_string(procs), n = std::to_string(nodes);
  text = Replaced(text, "Job Id: 8.scheduler", "Job Id: " + id);
  text = Replaced(text, "resources_used.walltime = 00:00:55", "resources_used.walltime = " + walltime);
  text = Replaced(text, "Resource_List.mpiprocs = 60", "Resource_List.mpiprocs = " + p);
  text = Replaced(text, "Resource_List.nodect = 1", "Resource_List.nodect = " + n);
  text = Replaced(text, "Resource_List.select = 1:ncpus=120:mpiprocs=60",
                  "Resource_List.select = " + n + ":ncpus=120:mpiprocs=" + std::to_string(procs / nodes));
  return text;
}

}  // namespace

TEST_CASE("qstat -fx: a finished PBS Pro job's processes, nodes, host and walltime", "[ingest][pbs]") {
  // "Resource_List.mpiprocs = 60", "Resource_List.select = 1:ncpus=120:mpiprocs=60:slot_type=hpc",
  // "Resource_List.nodect = 1", "exec_host = hpc-2/0*120", "resources_used.walltime = 00:00:55",
  // "job_state = F", "Exit_status = 0", "Job_Name = OPM", "Submit_arguments = /anfhome/clusteradmin/run_opm.sh".
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(kRecord, &summary);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.procs == 60);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.nodes == 1);
  CHECK(run.ranks_per_node == 60);
  CHECK(run.wall_time_s == 55);
  CHECK(run.app == "OPM");
  CHECK(run.problem_class == "run_opm.sh");
  CHECK(run.hosts == std::vector<std::string>{"hpc-2"});
  CHECK(run.machine == "hpc");
  CHECK(run.origin == "measurement:pbs:8.scheduler");
  CHECK(run.details.at("pbs_cput") == "00:45:00");
  CHECK(run.details.at("pbs_queue") == "workq");
  CHECK(run.details.count("pbs_procs_from") == 0);
  // The wrapped Variable_List is one attribute: no line of it was taken for another.
  CHECK(run.details.count("pbs_submit_arguments") == 1);
}

TEST_CASE("qstat: records of one job script at several sizes form a series; unfinished jobs are named",
          "[ingest][pbs][cli]") {
  testing::TempDir dir("qnm-pbs", "series");
  // Three finished sizes in one file (a user saving qstat -fx of each job), and a running one.
  std::string campaign = Sized(60, 1, "00:00:55", "8.scheduler") + "\n" + Sized(120, 2, "00:00:31", "9.scheduler") +
                         "\n" + Sized(240, 4, "00:00:19", "10.scheduler") + "\n" +
                         Replaced(Sized(480, 8, "00:00:04", "11.scheduler"), "job_state = F", "job_state = R");
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(WriteCase(dir, "jobs.txt", campaign), &summary);
  REQUIRE(runs.size() == 3);
  std::vector<Series> series = GroupIntoSeries(runs, GroupBy::kContent);
  REQUIRE(series.size() == 1);
  CHECK(series[0].name == "OPM.run_opm.sh @hpc");
  std::vector<int> procs;
  for (const RunGroup& g : series[0].groups) procs.push_back(g.procs);
  CHECK(procs == std::vector<int>{60, 120, 240});
  const std::string notes = testing::NotesOf(summary);
  INFO(notes);
  CHECK(notes.find("1 of its 4 jobs (the first at line 166: job 11.scheduler: job_state R (running), not a "
                   "finished job): not read") != std::string::npos);

  // A job that failed (exit status 1) is not a run; a file of no finished job is refused with the reason.
  const std::string failed = Replaced(ReadText(kRecord), "Exit_status = 0", "Exit_status = 1");
  CHECK(testing::IngestErrorOf(WriteCase(dir, "failed.txt", failed))
            .find("failed.txt:1: job 8.scheduler: exit status 1, not a completed run") != std::string::npos);
}

TEST_CASE("qstat: Torque's nodes=N:ppn=P, ompthreads, a prompt line before the record", "[ingest][pbs]") {
  testing::TempDir dir("qnm-pbs", "torque");
  // Torque prints no select or mpiprocs: nodes=2:ppn=16 allocates 32 cores, one slot each in exec_host.
  std::string torque = ReadText(kRecord);
  torque = Replaced(torque, "job_state = F", "job_state = C");
  torque = Replaced(torque, "exec_host = hpc-2/0*120", "exec_host = cn07/0+cn07/1+cn08/0+cn08/1");
  torque = Replaced(torque, "    Resource_List.mpiprocs = 60\n", "");
  torque = Replaced(torque, "    Resource_List.ncpus = 120\n", "");
  torque = Replaced(torque, "    Resource_List.nodect = 1\n", "");
  torque = Replaced(torque, "Resource_List.select = 1:ncpus=120:mpiprocs=60:slot_type=hpc",
                    "Resource_List.nodes = 2:ppn=16");
  // Saved with the prompt line that ran qstat.
  const std::vector<RunStats> runs =
      testing::IngestPath(WriteCase(dir, "OPM.qstat", "[user@login1 ~]$ qstat -f 8.scheduler\n" + torque));
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 32);
  CHECK(runs[0].details.at("pbs_procs_from") == "allocated cores");
  CHECK(runs[0].nodes == 2);
  CHECK(runs[0].hosts == std::vector<std::string>{"cn07", "cn08"});

  // ompthreads in the select: 2 chunks of 8 processes with 4 threads each.
  const std::string hybrid = Replaced(ReadText(kRecord), "Resource_List.select = 1:ncpus=120:mpiprocs=60:slot_type=hpc",
                                      "Resource_List.select = 2:ncpus=32:mpiprocs=8:ompthreads=4");
  const std::vector<RunStats> threaded = testing::IngestPath(WriteCase(dir, "hybrid.txt",
      Replaced(hybrid, "Resource_List.mpiprocs = 60", "Resource_List.mpiprocs = 16")));
  REQUIRE(threaded.size() == 1);
  CHECK(threaded[0].procs == 16);
  CHECK(threaded[0].threads_per_proc == 4);

  // A select without mpiprocs: PBS counts one MPI process per chunk, which names no program's size;
  // the job is read as one process per CPU, and says so.
  const std::string implicit = Replaced(ReadText(kRecord), "Resource_List.select = 1:ncpus=120:mpiprocs=60:slot_type=hpc",
                                        "Resource_List.select = 1:ncpus=120:slot_type=hpc");
  const std::vector<RunStats> cpus = testing::IngestPath(WriteCase(dir, "implicit.txt", implicit));
  REQUIRE(cpus.size() == 1);
  CHECK(cpus[0].procs == 120);
  CHECK(cpus[0].details.at("pbs_procs_from") == "allocated CPUs");
}

TEST_CASE("qstat: what cannot be read is refused with its file and line", "[ingest][pbs]") {
  testing::TempDir dir("qnm-pbs", "bad");
  const std::string text = ReadText(kRecord);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "walltime.txt", Replaced(text, "walltime = 00:00:55", "walltime = 55s")))
            .find("walltime.txt:9: job 8.scheduler: resources_used.walltime needs HH:MM:SS, got '55s'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "mpiprocs.txt", Replaced(text, "mpiprocs = 60", "mpiprocs = -60")))
            .find("mpiprocs.txt:27: job 8.scheduler: Resource_List.mpiprocs needs a positive count") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "line.txt", Replaced(text, "    queue = workq", "    queue workq")))
            .find("line.txt:11: a line of job 8.scheduler's qstat record that is no 'name = value'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "empty.txt", "Job Id: 12.pbs\n    Job_Name = x\n\nJob Id: 13.pbs\n"))
            .find("empty.txt:4: 'Job Id:' without an attribute under it") != std::string::npos);
  CHECK(LooksLikePbsJobStatus(text));
  // A record a job's script printed among its output is of a running job: such a file is not claimed.
  CHECK_FALSE(LooksLikePbsJobStatus("Starting OPM Flow\n" + Replaced(text, "job_state = F", "job_state = R")));
  CHECK_FALSE(LooksLikePbsJobStatus("Job Id: 12\nnothing = here\n"));  // no indented attribute of a record
}
