// GROMACS md.log files read into the run record (tests/data/gromacs: real logs of
// GROMACS 2016.3, 2018.2 and 2021.5 from two benchmark repositories, SOURCES.md
// there). The values below are copied from the logs by hand, so a reader that
// reads the wrong line, column, row or execution fails.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "command_runner.h"
#include "app_outputs/app_output_readers.h"
#include "app_outputs/gromacs_log.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "ingest_test_util.h"
#include "temp_dir.h"
#include "util/atomic_file.h"

using namespace qnm;

namespace {

const std::string kGromacs = std::string(QNM_TEST_DATA_DIR) + "/gromacs";
const std::string kArcher2 = kGromacs + "/archer2-2021";

RunStats ReadOneRun(const std::string& name) {
  std::vector<RunStats> runs = testing::IngestPath(kGromacs + "/" + name);
  REQUIRE(runs.size() == 1);
  return runs[0];
}

double Detail(const RunStats& run, const std::string& key) { return testing::DetailNumber(run, key); }
using qnm::testing::RunCli;

}  // namespace

TEST_CASE("GROMACS 2021.5 log: ranks with separate PME ranks, wall time, MPI time from the cycle table", "[gromacs]") {
  // ARCHER2, benchPEP at 2 nodes: "Using 256 MPI processes", "On 192 MPI ranks doing PP, and on 64 MPI
  // ranks doing PME", "Time:   227719.994      889.544    25599.6".
  RunStats run = ReadOneRun("archer2-2021/benchPEP_OFI_2nodes_1threads_run1_id1297685_1647962474.log");
  CHECK(run.app == "gromacs");
  CHECK(run.tool_version == "GROMACS 2021.5");
  CHECK(run.procs == 256);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.nodes == 2);
  CHECK(run.ranks_per_node == 128);
  // "Hardware detected on host nid006789": a Cray node name, so its "Brand:  AMD EPYC 7742 64-Core
  // Processor" names the machine with it (ARCHER's nid hosts are Xeon E5-2697 v2: another machine).
  CHECK(run.machine == "nid EPYC 7742");
  CHECK(run.wall_time_s == 889.544);
  CHECK(run.TotalTimeSeconds() == 889.544);
  CHECK(run.iterations == 10000);
  // PP ranks: DD comm. load, DD comm. bounds, Send X to PME, Comm. coord., Wait + Comm. F,
  // Wait + Recv. PME F, Comm. energies. PME ranks: PME wait for PP, PME redist. X/F, PME 3D-FFT Comm.
  const double pp_s = 0.003 + 0.042 + 5.620 + 16.326 + 13.764 + 5.717 + 0.257;
  const double pme_s = 467.237 + 74.602 + 79.368;
  CHECK(Detail(run, "gromacs_pp_mpi_s") == Approx(pp_s).epsilon(1e-12));
  CHECK(Detail(run, "gromacs_pme_mpi_s") == Approx(pme_s).epsilon(1e-12));
  CHECK(run.mpi_time_mean_s == Approx((192 * pp_s + 64 * pme_s) / 256).epsilon(1e-12));
  CHECK(run.compute_time_mean_s == Approx(889.544 - (192 * pp_s + 64 * pme_s) / 256).epsilon(1e-12));
  CHECK(Detail(run, "gromacs_pp_ranks") == 192);
  CHECK(Detail(run, "gromacs_pme_ranks") == 64);
  CHECK(Detail(run, "gromacs_load_imbalance_percent") == 0.7);
  CHECK(Detail(run, "gromacs_imbalance_wait_percent") == 0.7);
  CHECK(Detail(run, "gromacs_imbalance_wait_s") == Approx(0.007 * 889.544).epsilon(1e-12));
  CHECK(Detail(run, "gromacs_pp_pme_wait_percent") == 10.7);
  CHECK(Detail(run, "gromacs_ns_per_day") == 1.943);
  CHECK(Detail(run, "gromacs_atoms") == 12495503);
  CHECK(run.problem_class == "benchPEP 12495503 atoms 10000 steps dt 0.002 Verlet PME");
  CHECK(run.variant.empty());
  CHECK(run.details.at("setting.mdrun_options") == "-noconfout");
  CHECK(run.details.at("setting.gromacs_release") == "2021");
}

