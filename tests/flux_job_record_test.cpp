// Flux job records in jobs' outputs (tests/data/flux: the converged-computing cloud study's runs,
// each output followed by its job's jobspec and exec eventlog; SOURCES.md there). The expected
// values are the files' own: the jobspec's node, slot and core counts, and the eventlog's timestamps
// (complete - init) computed from the printed digits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest_test_util.h"
#include "job_records/flux_job_record.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kFlux = std::string(QNM_TEST_DATA_DIR) + "/flux";
const std::string kGemm32 = kFlux + "/mt-gemm/aws-eks-size32/mt-gemm-32-iter--1697636155392.out";
const std::string kLammps32 = kFlux + "/lammps/aws-eks-size32/lammps-32-iter-1-20k-8548847190016.out";
const std::string kLammpsDoom = kFlux + "/lammps/azure-aks-size64/lammps-reax-64-iter-1-4213513912320.out";

// mt-gemm-32's exec eventlog, lines 5-11 of the file.
const std::string kGemmEventlog =
    "{\"timestamp\":1724293585.7659802,\"name\":\"init\"}\n"
    "{\"timestamp\":1724293585.7666693,\"name\":\"starting\"}\n"
    "{\"timestamp\":1724293585.7946634,\"name\":\"shell.init\",\"context\":{\"service\":\"0-shell-fmbTJ3F5\","
    "\"leader-rank\":0,\"size\":32}}\n"
    "{\"timestamp\":1724293586.0937545,\"name\":\"shell.start\",\"context\":{\"taskmap\":{\"version\":1,\"map\":"
    "[[0,32,96,1]]}}}\n"
    "{\"timestamp\":1724293600.9446857,\"name\":\"shell.task-exit\",\"context\":{\"localid\":72,\"rank\":456,"
    "\"state\":\"Exited\",\"pid\":210,\"wait_status\":0,\"signaled\":0,\"exitcode\":0}}\n"
    "{\"timestamp\":1724293601.4905522,\"name\":\"complete\",\"context\":{\"status\":0}}\n"
    "{\"timestamp\":1724293601.4906082,\"name\":\"done\"}\n";

}  // namespace

TEST_CASE("Flux: a job's output no application reader takes is its job record's run", "[ingest][flux]") {
  IngestSummary summary;
  std::vector<RunStats> runs = testing::IngestPath(kFlux + "/mt-gemm", &summary);
  REQUIRE(runs.size() == 4);
  std::sort(runs.begin(), runs.end(), [](const RunStats& a, const RunStats& b) { return a.procs < b.procs; });
  // Sorted by P: 32, 64, 128 and 256 nodes of one 96-slot task each; complete - init.
  const int nodes[] = {32, 64, 128, 256};
  const double seconds[] = {1724293601.4905522 - 1724293585.7659802, 24.567389488220215, 50.805012464523315,
                            151.66698837280273};
  for (int k = 0; k < 4; ++k) {
    INFO(k);
    const RunStats& run = runs[k];
    CHECK(run.app == "1_dense_gemm_mpi");  // /opt/dense_linear_algebra/gemm/mpi/build/1_dense_gemm_mpi
    CHECK(run.procs == 96 * nodes[k]);
    CHECK(run.nodes == nodes[k]);
    CHECK(run.ranks_per_node == 96);
    CHECK(run.threads_per_proc == 1);
    CHECK(run.wall_time_s == Approx(seconds[k]).epsilon(1e-12));
    CHECK(run.details.at("flux_eventlog") == "exec eventlog");
    CHECK(run.derivations.at("wall_time_s").find("complete - init") != std::string::npos);
  }
  CHECK(runs[0].sources.front() == kGemm32 + ":10");  // the complete event's line
  // One program, one setting: one series of four process counts.
  CHECK(KeyOf(runs[0]) == KeyOf(runs[3]));
}

TEST_CASE("Flux: an application's output keeps its reading; the record adds nodes and the job's time",
          "[ingest][flux]") {
  IngestSummary summary;
  const RunStats run = testing::Only(testing::IngestPath(kLammps32, &summary));
  CHECK(run.app == "lammps");
  CHECK(run.wall_time_s == 73.2147);  // LAMMPS's own "Loop time" reading, not the job's
  CHECK(run.procs == 3072);
  CHECK(run.nodes == 32);
  CHECK(run.ranks_per_node == 96);
  CHECK(run.derivations.at("nodes").find("Flux jobspec") != std::string::npos);
  CHECK(testing::DetailNumber(run, "flux_run_time_s") == Approx(85.50299167633057).epsilon(1e-9));
  CHECK(run.details.at("flux_status") == "exit code 0");
  CHECK(testing::NotesOf(summary).find("Flux") == std::string::npos);  // nothing to say
}

