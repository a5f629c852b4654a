// Statistics tables under other tools' column names (tables/table_column_aliases.h): what users
// already have, `nprocs,runtime` or `ranks,time [ms]`, reads as procs and time_s in seconds, and a
// table with no series column is one series named after its file.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include <filesystem>
#include <fstream>

#include "models/prediction.h"
#include "pipeline/series_loading.h"
#include "tables/statistics_table.h"
#include "tables/table_column_aliases.h"
#include "tables/table_setting_columns.h"
#include "util/input_error.h"

namespace {

qnm::TableColumnAliases Resolve(const std::vector<std::string>& header) {
  qnm::TableColumnAliases aliases;
  std::string error;
  REQUIRE(qnm::ResolveTableColumnAliases(header, &aliases, &error));
  return aliases;
}

std::string ErrorOf(const std::string& csv, const std::string& path = "t.csv") {
  try {
    qnm::ReadStatisticsCsv(csv, path);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("other names for procs and the run time, with the unit the name gives", "[ingest][table][aliases]") {
  qnm::TableColumnAliases a = Resolve({"nprocs", "runtime"});
  CHECK(a.HeaderOf("procs") == "nprocs");
  CHECK(a.HeaderOf("time_s") == "runtime");
  CHECK(a.seconds_per_time_unit == 1.0);
  a = Resolve({"Ranks", "time [ms]"});
  CHECK(a.HeaderOf("procs") == "Ranks");
  CHECK(a.seconds_per_time_unit == Approx(1e-3));
  CHECK(a.time_unit == "ms");
  CHECK(Resolve({"np", "elapsed (min)"}).seconds_per_time_unit == 60.0);
  CHECK(Resolve({"p", "wall_time_us"}).seconds_per_time_unit == Approx(1e-6));
  CHECK(Resolve({"tasks", "seconds"}).seconds_per_time_unit == 1.0);
  CHECK(Resolve({"procs", "ms"}).seconds_per_time_unit == Approx(1e-3));
  CHECK(Resolve({"procs", "walltime_h"}).seconds_per_time_unit == 3600.0);
  CHECK(Resolve({"Number of processes", "Wall time (\u00b5s)"}).seconds_per_time_unit == Approx(1e-6));
  CHECK(Resolve({"Number of processes", "Wall time (\u00b5s)"}).HeaderOf("procs") == "Number of processes");
  CHECK(Resolve({"procs", "run-time [s]"}).HeaderOf("time_s") == "run-time [s]");
  // Our own names in another case.
  a = Resolve({"Series", "Procs", "Time_s", "Ranks_Per_Node"});
  CHECK(a.HeaderOf("series") == "Series");
  CHECK(a.HeaderOf("procs") == "Procs");
  CHECK(a.HeaderOf("time_s") == "Time_s");
  CHECK(a.HeaderOf("ranks_per_node") == "Ranks_Per_Node");
  // Our own names win: an alias is looked for only where the table lacks the column.
  a = Resolve({"procs", "time_s", "runtime", "ranks", "series"});
  CHECK(a.HeaderOf("procs").empty());
  CHECK(a.HeaderOf("time_s").empty());
  CHECK(a.HeaderOf("series").empty());
  CHECK(a.Note("t.csv").empty());
  // Names that are not a run time or a process count stand for nothing.
  a = Resolve({"cores", "timestamp", "time_step", "timer"});
  CHECK(a.HeaderOf("procs").empty());
  CHECK(a.HeaderOf("time_s").empty());
  // Series and application.
  CHECK(Resolve({"name", "np", "time"}).HeaderOf("series") == "name");
  CHECK(Resolve({"application", "np", "time"}).HeaderOf("app") == "application");
  // Two candidates for one column are refused, not guessed between.
  qnm::TableColumnAliases refused;
  std::string error;
  CHECK_FALSE(qnm::ResolveTableColumnAliases({"np", "time", "runtime"}, &refused, &error));
  CHECK(error == "columns 'time' and 'runtime' could each be the run time (time_s): rename one of them to time_s, or "
              "name it with --metric");
  CHECK_FALSE(qnm::ResolveTableColumnAliases({"np", "ranks", "time_s"}, &refused, &error));
  CHECK(error.find("could each be the number of processes (procs)") != std::string::npos);
  CHECK(qnm::SeriesNameOfTableFile("runs/lulesh.strong.csv") == "lulesh.strong");
}

TEST_CASE("course projects' and studies' own names for the tasks and the time", "[ingest][table][aliases]") {
  // Headers of round 41's held-out sources, refused before: "Total Tasks,Execution Time (s)",
  // "Iteration,Total Tasks,Elapsed Time(s),...", "mpi_size,omp_threads,n_x,...,time_seconds".
  qnm::TableColumnAliases a = Resolve({"Total Tasks", "Execution Time (s)"});
  CHECK(a.HeaderOf("procs") == "Total Tasks");
  CHECK(a.HeaderOf("time_s") == "Execution Time (s)");
  a = Resolve({"Iteration", "Total Tasks", "Elapsed Time(s)", "Computation Time(s)", "Gathering Time(s)"});
  CHECK(a.HeaderOf("time_s") == "Elapsed Time(s)");
  a = Resolve({"mpi_size", "omp_threads", "n_x", "n_y", "time_seconds"});
  CHECK(a.HeaderOf("procs") == "mpi_size");
  CHECK(a.HeaderOf("threads") == "omp_threads");
  CHECK(Resolve({"world_size", "TotalTime"}).HeaderOf("time_s") == "TotalTime");
  // Round 48's set S: a Game of Life study's "ksize,mpi_task,time,thread" (one task, singular).
  a = Resolve({"ksize", "mpi_task", "time", "thread"});
  CHECK(a.HeaderOf("procs") == "mpi_task");
  const std::vector<qnm::RunStats> runs =
      qnm::ReadStatisticsCsv("Total Tasks,Execution Time (s)\n2,0.142583\n4,0.116141\n", "mpi_strong_epyc.csv");
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].procs == 4);
  CHECK(runs[1].wall_time_s == Approx(0.116141));
}

TEST_CASE("round 44's names: course reports in Italian, Spanish, German; Total Procs, Process Count",
          "[ingest][table][aliases]") {
  // Headers of round 44's held-out documents: a Salerno course's README ("| # Processi |  Tempo(s) |
  // Speedup |"), a CFD lab's report ("Total Procs | Runtime [s]"), a Game of Life study's CSV.
  qnm::TableColumnAliases a = Resolve({"# Processi", "Tempo(s)", "Speedup", "Efficienza"});
  CHECK(a.HeaderOf("procs") == "# Processi");
  CHECK(a.HeaderOf("time_s") == "Tempo(s)");
  CHECK(Resolve({"procesos", "tiempo [ms]"}).seconds_per_time_unit == Approx(0.001));
  CHECK(Resolve({"Prozesse", "Laufzeit (min)"}).seconds_per_time_unit == Approx(60));
  CHECK(Resolve({"iproc", "jproc", "Total Procs", "Runtime [s]"}).HeaderOf("procs") == "Total Procs");
  CHECK(Resolve({"OS", "Process Count", "Generations"}).HeaderOf("procs") == "Process Count");
  // A count of virtual CPUs stays no process count ("# VCPUs" beside "Tempo (s)").
  CHECK(Resolve({"Input (# bodies)", "# VCPUs", "Tempo (s)"}).HeaderOf("procs").empty());
}

TEST_CASE("round 42's names: Num_Proc, a total with a unit, wct; np beside nparts is refused",
          "[ingest][table][aliases]") {
  // Headers of round 42's held-out sources: a distributed-array library's benchmark table
  // ("Type","Op","Num_Proc","Size","Time"), a course SpMV study's (np,run,total_ms,comm_ms,comp_ms,...),
  // a Julia driver's summary (np,nparts,nc,...,wct,...: np is the parts per axis, nparts = np^3 the ranks).
  CHECK(Resolve({"Type", "Op", "Num_Proc", "Size", "Time"}).HeaderOf("procs") == "Num_Proc");
  qnm::TableColumnAliases a = Resolve({"timestamp", "mode", "case", "np", "run", "total_ms", "comm_ms", "comp_ms"});
  CHECK(a.HeaderOf("procs") == "np");
  CHECK(a.HeaderOf("time_s") == "total_ms");
  CHECK(Resolve({"ranks", "total [s]"}).HeaderOf("time_s") == "total [s]");
  CHECK(Resolve({"ranks", "wct"}).HeaderOf("time_s") == "wct");
  // A total without a unit may count anything: not a run time.
  CHECK(ErrorOf("np,total\n1,2\n").find("t.csv:1: a statistics table needs the columns procs and time_s") == 0);
  CHECK(ErrorOf("np,nparts,nc,wct\n2,8,300,49.99\n").find(
            "t.csv:1: columns 'np' and 'nparts' could each be the number of processes (procs)") == 0);
  const std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(
      "timestamp,mode,case,np,run,total_ms,comm_ms,comp_ms,status\n"
      "# JOBID=1 TOTAL_RANKS=128 MODE=strong RUNS=2\n"
      "20260108_091143,strong,m,1,1,3.480186,0.000052,3.479924,OK\n"
      "20260108_091143,strong,m,2,1,1.812,0.081,1.731,OK\n",
      "m_strong.csv");
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].procs == 2);
  CHECK(runs[0].wall_time_s == Approx(0.003480186));
}