TEST_CASE("GROMACS 2018.2 logs: CPU runs with PME ranks, and GPU runs without", "[gromacs]") {
  // ARCHER, 1400k atoms at 4 nodes: 84 PP + 12 PME ranks, "Time:    43453.516      452.641     9600.0".
  RunStats cpu = ReadOneRun("archer-2018/benchmark_4nodes96tasks1threads_201810051323.log");
  CHECK(cpu.tool_version == "GROMACS 2018.2");
  CHECK(cpu.procs == 96);
  CHECK(cpu.nodes == 4);
  CHECK(cpu.wall_time_s == 452.641);
  const double pp_s = 0.004 + 0.037 + 2.062 + 4.853 + 12.575 + 16.339 + 2.555;
  const double pme_s = 61.828 + 25.058 + 49.923;
  CHECK(cpu.mpi_time_mean_s == Approx((84 * pp_s + 12 * pme_s) / 96).epsilon(1e-12));
  CHECK(cpu.problem_class == "benchmark 1403180 atoms 10000 steps dt 0.002 Verlet PME");
  CHECK(cpu.variant.empty());

  // CSD3, the same input on GPUs: "On 4 MPI ranks, each using 3 OpenMP threads", no separate PME
  // ranks: the PME breakdown's communication rows are the PP ranks' own.
  RunStats gpu = ReadOneRun("csd3-gpu-2018/benchmark_1nodes4rankspn4gpus_201903051356.log");
  CHECK(gpu.procs == 4);
  CHECK(gpu.threads_per_proc == 3);
  CHECK(gpu.nodes == 1);
  CHECK(gpu.wall_time_s == 608.701);
  // DD comm. load, Comm. coord., Wait + Comm. F, Comm. energies; PME redist. X/F, PME 3D-FFT Comm.
  CHECK(gpu.mpi_time_mean_s == Approx(0.000 + 13.582 + 10.850 + 0.702 + 43.728 + 28.575).epsilon(1e-12));
  CHECK(gpu.variant == "gpu");
  CHECK(gpu.problem_class == cpu.problem_class);
  CHECK(Detail(gpu, "gromacs_load_imbalance_percent") == 0.8);
}

TEST_CASE("GROMACS 2016.3: a job output holding mdrun's terminal output, then its log", "[gromacs]") {
  // The job printed mdrun's stderr (a Time: line, no cycle table), then `cat nc2-cubic-md.log`: one execution.
  RunStats run = ReadOneRun("athena-2016/nc2-cubic-md_8nodes_201709271022.log");
  CHECK(run.tool_version == "GROMACS 2016.3");
  CHECK(run.procs == 224);
  CHECK(run.nodes == 8);
  CHECK(run.wall_time_s == 656.878);
  CHECK(run.problem_class == "nsteps800 41953021 atoms 800 steps dt 0.002 Verlet PME");
  const double pp_s = 0.001 + 2.123 + 4.254 + 13.471 + 38.196 + 93.739;
  const double pme_s = 201.196 + 20.732 + 19.657;
  CHECK(run.mpi_time_mean_s == Approx((192 * pp_s + 32 * pme_s) / 224).epsilon(1e-12));
  CHECK(run.details.at("setting.mdrun_options") == "-ntomp 1");
}

