// VASP OUTCAR files read into the run record (tests/data/vasp: the UK HPC
// benchmark suite's CdTe runs with VASP 5.4.4, 6.3.0 and 6.4.2, SOURCES.md
// there). The values below are copied from the files by hand, so a reader that
// reads the wrong line or field fails.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "command_runner.h"
#include "app_outputs/vasp_outcar.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::WriteCase;

const std::string kVasp = std::string(QNM_TEST_DATA_DIR) + "/vasp";
const std::string kThreaded = kVasp + "/CdTe_2nodes_64cores_4threads_1NCORE_2KPAR_202402261542.OUTCAR";

RunStats ReadOneRun(const std::string& name) {
  std::vector<RunStats> runs = testing::IngestPath(kVasp + "/" + name);
  REQUIRE(runs.size() == 1);
  return runs[0];
}

double Detail(const RunStats& run, const std::string& key) { return testing::DetailNumber(run, key); }

}  // namespace

TEST_CASE("VASP 6.4 OUTCAR: ranks, threads, nodes, the ionic step's time and the parsed input", "[ingest][vasp]") {
  // "running   64 mpi-ranks, with    4 threads/rank, on    2 nodes";
  // "LOOP+:  cpu time  14090.5693: real time   3603.8260"; "Elapsed time (sec):     3623.601".
  RunStats run = ReadOneRun("CdTe_2nodes_64cores_4threads_1NCORE_2KPAR_202402261542.OUTCAR");
  CHECK(run.app == "vasp");
  CHECK(run.tool_version == "VASP 6.4.2");
  CHECK(run.procs == 64);
  CHECK(run.threads_per_proc == 4);
  CHECK(run.nodes == 2);
  CHECK(run.ranks_per_node == 32);
  CHECK(run.wall_time_s == 3603.8260);
  CHECK(run.TotalTimeSeconds() == 3603.8260);
  CHECK(Detail(run, "vasp_elapsed_s") == 3623.601);
  CHECK(Detail(run, "vasp_total_cpu_s") == 14115.551);
  CHECK(Detail(run, "vasp_max_memory_kb") == 1110384);
  CHECK(Detail(run, "vasp_nbands") == 640);
  CHECK(run.iterations == 7);  // seven "LOOP:" electronic steps
  CHECK(Detail(run, "vasp_ionic_steps") == 1);
  CHECK(run.problem_class == "CdTe 65 ions 2 k-points ENCUT 450 NELM 7 NSW 0 IBRION -1");
  CHECK(run.variant == "vasp6.4.2-HPECrayEX_GCC-complex");
  CHECK(run.details.at("setting.ncore") == "1");
  CHECK(run.details.at("setting.kpar") == "2");
  CHECK(!Known(run.mpi_time_mean_s));  // VASP prints no communication time
}

TEST_CASE("VASP 5.4 and 6.3 OUTCARs: 'total cores', NCORES_PER_BAND, a time run into its words", "[ingest][vasp]") {
  // VASP 5.4.4: "running on  192 total cores", "one band on NCORES_PER_BAND=   8 cores",
  // "LOOP+:  cpu time12453.9663: real time12485.9647", SYSTEM left at "unknown system".
  RunStats five = ReadOneRun("CdTe_8nodes_192cores_1threads_8NCORE_2KPAR_202011071112.OUTCAR.gz");
  CHECK(five.procs == 192);
  CHECK(five.threads_per_proc == 1);
  CHECK(five.nodes == 8);  // VASP 5 does not say; the run's name does (CdTe_8nodes_192cores_…)
  CHECK(five.ranks_per_node == 24);
  CHECK(five.derivations.at("nodes") == "file name '8nodes'");
  CHECK(five.wall_time_s == 12485.9647);
  CHECK(Detail(five, "vasp_elapsed_s") == 12944.673);
  CHECK(five.tool_version == "VASP 5.4.4.18Apr17-6-g9f103f2a35");
  CHECK(five.variant == "vasp5.4.4-CrayXC-Intel16-complex");
  CHECK(five.problem_class == "'Cd33 Te32' 65 ions 8 k-points ENCUT 450 NELM 6 NSW 0 IBRION -1");
  CHECK(five.details.at("setting.ncore") == "8");
  CHECK(five.iterations == 6);
  // VASP 6.3.0: "running  128 mpi-ranks, with    1 threads/rank" (no nodes).
  RunStats six = ReadOneRun("CdTe_1nodes_128cores_1threads_4NCORE_2KPAR_202202051901.OUTCAR.gz");
  CHECK(six.procs == 128);
  CHECK(six.nodes == 1);  // from the name again: 6.3 does not print its nodes
  CHECK(six.wall_time_s == 20047.6768);
  CHECK(six.problem_class == five.problem_class);  // the same input ...
  CHECK(six.variant == "vasp6.3.0-HPECrayEX_GCC-complex");  // ... by another build: another series
  CHECK(IdentityKey(six, GroupBy::kContent).ToString() != IdentityKey(five, GroupBy::kContent).ToString());
}