TEST_CASE("our other columns in another case are ours too: Size, Class, Mops", "[ingest][table][aliases]") {
  // MPInumpy's table ("Type","Op","Num_Proc","Size","Time") said "column 'Size' ignored": a table's problem
  // size under a capital was dropped, and two sizes at one P would have been read as repetitions.
  qnm::TableColumnAliases a = Resolve({"Num_Proc", "Time", "Size", "Class", "Mops", "Run"});
  CHECK(a.HeaderOf("size") == "Size");
  CHECK(a.HeaderOf("class") == "Class");
  CHECK(a.HeaderOf("mops") == "Mops");
  CHECK(a.HeaderOf("run") == "Run");
  CHECK(Resolve({"procs", "time_s", "size", "Size"}).HeaderOf("size").empty());  // ours as written wins
  CHECK(ErrorOf("procs,time_s,Size,SIZE\n1,2,3,4\n").find("columns 'Size' and 'SIZE' could each be") !=
        std::string::npos);
  std::vector<std::string> notes;
  const std::vector<qnm::RunStats> runs =
      qnm::ReadStatisticsCsv("Procs,Time,Size\n1,2.0,30\n1,9.0,60\n2,1.1,30\n2,4.6,60\n", "sizes.csv", &notes);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].problem_size.str() == "30");
  CHECK(runs[3].problem_size.str() == "60");
  for (const std::string& note : notes) CHECK(note.find("ignored") == std::string::npos);
}