TEST_CASE("Flux: a job that ended badly after the program finished keeps the program's reading, with a note",
          "[ingest][flux]") {
  IngestSummary summary;
  const RunStats run = testing::Only(testing::IngestPath(kLammpsDoom, &summary));
  CHECK(run.wall_time_s == Approx(357.8).epsilon(1e-3));  // LAMMPS's loop time
  CHECK(run.nodes == 64);
  CHECK(run.details.at("flux_status") == "exit code 143 (128 + signal 15)");
  CHECK(testing::DetailNumber(run, "flux_run_time_s") == Approx(1063.12796).epsilon(1e-7));
  CHECK(testing::NotesOf(summary).find("the Flux job ended badly (exit code 143 (128 + signal 15)) after the program "
                                       "had printed its results") != std::string::npos);
}

TEST_CASE("Flux: a failed job alone is refused with its status", "[ingest][flux]") {
  CHECK(testing::IngestErrorOf(kFlux + "/failed") ==
        kFlux +
            "/failed/mixbench--iter-1-1765499994112.out:14: the Flux job failed (exit code 127): not a finished "
            "run");
  // The jobs' outputs of the folder: six runs, and the failed job skipped with its reason.
  IngestSummary summary;
  IngestOptions options;
  const std::vector<RunStats> runs =
      IngestPaths({kFlux + "/failed", kFlux + "/lammps", kFlux + "/mt-gemm"}, options, &summary);
  CHECK(runs.size() == 6);
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped.front().reason ==
        kFlux +
            "/failed/mixbench--iter-1-1765499994112.out:14: the Flux job failed (exit code 127): not a finished run");
}

TEST_CASE("Flux: the job's own eventlog counts as flux jobs does; the text form; the jobspec's forms",
          "[ingest][flux]") {
  testing::TempDir dir("qnm-flux", "forms");
  const std::string text = ReadText(kGemm32);
  // The job eventlog of RFC 21 (flux job eventlog -f json): RUNTIME is finish - alloc.
  const std::string job_log =
      "{\"timestamp\":1724293585.10,\"name\":\"submit\",\"context\":{\"userid\":0,\"urgency\":16,\"flags\":0,"
      "\"version\":1}}\n"
      "{\"timestamp\":1724293585.50,\"name\":\"alloc\"}\n"
      "{\"timestamp\":1724293586.25,\"name\":\"start\"}\n"
      "{\"timestamp\":1724293601.75,\"name\":\"finish\",\"context\":{\"status\":0}}\n"
      "{\"timestamp\":1724293601.80,\"name\":\"release\",\"context\":{\"ranks\":\"all\",\"final\":true}}\n";
  RunStats run = testing::Only(testing::IngestPath(WriteCase(dir, "job.out", Replaced(text, kGemmEventlog, job_log))));
  CHECK(run.wall_time_s == Approx(1724293601.75 - 1724293585.50).epsilon(1e-12));
  CHECK(run.derivations.at("wall_time_s").find("finish - alloc") != std::string::npos);
  // Both eventlogs saved: the job's counts.
  run = testing::Only(testing::IngestPath(WriteCase(dir, "both.out", text + "\n" + job_log)));
  CHECK(run.wall_time_s == Approx(16.25).epsilon(1e-9));
  // flux job eventlog's default text form.
  // flux job eventlog's default text form (libeventlog's formatter: %lf, the name, key=compact JSON).
  const std::string text_log =
      "1724293585.100000 submit userid=0 urgency=16 flags=0 version=1\n1724293585.500000 alloc\n"
      "1724293586.250000 start\n1724293601.750000 finish status=0\n";
  run = testing::Only(testing::IngestPath(WriteCase(dir, "text.out", Replaced(text, kGemmEventlog, text_log))));
  CHECK(run.wall_time_s == Approx(16.25).epsilon(1e-9));
  // ... whose quoted strings hold spaces: a severity-0 exception's type and note read whole.
  const std::string cancelled =
      "1724293585.500000 alloc\n"
      "1724293590.000000 exception type=\"cancel\" severity=0 note=\"by the user\" userid=0\n"
      "1724293590.250000 finish status=15\n";
  CHECK(testing::IngestErrorOf(WriteCase(dir, "cancel.out", Replaced(text, kGemmEventlog, cancelled)))
            .find("the Flux job raised an exception (cancel: by the user)") != std::string::npos);
  // A task count given as a total; cores per slot are the threads; a container image's program.
  std::string spec = Replaced(text, "\"count\": {\"per_slot\": 1}", "\"count\": {\"total\": 64}");
  spec = Replaced(spec, "{\"type\": \"core\", \"count\": 1}", "{\"type\": \"core\", \"count\": 4}");
  spec = Replaced(spec, "[\"/opt/dense_linear_algebra/gemm/mpi/build/1_dense_gemm_mpi\"]",
                  "[\"singularity\", \"exec\", \"--bind\", \"/opt\", \"/opt/containers/mt-gemm_rocky-8.sif\", "
                  "\"/opt/gemm/1_dense_gemm_mpi\", \"16384\"]");
  run = testing::Only(testing::IngestPath(WriteCase(dir, "total.out", spec)));
  CHECK(run.procs == 64);
  CHECK(run.nodes == 32);
  CHECK(run.ranks_per_node == 2);
  CHECK(run.threads_per_proc == 4);
  CHECK(run.app == "1_dense_gemm_mpi");
  CHECK(run.details.at("command.arguments") == "16384");
}