TEST_CASE("VASP OUTCARs of one input at two NCORE per process count are two series", "[ingest][vasp]") {
  IngestSummary summary;
  std::vector<Series> series = GroupIntoSeries(testing::IngestPath(kVasp, &summary, /*strict=*/false), GroupBy::kContent);
  std::map<std::string, std::map<int, double>> times;  // series name -> P -> seconds
  for (const Series& s : series)
    for (const RunGroup& g : s.groups) times[s.name][g.procs] = g.runs.at(0).wall_time_s;
  const std::string base = "vasp.CdTe 65 ions 2 k-points ENCUT 450 NELM 7 NSW 0 IBRION -1";
  INFO(series.size());
  CHECK(times.at(base + " (vasp6.4.2-HPECrayEX_GCC-complex ncore=2)") ==
        std::map<int, double>{{128, 8153.6378}, {256, 4309.8173}, {512, 2222.8677}});
  CHECK(times.at(base + " (vasp6.4.2-HPECrayEX_GCC-complex ncore=4)") ==
        std::map<int, double>{{128, 6429.0256}, {256, 3420.9185}, {512, 1858.6383}});
  CHECK(times.at(base + " th=4 (vasp6.4.2-HPECrayEX_GCC-complex)") == std::map<int, double>{{64, 3603.8260}});
  CHECK(series.size() == 5);  // and the 5.4.4 and 6.3.0 runs, one each
}

TEST_CASE("VASP OUTCAR of a job that did not finish: one line naming the file", "[ingest][vasp]") {
  const std::string text = ReadText(kThreaded);
  testing::TempDir dir("qnm-vasp", "cut");
  auto cut_at = [&](const std::string& marker, const std::string& name) {
    const std::size_t at = text.find(marker);
    REQUIRE(at != std::string::npos);
    const std::string path = (dir.path / name).string();
    std::ofstream(path, std::ios::binary) << text.substr(0, at);
    return testing::IngestErrorOf(path);
  };
  // Killed during the electronic steps: no LOOP+.
  std::string error = cut_at("LOOP+:", "killed.OUTCAR");
  CHECK(error.find("killed.OUTCAR") != std::string::npos);
  CHECK(error.find("no ionic step finished") != std::string::npos);
  // Cut after the ionic step, before VASP's closing block.
  error = cut_at("General timing and accounting", "cut.OUTCAR");
  CHECK(error.find("cut.OUTCAR") != std::string::npos);
  CHECK(error.find("did not finish") != std::string::npos);
  // A damaged time: the file and its line.
  std::string damaged = text;
  const std::size_t at = damaged.find("real time   3603.8260");
  REQUIRE(at != std::string::npos);
  damaged.replace(at + 12, 9, "3603.8x60");
  const std::string path = (dir.path / "damaged.OUTCAR").string();
  std::ofstream(path, std::ios::binary) << damaged;
  error = testing::IngestErrorOf(path);
  CHECK(error.find("damaged.OUTCAR:2989") != std::string::npos);
  CHECK(error.find("real time") != std::string::npos);
  CHECK(error.find('\n') == std::string::npos);
}

TEST_CASE("VASP OUTCAR sniffing: the banner and a 'running' line open the file", "[ingest][vasp]") {
  const std::string text = ReadText(kThreaded);
  CHECK(LooksLikeVaspOutcar(text));
  CHECK_FALSE(LooksLikeVaspOutcar(text.substr(text.find("executed on"))));  // no banner
  CHECK_FALSE(LooksLikeVaspOutcar(" vasp.6.4.2 20Jul23 (build Feb  6 2024 09:58:36) complex\n"));  // no layout
  CHECK_FALSE(LooksLikeVaspOutcar("running 4 mpi-ranks\n"));
}

TEST_CASE("predict on a folder of VASP OUTCARs fits each NCORE's series", "[ingest][vasp][cli]") {
  std::string out;
  REQUIRE(testing::RunCli("predict " + kVasp + " --procs 1024", &out) == 0);
  CHECK(out.find("series vasp.CdTe 65 ions 2 k-points ENCUT 450 NELM 7 NSW 0 IBRION -1 "
                 "(vasp6.4.2-HPECrayEX_GCC-complex ncore=4): runtime-only model on 3 process counts") != std::string::npos);
  CHECK(out.find("(vasp6.4.2-HPECrayEX_GCC-complex ncore=2): runtime-only model on 3 process counts") != std::string::npos);
  CHECK(out.find("1024   -") != std::string::npos);
  REQUIRE(testing::RunCli("ingest " + kVasp, &out) == 0);
  CHECK(out.find("differ in setting.ncore") != std::string::npos);  // ingest says why they were kept apart
}