TEST_CASE("a table of nprocs and runtime in milliseconds reads as one series in seconds", "[ingest][table][aliases]") {
  std::vector<std::string> notes;
  const std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(
      "# strong scaling, 2026\nnprocs,runtime_ms,n_runs\n1,100000,3\n2,52000,3\n4,27000,3\n", "results/lulesh.csv", &notes);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].procs == 1);
  CHECK(runs[0].wall_time_s == Approx(100.0));
  CHECK(runs[2].wall_time_s == Approx(27.0));
  CHECK(runs[1].series.str() == "lulesh");
  CHECK(runs[1].derivations.at("wall_time_s") == "statistics table column 'runtime_ms' (ms)");
  REQUIRE(notes.size() == 3);
  CHECK(notes[0] == "results/lulesh.csv: column 'nprocs' read as procs, 'runtime_ms' read as time_s (ms) "
                    "(docs/statistics-table.md, other names)");
  CHECK(notes[1] == "results/lulesh.csv: column 'n_runs' ignored (not a record field; docs/statistics-table.md lists them)");
  CHECK(notes[2] == "results/lulesh.csv: no series or application column: its rows are one series, 'lulesh' (the file's name)");

  // JSON objects, the same names.
  notes.clear();
  const std::vector<qnm::RunStats> json =
      qnm::ReadStatisticsJson(R"([{"ranks": 8, "time [min]": 2.5, "name": "cg"}, {"ranks": 16, "time [min]": 1.5, "name": "cg"}])",
                              "t.json", &notes);
  REQUIRE(json.size() == 2);
  CHECK(json[1].procs == 16);
  CHECK(json[1].wall_time_s == Approx(90.0));
  CHECK(json[0].series.str() == "cg");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("'ranks' read as procs, 'time [min]' read as time_s (min), 'name' read as series") !=
        std::string::npos);
}

