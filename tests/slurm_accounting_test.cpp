// Slurm accounting tables read into run records (tests/data/slurm: what Slurm 22.05.8's own sacct
// printed of 13 real jobs on a one-node test cluster, SOURCES.md there). The values below are
// copied from the files by hand.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "job_records/slurm_accounting.h"
#include "job_records/slurm_accounting_json.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kSlurm = std::string(QNM_TEST_DATA_DIR) + "/slurm";
const std::string kParsable2 = kSlurm + "/qnmtest-sacct-P.txt";   // sacct -P, 19 fields
const std::string kParsable = kSlurm + "/qnmtest-sacct-p.txt";    // sacct -p, the same fields
const std::string kTable = kSlurm + "/qnmtest-sacct-table.txt";   // sacct --format=..., no Cluster
const std::string kDefault = kSlurm + "/qnmtest-sacct-default.txt";  // sacct with its default fields

// The completed runs of the campaign by job id: processes, seconds (sacct's Elapsed).
const std::map<std::string, std::pair<int, double>> kRuns = {
    {"1.0", {2, 3}},   {"2.0", {1, 2}},   {"3.0", {2, 6}},  {"4.0", {4, 16}}, {"5.0", {1, 1}},
    {"5.1", {2, 6}},   {"5.2", {4, 14}},  {"6", {2, 4}},    {"7.0", {2, 6}},  {"8.0", {2, 3}},
    {"9_1.0", {1, 1}}, {"9_2.0", {1, 1}}};

std::map<std::string, const RunStats*> ByJob(const std::vector<RunStats>& runs) {
  std::map<std::string, const RunStats*> by_job;
  for (const RunStats& run : runs) by_job[run.details.at("slurm_job_id")] = &run;
  return by_job;
}

// Every completed run of the campaign read with its processes and time; the runs by job id.
std::map<std::string, const RunStats*> CheckCampaign(const std::vector<RunStats>& runs) {
  REQUIRE(runs.size() == kRuns.size());
  const auto by_job = ByJob(runs);
  for (const auto& [job, expected] : kRuns) {
    INFO(job);
    REQUIRE(by_job.count(job) == 1);
    CHECK(by_job.at(job)->procs == expected.first);
    CHECK(by_job.at(job)->wall_time_s == expected.second);
  }
  return by_job;
}

}  // namespace

TEST_CASE("sacct -P: every srun step a run, its tasks the processes, its elapsed time the run's", "[ingest][slurm]") {
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(kParsable2, &summary);
  const auto by_job = CheckCampaign(runs);
  for (const auto& [job, expected] : kRuns) {
    INFO(job);
    CHECK(by_job.at(job)->machine == "qnmtest");  // the Cluster field
    CHECK(by_job.at(job)->nodes == 1);
    CHECK(by_job.at(job)->threads_per_proc == (job == "7.0" ? 2 : 1));  // 7.0: srun -n 2 -c 2
  }
  // "4.0|4.0|jacobi||root|4|4|4|1|00:00:16|16|COMPLETED|0:0|vm|qnmtest|...": step 0 of a 4-task job.
  const RunStats& step = *by_job.at("4.0");
  CHECK(step.app == "jacobi");
  CHECK(step.problem_class == "2000000 300");  // the job is named as its program; its arguments
  CHECK(by_job.at("1.0")->problem_class == "4000000 100");  // another input of the program
  CHECK(step.hosts == std::vector<std::string>{"vm"});
  CHECK(step.details.at("slurm_submit_line") == "srun --mpi=pmix ./jacobi 2000000 300");
  CHECK(step.details.at("slurm_start") == "2026-11-30T03:49:29");
  CHECK(step.derivations.at("procs") == "sacct NTasks of step 4.0");
  CHECK(step.origin == "measurement:slurm:qnmtest:4.0");
  // Job 5 ran srun -n 1, 2, 4 in one script: three runs of the experiment 'jacobi-steps'.
  CHECK(by_job.at("5.1")->problem_class == "jacobi-steps 2000000 300");
  // Job 6 ran mpirun -np 2 with no srun step: the job is the run, of its 2 allocated CPUs, said so.
  const RunStats& mpirun = *by_job.at("6");
  CHECK(mpirun.app == "jacobi-mpirun");
  CHECK(mpirun.details.at("slurm_procs_from") == "allocated CPUs");
  CHECK(mpirun.derivations.at("procs").find("no srun step") != std::string::npos);
  // Job 8 failed in its second step (srun -n 2 false); its first step completed and is a run.
  CHECK(by_job.at("8.0")->problem_class == "jacobi-fail 2000000 100");
  CHECK(by_job.count("8.1") == 0);
}