TEST_CASE("GROMACS 2018 logs read as a user found them: PME ranks with threads, rows above the Total",
          "[gromacs]") {
  // Isambard: "on 16 MPI ranks doing PME, each using 2 OpenMP threads" (the comma after PME); MPI time
  // = (112 x (DD comm. load 0.002 + bounds 0.013 + Send X to PME 2.048 + Comm. coord. 1.430 +
  // Wait + Comm. F 6.829 + Wait + Recv. PME F 0.098 + Comm. energies 11.245) + 16 x (PME wait for
  // PP 45.115 + PME redist. X/F 4.938 + PME 3D-FFT Comm. 6.055)) / 128.
  RunStats isambard = ReadOneRun("field-2018/benchmark_1nodes2threads4smt_201903081123.log");
  CHECK(isambard.procs == 128);
  CHECK(isambard.threads_per_proc == 2);
  CHECK(isambard.details.at("gromacs_pme_ranks") == "16");
  CHECK(isambard.wall_time_s == 140.929);
  CHECK(isambard.mpi_time_mean_s ==
        Approx((112 * (0.002 + 0.013 + 2.048 + 1.430 + 6.829 + 0.098 + 11.245) + 16 * (45.115 + 4.938 + 6.055)) / 128)
            .epsilon(1e-12));
  // CSD3 Skylake, 512 ranks: the PP rows add up to 65.698 s, 1.4% above the Total 64.762 s (no
  // row missing: GROMACS's own rounding of averages over 384 ranks); read, and said.
  RunStats csd3 = ReadOneRun("field-2018/benchmark_16nodes512tasks1threads_201812131735.log");
  CHECK(csd3.procs == 512);
  CHECK(csd3.wall_time_s == 64.762);
  CHECK(Detail(csd3, "gromacs_pp_rows_sum_s") == Approx(65.698).epsilon(1e-12));
  CHECK(csd3.derivations.at("mpi_time_mean_s").find("more than the Total") != std::string::npos);
  // A row gone (Force, 39.736 s): less than the Total, refused.
  std::ifstream in(kGromacs + "/field-2018/benchmark_16nodes512tasks1threads_201812131735.log");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t force = text.find(" Force  ");
  REQUIRE(force != std::string::npos);
  text.erase(force, text.find('\n', force) + 1 - force);
  testing::TempDir dir("qnm-gromacs", "row");
  const std::string path = (dir.path / "md.log").string();
  std::ofstream(path) << text;
  CHECK(testing::IngestErrorOf(path).find("rows add up to 25.962 s, not its Total 64.762 s") != std::string::npos);
}

TEST_CASE("GROMACS logs: a folder of runs becomes one series per input and configuration", "[gromacs][series]") {
  IngestSummary summary;
  // Not strict: SOURCES.md, the licences and the two unfinished logs are named and skipped.
  std::vector<RunStats> runs = testing::IngestPath(kGromacs, &summary, /*strict=*/false);
  CHECK(runs.size() == 12);
  std::vector<Series> series = GroupIntoSeries(std::move(runs), GroupBy::kContent);
  REQUIRE(series.size() == 6);  // and field-2018's two, one each (1000 steps; CSD3's machine)
  int checked = 0;
  for (const Series& one : series) {
    CHECK(one.key.app == "gromacs");
    std::vector<int> procs;
    for (const RunGroup& group : one.groups) procs.push_back(group.procs);
    if (one.key.problem_class == "benchPEP 12495503 atoms 10000 steps dt 0.002 Verlet PME") {
      CHECK(procs == std::vector<int>{128, 256, 512});
      CHECK(one.groups[0].median_time_s == 1771.723);
      CHECK(one.groups[2].median_time_s == 456.429);
      ++checked;
    } else if (one.key.variant == "gpu") {
      CHECK(procs == std::vector<int>{4, 8, 16});
      CHECK(one.groups[1].median_time_s == 413.158);
      ++checked;
    } else if (one.key.problem_class == "benchmark 1403180 atoms 10000 steps dt 0.002 Verlet PME" &&
               one.key.machine == "nid Xeon E5-2697 v2") {  // ARCHER (Cray XC30)
      CHECK(procs == std::vector<int>{24, 48, 96});
      CHECK(one.groups[0].median_time_s == 1647.418);
      ++checked;
    } else if (one.key.problem_class == "benchmark 1403180 atoms 10000 steps dt 0.002 Verlet PME") {
      CHECK(one.key.machine == "cpu-e");  // the same input on CSD3: another machine, another series
      CHECK(procs == std::vector<int>{512});
      ++checked;
    }
  }
  CHECK(checked == 4);
}