TEST_CASE("tables separated by ';' (with decimal commas) or by tabs", "[ingest][table][aliases]") {
  std::vector<std::string> notes;
  std::vector<qnm::RunStats> runs =
      qnm::ReadStatisticsCsv("np;time [s];name\n1;100,5;x\n2;\"52,25\";x\n4;27;x\n", "eu.csv", &notes);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].wall_time_s == 100.5);
  CHECK(runs[1].wall_time_s == 52.25);
  CHECK(runs[2].series.str() == "x");
  REQUIRE_FALSE(notes.empty());
  CHECK(notes[0] == "eu.csv: separated by ';' (a decimal ',' read as '.')");
  // One ',' is a decimal mark; a value with more is no number.
  CHECK(ErrorOf("np;time\n1;1,2,3\n").find("t.csv:2: column 'time' (time_s) needs a non-negative number") == 0);
  notes.clear();
  runs = qnm::ReadStatisticsCsv("ranks\ttime [ms]\tseries\n1\t1000\tcg a\n2\t520\tcg a\n", "t.tsv", &notes);
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].wall_time_s == Approx(0.52));
  CHECK(runs[1].series.str() == "cg a");
  CHECK(notes[0] == "t.tsv: separated by tabs");
}

TEST_CASE("tables that still cannot be read say why in one line", "[ingest][table][aliases]") {
  CHECK(ErrorOf("np,time,runtime\n1,2,3\n").find("t.csv:1: columns 'time' and 'runtime' could each be the run time") == 0);
  CHECK(ErrorOf("cores,timer\n1,2\n").find("t.csv:1: a statistics table needs the columns procs and time_s (or names") ==
        0);
  // A course's `size,cores,time` table: the reason is `cores`, and the message says so.
  CHECK(ErrorOf("size,cores,time\n5000,1,20.1\n").find(
            "its column 'cores' is not read as procs (in a hybrid run it counts threads too): rename it procs") !=
        std::string::npos);
  CHECK(ErrorOf("np,timer\n1,2\n").find("cores") == std::string::npos);
  // CMAQ's timing tables (round 42's held-out cmaqcc): tab-separated, `CPUs` the ranks of a pure-MPI run.
  CHECK(ErrorOf("CPUs\tNodesxCPU\tCOLROW\tDay1 Timing (sec)\tDay2 Timing (sec)\tTotalTime\n"
                "18\t1x18\t3x6\t13525.66\t12107.02\t25632.68\n")
            .find("t.csv:1: a statistics table needs the columns procs and time_s (or names such as nprocs, ranks, "
                  "np; runtime, time [ms], elapsed_s: docs/statistics-table.md; --metric COLUMN names the run "
                  "time's); its column 'CPUs' is not read as procs (in a hybrid run it counts threads too): rename "
                  "it procs if each core ran one MPI process") == 0);
  // A campaign's index with two times (../shared/data/mpip-scaling/runs.csv): which is the run's, the
  // user says; the message names both.
  CHECK(ErrorOf("benchmark,procs,npb_time_s,mpip_apptime_max_s,file\nSP-MZ,1,113.11,114,a.mpiP\n")
            .find("; its columns 'npb_time_s', 'mpip_apptime_max_s' name times, none of them the run's by its name: "
                  "rename the one that is the run time to time_s") != std::string::npos);
  CHECK(ErrorOf("np,runtime\n1,-2\n").find("t.csv:2: column 'runtime' (time_s) needs a non-negative number") == 0);
  CHECK(ErrorOf("ranks,time_s\n0,2\n").find("t.csv:2: column 'ranks' (procs) needs a positive integer") == 0);
}