TEST_CASE("sacct: runs that did not complete are counted and named, not read", "[ingest][slurm]") {
  IngestSummary summary;
  testing::IngestPath(kParsable2, &summary);
  std::string notes = testing::NotesOf(summary);
  for (const std::string& reading : summary.readings) notes += reading + "\n";
  INFO(notes);
  // 15 runs: the 12 above, step 8.1 (FAILED), 12.0 (cancelled at its time limit), 13.0 (scancel).
  CHECK(notes.find("3 of its 15 runs (the first at line 26: job 8 step 1: FAILED (exit code 1:0), not a "
                   "completed run): not read") != std::string::npos);
  CHECK(notes.find("sacct --parsable table: 15 runs (srun steps, else jobs), 12 completed; 1 without a task "
                   "count, read as one process per allocated CPU") != std::string::npos);

  // A table of which no run completed is refused with the first one's reason.
  testing::TempDir dir("qnm-slurm", "none");
  const std::string text = ReadText(kParsable2);
  std::string failed = text.substr(0, text.find('\n') + 1);
  for (const std::string_view line : SplitLines(text))
    if (StartsWith(line, "12") || StartsWith(line, "13")) failed += std::string(line) + "\n";
  const std::string error = testing::IngestErrorOf(WriteCase(dir, "failed.txt", failed));
  CHECK(error.find("failed.txt:2: job 12 step batch") == std::string::npos);
  CHECK(error.find("failed.txt:") != std::string::npos);
  CHECK(error.find("not a completed run") != std::string::npos);
  CHECK(error.find("TIMEOUT") != std::string::npos);
}

TEST_CASE("sacct -p and the default table read as sacct -P does", "[ingest][slurm]") {
  for (const std::string& path : {kParsable, kTable}) {
    INFO(path);
    CheckCampaign(testing::IngestPath(path));
  }
  // The default table has no Cluster: the machine is the hosts' stem. sacct cut 'jacobi-steps' to
  // its column of 10 ("jacobi-st+"); the run keeps it as printed and says so.
  const std::vector<RunStats> table_runs = testing::IngestPath(kTable);
  const auto table = ByJob(table_runs);
  CHECK(table.at("5.1")->machine == "vm");
  CHECK(table.at("5.1")->problem_class == "jacobi-st+");
  CHECK(table.at("5.1")->details.count("slurm_cut_values") == 1);
  CHECK(table.at("2.0")->details.count("slurm_cut_values") == 0);
}

TEST_CASE("sacct: a campaign forms series by program and experiment", "[ingest][slurm][cli]") {
  std::vector<Series> series = GroupIntoSeries(testing::IngestPath(kParsable2), GroupBy::kContent);
  std::map<std::string, std::vector<int>> procs;
  for (const Series& s : series)
    for (const RunGroup& g : s.groups) procs[s.name].push_back(g.procs);
  // Jobs 2-4: one job each at P = 1, 2, 4 named as their program; job 1 ran another input.
  CHECK(procs.at("jacobi.2000000 300 @qnmtest") == std::vector<int>{1, 2, 4});
  CHECK(procs.at("jacobi.4000000 100 @qnmtest") == std::vector<int>{2});
  CHECK(procs.at("jacobi.jacobi-steps 2000000 300 @qnmtest") == std::vector<int>{1, 2, 4});
  CHECK(procs.at("jacobi-mpirun @qnmtest") == std::vector<int>{2});
  CHECK(procs.at("jacobi.jacobi-array 1000000 200 @qnmtest") == std::vector<int>{1});
  CHECK(procs.at("jacobi.jacobi-hybrid 2000000 300 th=2 @qnmtest") == std::vector<int>{2});  // srun -c 2
  CHECK(procs.size() == 7);  // and jacobi-fail
}