TEST_CASE("Flux: damaged or unfinished records are one-line errors naming the line", "[ingest][flux]") {
  testing::TempDir dir("qnm-flux", "damaged");
  const std::string text = ReadText(kGemm32);
  auto error_of = [&](const std::string& name, const std::string& edited) {
    return testing::IngestErrorOf(WriteCase(dir, name, edited));
  };
  CHECK(error_of("cut.out", Replaced(text, "\"version\": 1}", "\"version\": 1"))
            .find("cut.out:3: a Flux jobspec line "
                  "that is not JSON") != std::string::npos);
  CHECK(error_of("order.out", Replaced(text, "1724293600.9446857", "1724293500.9446857"))
            .find("order.out:9: Flux event 'shell.task-exit' is earlier than the event before it") !=
        std::string::npos);
  CHECK(error_of("running.out", Replaced(text,
                                         "{\"timestamp\":1724293601.4905522,\"name\":\"complete\","
                                         "\"context\":{\"status\":0}}\n",
                                         ""))
            .find("running.out:5: the Flux exec eventlog has no complete event") != std::string::npos);
  CHECK(error_of("nostatus.out", Replaced(text, "\"complete\",\"context\":{\"status\":0}", "\"complete\""))
            .find("nostatus.out:10: Flux event 'complete' needs a wait status") != std::string::npos);
  CHECK(error_of("nodes.out", Replaced(text, "\"type\": \"node\", \"count\": 32", "\"type\": \"node\", \"count\": 0"))
            .find("nodes.out:3: a Flux jobspec whose node resource count is not a positive whole number") !=
        std::string::npos);
  CHECK(error_of("range.out", Replaced(text, "\"type\": \"node\", \"count\": 32",
                                       "\"type\": \"node\", \"count\": {\"min\": 2, \"max\": 32}"))
            .find("count is a range") != std::string::npos);
  const std::string exception =
      "{\"timestamp\":1724293600.0,\"name\":\"exception\",\"context\":{\"type\":\"timelimit\",\"severity\":0,"
      "\"note\":\"resource allocation expired\"}}\n";
  const std::string job_log = "{\"timestamp\":1724293585.5,\"name\":\"alloc\"}\n" + exception +
                              "{\"timestamp\":1724293601.75,\"name\":\"finish\",\"context\":{\"status\":36608}}\n";
  CHECK(error_of("timelimit.out", Replaced(text, kGemmEventlog, job_log))
            .find("the Flux job raised an exception (timelimit: resource allocation expired)") != std::string::npos);
  // The record alone: without its eventlog the time, without its jobspec the processes are unknown.
  const std::string no_log = Replaced(text, kGemmEventlog, "");
  CHECK(testing::InputErrorOf([&] { FluxJobRecordToRunStats(ReadFluxJobRecord(no_log, "nolog.out"), "nolog.out"); }) ==
        "nolog.out:3: a Flux jobspec without the job's eventlog: its run time is unknown (save `flux job eventlog -f "
        "json ID` beside it)");
  CHECK(error_of("nolog.out", no_log).find("nolog.out: not a recognised format") != std::string::npos);
}