TEST_CASE("predict says how such a table was read in its first line, and fits it", "[ingest][table][aliases]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "qnm-aliases-test";
  std::filesystem::create_directories(dir);
  const std::filesystem::path table = dir / "cloverleaf.csv";
  std::ofstream(table) << "ranks,time [ms]\n1,169944\n2,88676\n4,46064\n8,26004\n16,18371\n";
  std::string origin;
  const std::vector<qnm::Series> series = qnm::LoadSeries({table.string()}, "", &origin);
  std::filesystem::remove_all(dir);
  REQUIRE(series.size() == 1);
  CHECK(series[0].name == "cloverleaf");
  CHECK(origin.find("column 'ranks' read as procs, 'time [ms]' read as time_s (ms)") != std::string::npos);
  CHECK(origin.find("its rows are one series, 'cloverleaf' (the file's name)") != std::string::npos);
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(series[0], {}, qnm::PredictionOptions(), &model, &error));
  CHECK(model.Predict(16).total.value_s == Approx(18.371).epsilon(1e-6));  // seconds, through the measured point
}

TEST_CASE("the layout's columns under other names reach the node-aware model", "[ingest][table][aliases]") {
  // GROMACS 61k atoms on ARCHER2 as a job script's log might tabulate it: ranks per node as ppn.
  std::vector<std::string> notes;
  const std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(
      "name,nprocs,ppn,omp_threads,cluster,elapsed\n"
      "md,128,128,1,archer2,100\nmd,256,128,1,archer2,52\nmd,512,128,1,archer2,28\n",
      "md.csv", &notes);
  REQUIRE(runs.size() == 3);
  CHECK(runs[1].ranks_per_node == 128);
  CHECK(runs[1].nodes == 2);  // ceil(procs / ranks per node)
  CHECK(runs[2].nodes == 4);
  CHECK(runs[0].threads_per_proc == 1);
  CHECK(runs[0].machine.str() == "archer2");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "md.csv: column 'nprocs' read as procs, 'elapsed' read as time_s, 'name' read as series, "
                    "'omp_threads' read as threads, 'ppn' read as ranks_per_node, 'cluster' read as machine "
                    "(docs/statistics-table.md, other names)");
  qnm::TableColumnAliases refused;
  std::string error;
  CHECK_FALSE(qnm::ResolveTableColumnAliases({"np", "time", "ppn", "tasks_per_node"}, &refused, &error));
  CHECK(error == "columns 'ppn' and 'tasks_per_node' could each be the ranks per node (ranks_per_node): rename one "
                 "of them to ranks_per_node");
}