TEST_CASE("sacct: what cannot be read is refused with its file and line", "[ingest][slurm]") {
  // sacct's default fields hold no time.
  CHECK(testing::IngestErrorOf(kDefault).find(
            "qnmtest-sacct-default.txt:1: a sacct table without Elapsed or ElapsedRaw") != std::string::npos);
  testing::TempDir dir("qnm-slurm", "bad");
  const std::string text = ReadText(kParsable2);
  // An elapsed time that is none (line 12 is job 4.0's row).
  const std::string bad_time = Replaced(text, "|00:00:16|16|COMPLETED|0:0|vm|qnmtest|2026-11-30T03:49:29|2026-11-30"
                                              "T03:49:45|00:05.353|srun", "|00:00:16|16s|COMPLETED|0:0|vm|qnmtest|"
                                              "2026-11-30T03:49:29|2026-11-30T03:49:45|00:05.353|srun");
  CHECK(testing::IngestErrorOf(WriteCase(dir, "time.txt", bad_time)).find("time.txt:12: job 4.0: field ElapsedRaw") !=
        std::string::npos);
  // A row with one field too many (a '|' in a value, which sacct does not escape).
  const std::string extra = Replaced(text, "srun --mpi=pmix -n 2 -c 2", "srun --mpi=pmix | -n 2 -c 2");
  CHECK(testing::IngestErrorOf(WriteCase(dir, "extra.txt", extra)).find("20 fields where the header at line 1 names 19") !=
        std::string::npos);
  // Tasks that are no count.
  const std::string tasks = Replaced(text, "5.2|5.2|jacobi||root|4|4|4|", "5.2|5.2|jacobi||root|4|4|-4|");
  CHECK(testing::IngestErrorOf(WriteCase(dir, "tasks.txt", tasks)).find("job 5.2: field ntasks needs a positive count") !=
        std::string::npos);
  // A job id that is none.
  const std::string id = Replaced(text, "\n7.0|7.0|", "\nseven|7.0|");
  CHECK(testing::IngestErrorOf(WriteCase(dir, "id.txt", id)).find("'seven' is not a Slurm job id") != std::string::npos);
  // A header without a job.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "header.txt", text.substr(0, text.find('\n') + 1)))
            .find("a sacct header without a job under it") != std::string::npos);
}

TEST_CASE("sacct: elapsed times with days, and tables without NTasks or State", "[ingest][slurm]") {
  testing::TempDir dir("qnm-slurm", "fields");
  const std::string days = WriteCase(dir, "days.txt",
                                     "JobID|JobName|NTasks|NNodes|Elapsed|State\n"
                                     "77|wrf_4nodes_n128||4|1-00:03:02|COMPLETED\n"
                                     "77.0|wrf.exe|128|4|1-00:02:58|COMPLETED\n");
  const std::vector<RunStats> runs = testing::IngestPath(days);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].wall_time_s == 86400 + 2 * 60 + 58);
  CHECK(runs[0].procs == 128);
  CHECK(runs[0].nodes == 4);
  CHECK(runs[0].ranks_per_node == 32);
  CHECK(runs[0].app == "wrf.exe");
  CHECK(runs[0].problem_class == "wrf");  // "4nodes" and "n128" name this run's own counts
  CHECK(runs[0].machine.empty());

  // sacct -X: allocations only, no task count: one process per allocated CPU, said so.
  IngestSummary summary;
  const std::string allocations = WriteCase(dir, "x.txt",
                                            "JobID|JobName|AllocCPUS|Elapsed\n"
                                            "80|lmp-64|64|00:10:00\n"
                                            "81|lmp-128|128|00:05:30\n");
  const std::vector<RunStats> jobs = testing::IngestPath(allocations, &summary);
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].app == "lmp");
  CHECK(jobs[1].app == "lmp");
  CHECK(jobs[1].procs == 128);
  CHECK(jobs[1].wall_time_s == 330);
  std::string notes;
  for (const std::string& reading : summary.readings) notes += reading + "\n";
  INFO(notes);
  CHECK(notes.find("no State field: every run taken as completed") != std::string::npos);
  CHECK(notes.find("2 without a task count") != std::string::npos);
}