TEST_CASE("GROMACS logs: an unfinished run is one line naming the file, the line and why", "[gromacs][robustness]") {
  // Killed by the batch system (a checkpoint at step 6720, then "Received the second INT/TERM signal").
  const std::string killed = kGromacs + "/refused/benchPEP_OFI_256nodes_8threads_run4_id1315821_1648151218.log";
  std::string error = testing::IngestErrorOf(killed);
  CHECK(error.find(killed + ":") == 0);
  CHECK(error.find("mdrun stopped before it finished (no 'Time:' line): 'Received the second INT/TERM signal") !=
        std::string::npos);
  CHECK(error.find('\n') == std::string::npos);
  // Stopped by GROMACS: "File input/output error:" / "Cannot rename checkpoint file; ...".
  const std::string failed = kGromacs + "/refused/benchPEP_OFI_2nodes_4threads_run3_id1307143_1648056974.log";
  error = testing::IngestErrorOf(failed);
  const std::string log = ReadFile(failed);
  const int error_line = static_cast<int>(std::count(log.begin(), log.begin() + log.find("File input/output error:"), '\n')) + 1;
  CHECK(error.find(failed + ":" + std::to_string(error_line) + ": mdrun stopped before it finished") == 0);
  CHECK(error.find("Cannot rename checkpoint file") != std::string::npos);

  // A complete log cut before its Time: line, and one cut inside the cycle table.
  const std::string good = ReadFile(kArcher2 + "/benchPEP_OFI_2nodes_1threads_run1_id1297685_1647962474.log");
  ReaderInput cut{"cut.log", std::string_view(good).substr(0, good.find("       Time:")), {}};
  REQUIRE(SniffGromacsLog(cut.path, cut.text));
  CHECK_THROWS_WITH(ReadGromacsLog(cut), Catch::StartsWith("cut.log: GROMACS log without a finished run"));
  std::string no_row = good;
  no_row.erase(no_row.find(" Force                192"), no_row.find(" Wait + Comm. F") - no_row.find(" Force                192"));
  ReaderInput damaged{"row.log", no_row, {}};
  const int table_line = static_cast<int>(std::count(good.begin(), good.begin() + good.find("     R E A L"), '\n')) + 1;
  CHECK_THROWS_WITH(ReadGromacsLog(damaged), Catch::StartsWith("row.log:" + std::to_string(table_line) + ": ") &&
                                                 Catch::Contains("a row is missing or damaged"));
  // Two executions put together without the -cpi -append marker: refused at the second header.
  const std::string twice = good + good;
  ReaderInput appended{"appended.log", twice, {}};
  const int second = static_cast<int>(std::count(good.begin(), good.end(), '\n') +
                                      std::count(good.begin(), good.begin() + good.find("GROMACS:      gmx mdrun"), '\n')) + 1;
  CHECK_THROWS_WITH(ReadGromacsLog(appended), Catch::StartsWith("appended.log:" + std::to_string(second) + ": ") &&
                                                  Catch::Contains("a second mdrun execution"));

  // Cut at every 11th byte or one byte flipped: a record or one InputError, never NaN or a crash.
  int records = 0, errors = 0;
  for (std::size_t at = 0; at < good.size(); at += 11) {
    for (const std::string& text : {good.substr(0, at), std::string(good).replace(at, 1, 1, static_cast<char>(good[at] ^ 0x24))}) {
      ReaderInput input{"damaged.log", text, {}};
      if (!SniffGromacsLog(input.path, input.text)) continue;
      try {
        ReaderOutput output = ReadGromacsLog(input);
        REQUIRE(output.runs.size() == 1);
        CHECK(output.runs[0].procs > 0);
        CHECK(std::isfinite(output.runs[0].wall_time_s));
        CHECK(output.runs[0].mpi_time_mean_s >= 0);
        CHECK(output.runs[0].compute_time_mean_s >= 0);
        ++records;
      } catch (const InputError& caught) {
        CHECK(std::string(caught.what()).find("damaged.log:") == 0);
        ++errors;
      }
    }
  }
  CHECK(records > 0);
  CHECK(errors > 0);
}