TEST_CASE("round 43's tables: processors, times in microseconds, sizes, a commented header, a scaling column",
          "[ingest][table][aliases]") {
  std::vector<std::string> notes;
  // cfdARCO's reports: an unnamed index column, `times_microseconds`, and the mesh under `mesh_sizes`.
  const std::vector<qnm::RunStats> cfd = qnm::ReadStatisticsCsv(
      ",num_proc,times_microseconds,mesh_sizes\n0,1,75330923,150\n1,1,160931156,200\n2,2,40112000,150\n",
      "report.csv", &notes);
  REQUIRE(cfd.size() == 3);
  CHECK(cfd[0].procs == 1);
  CHECK(cfd[0].wall_time_s == Approx(75.330923).epsilon(1e-12));
  CHECK(cfd[1].details.at(qnm::ProblemSettingKey("mesh_sizes")) == "200");
  // A Monte Carlo study's `processors`, and its `scalable` column: weak-scaling rows (true) beside strong ones.
  const std::vector<qnm::RunStats> pi = qnm::ReadStatisticsCsv(
      "processors,problem_size,scalable,time\n9,45460800,false,0.214663\n5,5544000,true,0.236942\n",
      "data.csv", &notes);
  REQUIRE(pi.size() == 2);
  CHECK(pi[0].procs == 9);
  CHECK(pi[0].wall_time_s == Approx(0.214663).epsilon(1e-12));
  CHECK(pi[0].details.at(qnm::ProblemSettingKey("scalable")) == "false");
  CHECK(pi[1].details.at(qnm::ProblemSettingKey("problem_size")) == "5544000");
  // A gnuplot-style header written as a comment over rows of numbers; `# Processes` is the number of processes.
  std::vector<std::string> readings;
  const std::vector<qnm::RunStats> nbody = qnm::ReadStatisticsCsv(
      "# Processes,# Elements,Time [s]\n1,128,0.000409738\n2,128,0.00031\n", "onecore.csv", &notes, nullptr,
      &readings);
  REQUIRE(nbody.size() == 2);
  CHECK(nbody[1].procs == 2);
  CHECK(nbody[1].wall_time_s == Approx(0.00031).epsilon(1e-12));
  CHECK(nbody[1].details.at(qnm::ProblemSettingKey("# Elements")) == "128");
  CHECK(std::find(readings.begin(), readings.end(),
                  "onecore.csv:1: its header is this comment line (its rows are numbers only)") != readings.end());
  // A comment that is not a header stays a comment: the table's own header follows it, or the cells differ.
  CHECK(qnm::ReadStatisticsCsv("# measured on 2 nodes\nprocs,time_s\n1,2.0\n2,1.1\n", "t.csv", &notes).size() == 2);
  CHECK_THROWS_WITH(qnm::ReadStatisticsCsv("# Nodes, Ptile, Forward, Back\n1, 128, 6.2, 7.4, 13.6\n", "d.dat", &notes),
                    Catch::Contains("a statistics table needs the columns procs and time_s"));
}

TEST_CASE("a table of nodes and ranks per node without procs: each row's processes are their product",
          "[ingest][table][aliases]") {
  std::vector<std::string> notes, readings;
  // 2DECOMP&FFT's layout columns under LSF's name, and a job script's `nodes,ppn`.
  const std::vector<qnm::RunStats> rows = qnm::ReadStatisticsCsv(
      "Nodes,Ptile,time\n1,128,13.611843613925013\n2,128,6.878131332031252\n", "c2cx.csv", &notes, nullptr,
      &readings);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].procs == 128);
  CHECK(rows[1].procs == 256);
  CHECK(rows[1].nodes == 2);
  CHECK(rows[1].ranks_per_node == 128);
  CHECK(rows[1].derivations.at("procs") == "statistics table columns nodes x ranks_per_node (the row gives no procs)");
  CHECK(std::find(readings.begin(), readings.end(),
                  "c2cx.csv: no procs column: each row's processes are its nodes x ranks_per_node") != readings.end());
  CHECK(qnm::ReadStatisticsCsv("nodes,ppn,elapsed\n4,36,100\n", "job.csv", &notes).front().procs == 144);
  // Nodes alone still say nothing of the processes.
  CHECK_THROWS_WITH(qnm::ReadStatisticsCsv("nodes,time\n1,2.0\n", "n.csv", &notes),
                    Catch::Contains("a statistics table needs the columns procs and time_s"));
}