TEST_CASE("sacct: a job that ran mpirun across nodes: its daemon step, the job's CPUs and nodes", "[ingest][slurm]") {
  // Open MPI's mpirun starts its orted daemons with srun on the nodes other than the job script's:
  // the step's one task per node and its CPUs are no count of the program's processes.
  testing::TempDir dir("qnm-slurm", "orted");
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(
      WriteCase(dir, "orted.txt",
                "JobID|JobName|NTasks|NNodes|AllocCPUS|Elapsed|State|NodeList|Cluster\n"
                "90|wrf_2nodes||2|64|00:12:00|COMPLETED|nid[001-002]|archer2\n"
                "90.batch|batch|1|1|32|00:12:00|COMPLETED|nid001|archer2\n"
                "90.0|orted|1|1|32|00:11:50|COMPLETED|nid002|archer2\n"),
      &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 64);
  CHECK(runs[0].nodes == 2);
  CHECK(runs[0].hosts == std::vector<std::string>{"nid001", "nid002"});
  CHECK(runs[0].wall_time_s == 710);
  CHECK(runs[0].app == "wrf");  // the job's name, without its node count
  CHECK(runs[0].machine == "archer2");
  CHECK(runs[0].derivations.at("procs").find("counts daemons, not processes") != std::string::npos);
  CHECK(runs[0].derivations.at("wall_time_s").find("mpirun's daemon step") != std::string::npos);
}

TEST_CASE("sacct: a job's name without the run's own counts", "[ingest][slurm]") {
  CHECK(JobNameWithoutCounts("lmp-64", 64, 2) == "lmp");
  CHECK(JobNameWithoutCounts("lmp-64", 32, 2) == "lmp-64");  // 64 is not this run's count
  CHECK(JobNameWithoutCounts("gromacs_N2_np64", 64, 2) == "gromacs");
  CHECK(JobNameWithoutCounts("cp2k.h2o-64.4nodes", 256, 4) == "cp2k.h2o-64");
  CHECK(JobNameWithoutCounts("bench", 8, 1) == "bench");
  CHECK(JobNameWithoutCounts("128", 128, 1).empty());
  CHECK(JobNameWithoutCounts("64-lmp", 64, 1) == "lmp");
  CHECK(JobNameWithoutCounts("a_64_b", 64, 1) == "a_b");
  CHECK(ProgramArguments("srun --mpi=pmix -n 4 ./lmp -in in.lj -log log.4", "lmp", 4, 1) == "-in in.lj -log log");
  CHECK(ProgramArguments("srun -n 4 ./other 1 2", "lmp", 4, 1).empty());
  CHECK(LooksLikeSacctTable("JobID|JobName|Elapsed\n1|a|00:00:01\n"));
  CHECK(LooksLikeSacctTable("JobID    Elapsed \n------------ ---------- \n"));
  CHECK_FALSE(LooksLikeSacctTable("JobID Elapsed\n1 00:00:01\n"));  // no dashes: not sacct's table
  CHECK_FALSE(LooksLikeSacctTable("procs,time_s\n1,2\n"));
}

TEST_CASE("sacct --json: the same runs as sacct -P, from Slurm's REST data model", "[ingest][slurm]") {
  // Slurm 22.05.8's sacct -a --json of the same 13 jobs (data_parser v0.0.38), gzipped as saved.
  const std::string json = kSlurm + "/qnmtest-sacct-json.json.gz";
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(json, &summary);
  const auto by_job = CheckCampaign(runs);  // every completed run: processes and elapsed time as -P's
  const std::vector<RunStats> table_runs = testing::IngestPath(kParsable2);
  const auto table = ByJob(table_runs);
  for (const auto& [job, run] : by_job) {
    INFO(job);
    CHECK(run->machine == "qnmtest");  // "cluster"
    CHECK(run->nodes == table.at(job)->nodes);
    CHECK(run->hosts == table.at(job)->hosts);
    CHECK(run->app == table.at(job)->app);
    CHECK(run->details.at("slurm_partition") == "batch");
  }
  // Job 6 (mpirun, no srun step): the job's allocated TRES cpu count, said so, as in -P.
  CHECK(by_job.at("6")->details.at("slurm_procs_from") == "allocated CPUs");
  CHECK(by_job.at("6")->derivations.at("procs").find("no srun step") != std::string::npos);
  // The array's tasks keep sacct's ids "9_1", "9_2" (their raw job ids are 11 and 9).
  CHECK(by_job.at("9_1.0")->origin == "measurement:slurm:qnmtest:9_1.0");
  // A job's line in the file names its runs (the '{' of its element of "jobs").
  CHECK(by_job.at("4.0")->sources.front() == json + ":1725");
  std::string notes = testing::NotesOf(summary);
  for (const std::string& reading : summary.readings) notes += reading + "\n";
  INFO(notes);
  CHECK(notes.find("sacct --json: 15 runs (srun steps, else jobs), 12 completed; 1 without a task count") !=
        std::string::npos);
  // Slurm 22.05 writes {"status": "SUCCESS", "return_code": 0} for the FAILED step 8.1 (the table: 1:0):
  // no exit code is quoted rather than a wrong one.
  CHECK(notes.find("job 8 step 1: FAILED, not a completed run") != std::string::npos);
  // What v0.0.38 does not hold, the runs do not claim: no command line (so no program arguments in
  // the class, no srun -c threads for the hybrid job 7).
  CHECK(by_job.at("4.0")->problem_class.empty());
  CHECK(by_job.at("7.0")->threads_per_proc == 1);
  CHECK(LooksLikeSacctJson(ReadText(kParsable2)) == false);
}