TEST_CASE("Flux: a record the output disagrees with adds nothing; a micro-benchmark stays a profile's input",
          "[ingest][flux]") {
  testing::TempDir dir("qnm-flux", "disagree");
  // LAMMPS says 3072 processes; a jobspec of 16 nodes x 96 slots says 1536.
  const std::string edited =
      Replaced(ReadText(kLammps32), "\"type\": \"node\", \"count\": 32", "\"type\": \"node\", \"count\": 16");
  IngestSummary summary;
  const RunStats run = testing::Only(testing::IngestPath(WriteCase(dir, "lammps.out", edited), &summary));
  CHECK(run.nodes == 0);
  CHECK(testing::NotesOf(summary).find("the Flux jobspec's 1536 tasks are not the 3072 processes the output "
                                       "reports: its nodes are not taken") != std::string::npos);
  // The study's OSU outputs carry the same record: still "not a run", a machine profile's input.
  const std::string osu = std::string(QNM_TEST_DATA_DIR) + "/osu-repeated";
  IngestSummary osu_summary;
  CHECK(testing::IngestPath(osu, &osu_summary, /*strict=*/false).empty());
  CHECK(testing::NotesOf(osu_summary).find("Flux") == std::string::npos);
  for (const auto& skipped : osu_summary.skipped)
    if (skipped.path.find("SOURCES") == std::string::npos) CHECK(skipped.reason.find("not a run") != std::string::npos);
}

TEST_CASE("Flux: wait statuses as wait(2) encodes them", "[flux]") {
  CHECK(DescribeWaitStatus(0) == "exit code 0");
  CHECK(DescribeWaitStatus(256) == "exit code 1");
  CHECK(DescribeWaitStatus(32512) == "exit code 127");
  CHECK(DescribeWaitStatus(36608) == "exit code 143 (128 + signal 15)");
  CHECK(DescribeWaitStatus(9) == "killed by signal 9");
  CHECK(DescribeWaitStatus(13) == "killed by signal 13");
}

TEST_CASE("flux jobs --json: every completed job a run, timed as flux jobs' RUNTIME", "[ingest][flux]") {
  // jobs-listing/flux-jobs.json (SOURCES.md): the four mt-gemm runs as flux jobs lists them, with
  // t_run and t_cleanup the init and complete of their exec eventlogs, then a failed, a canceled and
  // a running job.
  const std::string listing = kFlux + "/jobs-listing/flux-jobs.json";
  IngestSummary summary;
  std::vector<RunStats> runs = testing::IngestPath(listing, &summary);
  REQUIRE(runs.size() == 4);
  std::sort(runs.begin(), runs.end(), [](const RunStats& a, const RunStats& b) { return a.procs < b.procs; });
  // The same runs read from the jobs' outputs: the same processes, nodes and times.
  std::vector<RunStats> outputs = testing::IngestPath(kFlux + "/mt-gemm");
  std::sort(outputs.begin(), outputs.end(), [](const RunStats& a, const RunStats& b) { return a.procs < b.procs; });
  for (int k = 0; k < 4; ++k) {
    INFO(k);
    CHECK(runs[k].app == "1_dense_gemm_mpi");
    CHECK(runs[k].procs == outputs[k].procs);
    CHECK(runs[k].nodes == outputs[k].nodes);
    CHECK(runs[k].ranks_per_node == 96);
    CHECK(runs[k].wall_time_s == Approx(outputs[k].wall_time_s).epsilon(1e-12));
    CHECK(runs[k].hosts.size() == static_cast<std::size_t>(runs[k].nodes));  // flux-sample-[0-N]
  }
  CHECK(runs[0].details.at("flux_job_id") == "ƒ2MCsJzb5QR");
  CHECK(runs[0].hosts.front() == "flux-sample-0");
  REQUIRE(summary.readings.size() == 1);
  CHECK(summary.readings.front().find("flux jobs --json: 7 jobs, 4 completed") != std::string::npos);
  const std::string notes = testing::NotesOf(summary);
  CHECK(notes.find("3 of its 7 jobs (the first at line 1: job ƒ2TnrXmUDWM: FAILED (exit code 127), exception exec: "
                   "task 69 (host flux-sample-30): start failed") != std::string::npos);
}