namespace {

// What GROMACS 2021 writes between a part's last checkpoint and the part it appends (-cpi -append),
// as a real 2021.4 log shows it (tests/data/gromacs/SOURCES.md), and the appended part's own header:
// its banner and none of the author list, copyright or "GROMACS:  ..., version" line.
const std::string kRestart =
    "\n\n\nReading checkpoint file state.cpt\n\n\n\n-----------------------------------------------------------\n"
    "Restarting from checkpoint, appending to previous log file.\n\n";

std::string AppendedPart(const std::string& log) {
  const std::size_t version = log.find("GROMACS:      gmx mdrun, version");
  const std::size_t second_line = log.find('\n') + 1;
  return log.substr(0, second_line + 1) + log.substr(log.find('\n', version) + 1);
}

int LineOf(const std::string& text, std::size_t at) { return static_cast<int>(std::count(text.begin(), text.begin() + at, '\n')) + 1; }

}  // namespace

TEST_CASE("GROMACS logs continued with -cpi -append: a part cut short is one line naming it", "[gromacs][append]") {
  // A real job killed after its checkpoint at step 6720, continued (SOURCES.md: the killed ARCHER2
  // log cut at that checkpoint, as GROMACS's append cuts it, then a finished run of the same setup
  // appended). Part 2 finished, but part 1's time is lost: refused at part 1's banner, line 1.
  const std::string killed = kGromacs + "/appended/benchPEP_OFI_256nodes_8threads_run4+run3_appended.log";
  const std::string error = testing::IngestErrorOf(killed);
  CHECK(error == killed + ":1: part 1 of 2 of a run continued with -cpi -append was cut short: no 'Time:' line (the next "
                          "part was appended at its last checkpoint), so the run's total time is unknown; -noappend "
                          "writes one log per part");

  // The last part killed before its cycle table: named at its banner, with GROMACS's reason.
  const std::string good = ReadFile(kArcher2 + "/benchPEP_OFI_2nodes_1threads_run1_id1297685_1647962474.log");
  const std::string part2 = AppendedPart(good);
  REQUIRE(part2.find("GROMACS:  ") == std::string::npos);
  const std::string whole = good + kRestart + part2;
  const std::string cut = whole.substr(0, whole.rfind("     R E A L")) + "\nReceived the TERM signal, stopping within 100 steps\n";
  ReaderInput input{"cut.log", cut, {}};
  const int banner2 = LineOf(cut, cut.find(":-) GROMACS", good.size()));
  CHECK_THROWS_WITH(ReadGromacsLog(input), "cut.log:" + std::to_string(banner2) +
                                               ": part 2 of 2 of a run continued with -cpi -append was cut short: no "
                                               "'Time:' line ('Received the TERM signal, stopping within 100 steps'), so "
                                               "the run's total time is unknown; -noappend writes one log per part");
  // The marker alone, at the end of a finished log: a part that never started, also cut short.
  ReaderInput marker_only{"marker.log", good + kRestart, {}};
  CHECK_THROWS_WITH(ReadGromacsLog(marker_only), Catch::StartsWith("marker.log:" + std::to_string(LineOf(good + kRestart, good.size() + kRestart.find("Restarting"))) +
                                                                   ": part 2 of 2"));
}

TEST_CASE("GROMACS logs: ingest --series and predict on a folder", "[gromacs][predict][cli]") {
  std::string out;
  REQUIRE(RunCli("ingest --series " + kArcher2, &out) == 0);
  CHECK(out.find("gromacs.benchPEP 12495503 atoms 10000 steps dt 0.002 Verlet PME") != std::string::npos);
  REQUIRE(RunCli("predict --format csv --procs 128,256,1024 " + kArcher2, &out) == 0);
  CHECK(out.find("gromacs.benchPEP") != std::string::npos);
  CHECK(out.find("889.544") != std::string::npos);  // the measured P = 256
  CHECK(out.find("nan") == std::string::npos);
}