TEST_CASE("sacct --json: later releases' shapes, and what cannot be read", "[ingest][slurm]") {
  testing::TempDir dir("qnm-slurm", "json");
  // data_parser v0.0.39 and later: states as flag lists, numbers as {set, infinite, number}, a step's
  // id as "1234.0", the job's submit_line. An edit of the shape, not a real file of those releases.
  const std::string later = R"({"jobs": [{"job_id": 1234, "name": "lmp-64", "cluster": "c1",
    "array": {"job_id": 0, "task_id": {"set": false, "infinite": false, "number": 0}},
    "het": {"job_id": 0, "job_offset": {"set": false, "infinite": false, "number": 0}},
    "allocation_nodes": 2, "nodes": "n[01-02]", "state": {"current": ["COMPLETED"], "reason": "None"},
    "time": {"elapsed": 100}, "exit_code": {"status": ["SUCCESS"], "return_code": {"set": true, "infinite": false, "number": 0}},
    "submit_line": "sbatch run.sh",
    "steps": [{"step": {"id": "1234.batch", "name": "batch"}, "tasks": {"count": 1}, "nodes": {"count": 1, "range": "n01"},
               "time": {"elapsed": 100}, "state": ["COMPLETED"]},
              {"step": {"id": "1234.0", "name": "lmp"}, "tasks": {"count": 64}, "nodes": {"count": 2, "range": "n[01-02]"},
               "time": {"elapsed": 95}, "state": ["COMPLETED"]},
              {"step": {"id": "1234.1", "name": "lmp"}, "tasks": {"count": 64}, "nodes": {"count": 2, "range": "n[01-02]"},
               "time": {"elapsed": 7}, "state": ["FAILED"],
               "exit_code": {"status": ["FAILED"], "return_code": {"set": true, "infinite": false, "number": 3}}}]}],
    "meta": {"slurm": {"release": "24.05.1"}}, "errors": [], "warnings": []})";
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(WriteCase(dir, "later.json", later), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 64);
  CHECK(runs[0].wall_time_s == 95);
  CHECK(runs[0].nodes == 2);
  CHECK(runs[0].hosts == std::vector<std::string>{"n01", "n02"});
  CHECK(runs[0].details.at("slurm_job_id") == "1234.0");
  CHECK(runs[0].app == "lmp");
  CHECK(runs[0].problem_class.empty());  // the job's name without its count ("lmp-64") is the program's
  const std::string notes = testing::NotesOf(summary);
  CHECK(notes.find("job 1234 step 1: FAILED (exit code 3:0)") != std::string::npos);

  // Damaged: not JSON, no jobs, a job without its id, a step without one: one line naming the file.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "cut.json", later.substr(0, 300))).find("cut.json:") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "empty.json", R"({"jobs": [], "meta": {}, "job_id": 1})"))
            .find("empty.json:1: a sacct --json document whose \"jobs\" array is empty") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "noid.json", "{\"jobs\": [\n {\"name\": \"a\", \"job_id\": null}]}"))
            .find("noid.json:2: a sacct --json job without a positive \"job_id\"") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "nostep.json", Replaced(later, R"("id": "1234.0", )", "")))
            .find("nostep.json:1: job 1234: a step without a step id") != std::string::npos);
}