TEST_CASE("a table whose repetitions of a run are columns: Time 1..k, Exec time k [ms], Run k (s)",
          "[ingest][table][aliases]") {
  int number = 0;
  CHECK(qnm::RepeatedTimeColumnSeconds("Time 1", &number) == 1.0);
  CHECK(number == 1);
  CHECK(qnm::RepeatedTimeColumnSeconds("Exec time 10 [ms]", &number) == Approx(0.001));
  CHECK(number == 10);
  CHECK(qnm::RepeatedTimeColumnSeconds("Run 3 (s)", &number) == 1.0);
  CHECK(qnm::RepeatedTimeColumnSeconds("Run 3", &number) == 0.0);  // a run's label, no time
  CHECK(qnm::RepeatedTimeColumnSeconds("Time", &number) == 0.0);
  CHECK(qnm::RepeatedTimeColumnSeconds("nodes 2", &number) == 0.0);
  // Each row is as many runs; an empty cell is a repetition not made; a bad one names its column.
  const std::vector<qnm::RunStats> runs =
      qnm::ReadStatisticsCsv("np,time_1,time_2,time_3\n1,4.0,4.2,4.1\n2,2.1,,2.0\n", "reps.csv");
  REQUIRE(runs.size() == 5);
  CHECK(runs[3].procs == 2);
  CHECK(runs[4].wall_time_s == Approx(2.0));
  CHECK(runs[4].details.at("run") == "time_3");
  CHECK_THROWS_WITH(qnm::ReadStatisticsCsv("np,time_1,time_2\n1,4.0,fast\n", "reps.csv"),
                    Catch::Contains("reps.csv:2: column 'time_2' (time_s) needs a non-negative number"));
  CHECK_THROWS_WITH(qnm::ReadStatisticsCsv("np,time_1,time_2\n1,,\n", "reps.csv"),
                    Catch::Contains("reps.csv:2: no value in any of the run-time columns"));
  // A table naming the run time itself keeps it: its Time 1, Time 2 are other columns.
  CHECK(qnm::ReadStatisticsCsv("np,time,time 1,time 2\n1,4.0,3.9,4.1\n", "mean.csv").size() == 1);
  CHECK(qnm::NamesProcsAndTime({"Processes", "Time 1", "Time 2"}));
  CHECK(!qnm::NamesProcsAndTime({"Processes", "Time 1"}));
}

TEST_CASE("a table of process grids without a procs column: each row's processes are the grid's product",
          "[ingest][table][aliases]") {
  CHECK(qnm::ProcessGridAxis("npx") == 0);
  CHECK(qnm::ProcessGridAxis("jproc") == 1);
  CHECK(qnm::ProcessGridAxis("NPZ") == 2);
  CHECK(qnm::ProcessGridAxis("nx") == -1);  // a grid of points, not of processes
  std::vector<std::string> notes;
  const std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(
      "npx,npy,npz,nx,time\n1,1,1,104,60.2\n2,1,1,104,30.8\n2,2,1,104,15.9\n2,2,2,104,8.3\n", "hpcg.csv", &notes);
  REQUIRE(runs.size() == 4);
  CHECK(runs[3].procs == 8);
  CHECK(runs[2].procs == 4);
  CHECK(runs[3].derivations.at("procs") == "statistics table columns npx x npy x npz (the process grid)");
  bool said = false;
  for (const std::string& note : notes) {
    said = said || note.find("its process grid, npx x npy x npz") != std::string::npos;
    CHECK(note.find("'npx'") == std::string::npos);  // not among the ignored columns
  }
  CHECK(said);
  // A procs column wins; a missing grid cell is a missing procs.
  CHECK(qnm::ReadStatisticsCsv("procs,px,py,time\n6,2,2,1.0\n", "p.csv")[0].procs == 6);
  CHECK_THROWS_WITH(qnm::ReadStatisticsCsv("px,py,time\n2,,1.0\n", "g.csv"),
                    Catch::Contains("g.csv:2: missing value for the required column 'procs'"));
  CHECK(qnm::NamesProcsAndTime({"iproc", "jproc", "Runtime [s]"}));
  CHECK(!qnm::NamesProcsAndTime({"iproc", "Runtime [s]"}));
}

TEST_CASE("a table whose rows end in a separator its header does not", "[ingest][table]") {
  // Round 48's set S: a Game of Life study's "size, procs, static_mean" over rows "45000,1,60.714821,".
  std::vector<std::string> readings;
  qnm::StatisticsTableOptions options;
  options.readings = &readings;
  options.time_column = "static_mean";
  const std::vector<qnm::RunStats> runs =
      qnm::ReadStatisticsCsv("size, procs, static_mean\n45000,1,60.714821,\n45000,2,30.391650,\n", "45000.csv", options);
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].procs == 2);
  CHECK(runs[1].wall_time_s == Approx(30.39165));
  CHECK(std::find(readings.begin(), readings.end(),
                  "45000.csv: its rows end in a separator its header does not: an empty last column, '(empty)'") !=
        readings.end());
  // A row without it among rows with it: the table is refused as before, naming the row.
  CHECK(ErrorOf("size,procs,time\n1,1,2.0,\n1,2,1.0\n").find("t.csv:2:") == 0);
}