TEST_CASE("flux jobs --json: one job, cores per task, and what is refused", "[ingest][flux]") {
  testing::TempDir dir("qnm-flux", "listing");
  // flux jobs --json ID prints the one job as the object itself; job-list's raw result number 1.
  const std::string one =
      "{\"id\": 13671518437376, \"userid\": 0, \"t_submit\": 1706336418.268734, \"t_run\": 1706336418.2916782, "
      "\"t_cleanup\": 1706336448.301414, \"state\": \"INACTIVE\", \"name\": \"lmp\", \"ntasks\": 8, \"ncores\": 32, "
      "\"nnodes\": 2, \"nodelist\": \"node[3,5]\", \"success\": true, \"result\": 1, \"waitstatus\": 0}\n";
  RunStats run = testing::Only(testing::IngestPath(WriteCase(dir, "one.json", one)));
  CHECK(run.app == "lmp");
  CHECK(run.procs == 8);
  CHECK(run.threads_per_proc == 4);
  CHECK(run.nodes == 2);
  CHECK(run.ranks_per_node == 4);
  CHECK(run.wall_time_s == Approx(1706336448.301414 - 1706336418.2916782).epsilon(1e-12));
  CHECK(run.hosts == std::vector<std::string>{"node3", "node5"});
  // Damaged: a count that is no whole number, a document that is no JSON, no completed job.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "count.json", Replaced(one, "\"ntasks\": 8", "\"ntasks\": \"8x\"")))
            .find("count.json:1: job 13671518437376: \"ntasks\" is not a positive whole number") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "cut.json", one.substr(0, 120))).find("cut.json:1: invalid JSON") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "failed.json", Replaced(one, "\"result\": 1", "\"result\": 8"))) ==
        (dir.path / "failed.json").string() + ":1: job 13671518437376: TIMEOUT (exit code 0), not a completed run");
  // Jobs without an id are three runs, not one measurement read three times.
  const std::string no_ids =
      "{\"jobs\": [{\"t_submit\": 1.0, \"t_run\": 10.0, \"t_cleanup\": 26.25, \"name\": \"a\", \"ntasks\": 4, "
      "\"result\": \"COMPLETED\"}, {\"t_submit\": 1.0, \"t_run\": 30.0, \"t_cleanup\": 38.5, \"name\": \"a\", "
      "\"ntasks\": 8, \"result\": \"COMPLETED\"}, {\"t_submit\": 1.0, \"t_run\": 40.0, \"t_cleanup\": 48.25, "
      "\"name\": \"a\", \"ntasks\": 8, \"result\": \"COMPLETED\"}]}\n";
  std::vector<RunStats> runs = testing::IngestPath(WriteCase(dir, "noids.json", no_ids));
  REQUIRE(runs.size() == 3);
  std::sort(runs.begin(), runs.end(),
            [](const RunStats& a, const RunStats& b) { return a.wall_time_s > b.wall_time_s; });
  CHECK(runs[0].procs == 4);
  CHECK(runs[0].wall_time_s == 16.25);
  CHECK(runs[1].wall_time_s == 8.5);
  CHECK(runs[2].wall_time_s == 8.25);
  CHECK(runs[0].details.count("flux_job_id") == 0);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "order.json", Replaced(one, "1706336448.301414", "1706336400.0")))
            .find("t_cleanup is before t_run") != std::string::npos);
}

TEST_CASE(
    "Flux: a job's output left unread beside its run's document gives the run its nodes, when its folder's "
    "records agree",
    "[ingest][flux]") {
  const std::string minife = std::string(QNM_TEST_DATA_DIR) + "/minife/aws-eks-size128";
  const std::string yaml = minife + "/miniFE.230x230x230.P12288.T1.2024-08-23-01-28-47.yaml";
  const std::string output = minife + "/minife-128-iter-1-758229499904.out";
  testing::TempDir dir("qnm-flux", "beside");
  const std::string copy = WriteCase(dir, "miniFE.230x230x230.P12288.T1.2024-08-23-01-28-47.yaml", ReadText(yaml));
  WriteCase(dir, "minife-128-iter-1.out", ReadText(output));
  RunStats run = testing::Only(testing::IngestPath(copy.substr(0, copy.rfind('/')), nullptr, /*strict=*/false));
  CHECK(run.nodes == 128);
  // A second output of the same 12,288 tasks on 64 nodes of 192: the folder's records disagree, none is taken.
  WriteCase(dir, "minife-128-iter-2.out",
            Replaced(ReadText(output), "\"count\": 128, \"with\": [{\"type\": \"slot\", \"count\": 96",
                     "\"count\": 64, \"with\": [{\"type\": \"slot\", \"count\": 192"));
  IngestSummary summary;
  run = testing::Only(testing::IngestPath(dir.path.string(), &summary, /*strict=*/false));
  CHECK(run.nodes == 0);
  CHECK(testing::NotesOf(summary).find("the Flux job records beside its runs of 12288 processes name 2 node counts: "
                                       "none is taken") != std::string::npos);
}
