// Moving a series' model to another machine (issue 21, transfer/machine_transfer.h)
// on real series measured on two machines (tests/data/transfer, from
// ../shared/data/scaling2: Vlasiator IPshock light on Mahti and LUMI-C, GROMACS
// 1400k atoms on ARCHER2 at 16 ranks x 8 threads per node and on CSD3).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "command_runner.h"
#include "temp_dir.h"
#include "models/machine_profile.h"
#include "pipeline/series_loading.h"
#include "pipeline/transfer_runner.h"
#include "transfer/machine_transfer.h"
#include "util/atomic_file.h"

namespace {

std::string Data(const std::string& path) { return std::string(QNM_TEST_DATA_DIR) + "/" + path; }

qnm::Series LoadOne(const std::string& file) {
  std::vector<qnm::Series> series = qnm::LoadSeries({Data("transfer/" + file)}, "", nullptr);
  REQUIRE(series.size() == 1);
  return series.front();
}

qnm::Series Only(const qnm::Series& series, std::vector<int> procs) {
  qnm::Series out = series;
  out.groups.clear();
  for (const qnm::RunGroup& g : series.groups)
    for (int p : procs)
      if (g.procs == p) out.groups.push_back(g);
  return out;
}

qnm::SeriesModel Fit(const qnm::Series& series) {
  qnm::SeriesModel model;
  std::string error;
  qnm::PredictionOptions options;  // as `--target` fits the source: its default configuration
  options.choose_configuration = false;
  REQUIRE(qnm::FitSeriesModel(series, {}, options, &model, &error));
  return model;
}

qnm::TransferredModel Move(const qnm::SeriesModel& model, const qnm::Series& source, const qnm::Series* target,
                           const qnm::MachineProfile* profile = nullptr,
                           const qnm::TransferOptions& options = qnm::TransferOptions()) {
  qnm::TransferredModel moved;
  std::string error;
  REQUIRE(qnm::TransferSeriesModel(model, source, target, profile, options, &moved, &error));
  return moved;
}

double LogWidth(const qnm::Interval& i) { return std::log(i.upper_s / i.lower_s); }

/// GROMACS 1400k atoms on ARCHER2 (16 ranks x 8 threads per node), fitted, and CSD3's 56-rank run.
struct Archer2ToCsd3 {
  qnm::Series archer2 = LoadOne("gromacs-1400k-archer2-rpn16.csv");
  qnm::Series csd3 = LoadOne("gromacs-1400k-csd3-ib.csv");
  qnm::SeriesModel model = Fit(archer2);
  qnm::Series one = Only(csd3, {56});
};

/// True when one of `lines` contains `text`.
bool Says(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& line : lines)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("profile-only transfer says so and carries the unknown speed in wide intervals", "[transfer]") {
  qnm::Series mahti = LoadOne("vlasiator-light-mahti.csv");
  qnm::SeriesModel model = Fit(mahti);
  // A runtime-only model takes only the layout from a profile: 256 cores per node = 16 ranks of 16 threads, as on Mahti.
  qnm::MachineProfile lumi = qnm::LoadMachineProfile("pi4-ntua");
  lumi.name = "lumi-c";
  lumi.cores_per_node = 256;
  qnm::TransferredModel moved = Move(model, mahti, nullptr, &lumi, qnm::TransferOptions());
  CHECK(moved.summary.path == qnm::TransferPath::kProfileOnly);
  CHECK_FALSE(qnm::Known(moved.summary.speed_ratio));
  REQUIRE(moved.summary.calibrated.size() == 2);
  CHECK(moved.summary.calibrated[1].find("no run on the target") == 0);
  qnm::ProcsPrediction p = moved.Predict(256);
  REQUIRE(p.Ok());
  CHECK(moved.to.ranks_per_node == 16);
  CHECK(p.total.value_s == Approx(model.Predict(256).total.value_s));  // level: A's (nothing else is known)
  // 90% interval of a log sd >= the unknown speed's (0.69): at least exp(2 * 1.645 * 0.69) = 9.7x wide.
  const double unknown_sd = qnm::TransferOptions().unknown_speed_log_sd;
  CHECK(unknown_sd == Approx(0.69));
  CHECK(LogWidth(p.total) >= 2 * 1.645 * unknown_sd - 1e-9);
  REQUIRE_FALSE(p.flags.empty());
  CHECK(p.flags.back().find("no run on the target machine") == 0);
  // Neither runs nor a profile: refused.
  std::string error;
  CHECK_FALSE(qnm::TransferSeriesModel(model, mahti, nullptr, nullptr, qnm::TransferOptions(), &moved, &error));
  CHECK(error.find("needs runs") != std::string::npos);
}

TEST_CASE("one target run calibrates a constant speed ratio; intervals widen away from it", "[transfer]") {
  qnm::Series mahti = LoadOne("vlasiator-light-mahti.csv");
  qnm::Series lumi = LoadOne("vlasiator-light-lumi.csv");
  qnm::SeriesModel model = Fit(mahti);
  qnm::Series one = Only(lumi, {32});
  qnm::TransferredModel moved = Move(model, mahti, &one);
  CHECK(moved.summary.path == qnm::TransferPath::kOneRun);
  const double ratio = 8503.0 / model.Predict(32).total.value_s;
  CHECK(moved.summary.speed_ratio == Approx(ratio));
  CHECK(moved.Predict(32).total.value_s == Approx(8503.0));  // goes through the run
  for (int p : {64, 512, 8192}) CHECK(moved.Predict(p).total.value_s == Approx(ratio * model.Predict(p).total.value_s));
  // Same layout on both machines (16 ranks x 16 threads per node): P maps to P.
  CHECK(moved.to.threads_per_proc == 16);
  CHECK(moved.from.ranks_per_node == 16);
  // Farther from the run, wider than A's own interval there.
  qnm::ProcsPrediction far = moved.Predict(8192), near = moved.Predict(64);
  CHECK(LogWidth(far.total) > LogWidth(model.Predict(8192).total));
  CHECK(LogWidth(far.total) > LogWidth(near.total));
  CHECK(far.extrapolation == Approx(std::log2(8192.0 / 32)));
}

TEST_CASE("several target runs: the ratio follows each run and is interpolated between them", "[transfer]") {
  qnm::Series mahti = LoadOne("vlasiator-light-mahti.csv");
  qnm::Series lumi = LoadOne("vlasiator-light-lumi.csv");
  qnm::SeriesModel model = Fit(mahti);
  qnm::Series two = Only(lumi, {32, 256});
  qnm::TransferredModel moved = Move(model, mahti, &two);
  CHECK(moved.summary.path == qnm::TransferPath::kSeveralRuns);
  CHECK(moved.Predict(32).total.value_s == Approx(two.groups[0].median_time_s));
  CHECK(moved.Predict(256).total.value_s == Approx(two.groups[1].median_time_s));
  // Between the runs the ratio is interpolated in log P, and no drift is added to A's interval (only the runs' noise).
  const double r32 = two.groups[0].median_time_s / model.Predict(32).total.value_s;
  const double r256 = two.groups[1].median_time_s / model.Predict(256).total.value_s;
  const double r64 = std::exp(std::log(r32) + (std::log(r256) - std::log(r32)) / 3.0);
  CHECK(moved.Predict(64).total.value_s == Approx(r64 * model.Predict(64).total.value_s));
  qnm::TransferOptions no_noise;
  no_noise.run_noise_terms = 0;
  CHECK(LogWidth(Move(model, mahti, &two, nullptr, no_noise).Predict(64).total) ==
        Approx(LogWidth(model.Predict(64).total)));
  // Beyond the last run the last ratio is carried on.
  CHECK(moved.Predict(4096).total.value_s == Approx(r256 * model.Predict(4096).total.value_s));
  // Two runs pin the far end better than one: the error at LUMI-C's largest P is what it is.
  qnm::Series one = Only(lumi, {32});
  qnm::TransferredModel single = Move(model, mahti, &one);
  const double measured = lumi.groups.back().median_time_s;
  const int largest = lumi.groups.back().procs;
  CHECK(std::fabs(moved.Predict(largest).total.value_s / measured - 1) <
        std::fabs(single.Predict(largest).total.value_s / measured - 1));
}

TEST_CASE("the interval carries the noise of four single runs as noisy as the source's", "[transfer]") {
  // ARCHER2's 16 x 8 GROMACS series is noisy (112 ranks: 87.6 s, 144 ranks: 97.4 s): its runs scatter around its curve.
  const Archer2ToCsd3 pair;
  const qnm::Series &archer2 = pair.archer2, &one = pair.one;
  const qnm::SeriesModel& model = pair.model;
  qnm::TransferOptions options;
  options.drift_log_sd_per_octave = 0;  // the noise alone
  qnm::TransferredModel moved = Move(model, archer2, &one, nullptr, options);
  // The residuals' sum of squares over n - p degrees of freedom, p the members' fitted coefficients (weighted).
  double squares = 0, parameters = 0;
  for (const auto& [log_procs, residual] : model.anchor.log_residuals) squares += residual * residual;
  for (const qnm::RuntimeCurve& member : model.runtime.members)
    for (double c : member.model.coefficients) parameters += member.weight * (c > 0);
  const double n = static_cast<double>(model.anchor.log_residuals.size());
  REQUIRE(n == 16);
  CHECK(moved.source_noise_log_sd == Approx(std::sqrt(squares / (n - parameters))));
  CHECK(moved.source_noise_log_sd > 0.05);
  CHECK(moved.source_noise_log_sd < 0.3);
  // 560 ranks on CSD3 = 160 on ARCHER2 (10 nodes): A's interval there, widened by 2 sd of noise (4 runs).
  const qnm::ProcsPrediction a = model.Predict(160), b = moved.Predict(560);
  REQUIRE(b.Ok());
  const double noise_half = 1.6448536269514722 * 2 * moved.source_noise_log_sd;
  CHECK(std::log(b.total.upper_s / b.total.value_s) ==
        Approx(std::hypot(std::log(a.total.upper_s / a.total.value_s), noise_half)));
  CHECK(std::log(b.total.value_s / b.total.lower_s) ==
        Approx(std::hypot(std::log(a.total.value_s / a.total.lower_s), noise_half)));
  // Without it, A's interval as it is; the summary says what was added.
  options.run_noise_terms = 0;
  CHECK(LogWidth(Move(model, archer2, &one, nullptr, options).Predict(560).total) == Approx(LogWidth(a.total)));
  CHECK(Says(moved.summary.calibrated, "and by the noise of 4 single runs (the source's: "));
  // A smooth series (Vlasiator on Mahti) carries little noise.
  qnm::Series mahti = LoadOne("vlasiator-light-mahti.csv");
  qnm::Series lumi = LoadOne("vlasiator-light-lumi.csv");
  qnm::Series lumi_one = Only(lumi, {32});
  CHECK(Move(Fit(mahti), mahti, &lumi_one).source_noise_log_sd < moved.source_noise_log_sd);
}

TEST_CASE("the speed ratio on the computation alone keeps the overheads at their level", "[transfer]") {
  const Archer2ToCsd3 pair;
  const qnm::Series &archer2 = pair.archer2, &one = pair.one;
  const qnm::SeriesModel& model = pair.model;
  qnm::TransferOptions options;
  options.overheads_follow_speed = false;
  qnm::TransferredModel moved = Move(model, archer2, &one, nullptr, options);
  REQUIRE(moved.ratio_on_computation_only);
  CHECK(Says(moved.summary.calibrated,
             "the speed ratio applies to the computation only; the overheads are the source's"));
  CHECK(moved.Predict(56).total.value_s == Approx(one.groups[0].median_time_s));  // through the run
  // T_B = s * (1 - phi) * T_A + phi * T_A, s from the run at 56 ranks (Buckwalter 2005 §3: W + S).
  const double ratio = one.groups[0].median_time_s / moved.Uncalibrated(56).total.value_s;
  const double phi56 = moved.OverheadShare(56), phi3136 = moved.OverheadShare(3136);
  CHECK(phi56 >= 0);
  CHECK(phi3136 < 1);
  const double speed = (ratio - phi56) / (1 - phi56);
  CHECK(moved.Predict(3136).total.value_s ==
        Approx(moved.Uncalibrated(3136).total.value_s * ((1 - phi3136) * speed + phi3136)));
  // A target run faster than the source's overheads alone: no computation speed meets it, the whole time follows.
  REQUIRE(phi56 > 0);
  qnm::Series fast = one;
  fast.groups[0].median_time_s = 0.5 * phi56 * moved.Uncalibrated(56).total.value_s;
  qnm::TransferredModel fallback = Move(model, archer2, &fast, nullptr, options);
  CHECK_FALSE(fallback.ratio_on_computation_only);
  CHECK(Says(fallback.summary.calibrated, "the target runs faster than the source's overheads alone"));
  CHECK(fallback.Predict(56).total.value_s == Approx(fast.groups[0].median_time_s));
  // The naive reading (default) scales the whole time by the ratio.
  qnm::TransferredModel whole = Move(model, archer2, &one);
  CHECK_FALSE(whole.ratio_on_computation_only);
  CHECK(whole.Predict(3136).total.value_s == Approx(whole.Uncalibrated(3136).total.value_s * ratio));
}

TEST_CASE("identity: the source's own runs as target reproduce the source's prediction", "[transfer]") {
  qnm::Series mahti = LoadOne("vlasiator-light-mahti.csv");
  qnm::SeriesModel model = Fit(mahti);
  qnm::TransferredModel moved = Move(model, mahti, &mahti);
  CHECK(moved.summary.path == qnm::TransferPath::kSameMachine);
  for (int p : {16, 32, 100, 3200, 8192, 20000}) {
    qnm::ProcsPrediction a = model.Predict(p), b = moved.Predict(p);
    REQUIRE(b.Ok());
    CHECK(b.total.value_s == Approx(a.total.value_s).epsilon(1e-9));
    CHECK(b.total.lower_s == Approx(a.total.lower_s).epsilon(1e-9));
    CHECK(b.total.upper_s == Approx(a.total.upper_s).epsilon(1e-9));
  }
}

TEST_CASE("process counts are mapped by nodes, else by cores: 16x8 per node on A, 56x1 on B", "[transfer]") {
  qnm::Series archer2 = LoadOne("gromacs-1400k-archer2-rpn16.csv");
  qnm::Series csd3 = LoadOne("gromacs-1400k-csd3-ib.csv");
  qnm::SeriesModel model = Fit(archer2);
  qnm::Series one = Only(csd3, {56});
  qnm::TransferredModel moved = Move(model, archer2, &one);
  CHECK(moved.from.threads_per_proc == 8);
  CHECK(moved.from.ranks_per_node == 16);
  CHECK(moved.to.threads_per_proc == 1);
  CHECK(moved.to.ranks_per_node == 56);
  // 560 ranks on CSD3 fill 10 nodes, as 160 ranks do on ARCHER2.
  CHECK(moved.Uncalibrated(560).total.value_s == Approx(model.Predict(160).total.value_s));
  REQUIRE(moved.summary.transferred.size() >= 3);
  CHECK(moved.summary.transferred[1] ==
        "process counts mapped by nodes: P on the target (56 ranks per node) fills as many nodes as P*16/56 on the "
        "source");
  CHECK(moved.summary.transferred[2].find("the source was measured at P=16..256, on the target P=56..896;") == 0);
  // A whole process count prints whole however large (round 31 printed 1.434e+04): one rank per node on A.
  qnm::Series one_per_node = archer2;
  for (qnm::RunGroup& g : one_per_node.groups)
    for (qnm::RunStats& r : g.runs) r.ranks_per_node = 1;
  qnm::TransferredModel spread = Move(Fit(one_per_node), one_per_node, &one);
  CHECK(Says(spread.summary.transferred, "the source was measured at P=16..256, on the target P=896..14336;"));
  // Without nodes, by cores: 448 single-thread ranks use the cores of 56 ARCHER2 ranks of 8 threads.
  qnm::TransferOptions cores;
  cores.map_by_nodes = false;
  cores.node_terms_in_target_nodes = false;
  qnm::TransferredModel by_cores = Move(model, archer2, &one, nullptr, cores);
  CHECK(by_cores.Uncalibrated(448).total.value_s == Approx(model.Predict(56).total.value_s));
  CHECK(by_cores.summary.transferred[1].find("process counts mapped by cores") == 0);
  // At CSD3's 3136 ranks (56 nodes, 35.9 s measured): by nodes 9.6% off, by cores 32%, P to P (the naive
  // reading, 12 octaves beyond ARCHER2's 256 ranks) more than 50%.
  CHECK(std::fabs(moved.Predict(3136).total.value_s / 35.865 - 1) < 0.10);
  CHECK(std::fabs(by_cores.Predict(3136).total.value_s / 35.865 - 1) < 0.35);
  qnm::TransferOptions by_procs;
  by_procs.map_by_nodes = false;
  by_procs.map_by_cores = false;
  qnm::TransferredModel naive = Move(model, archer2, &one, nullptr, by_procs);
  CHECK(std::fabs(naive.Predict(3136).total.value_s / 35.865 - 1) > 0.5);
}

TEST_CASE("predict and validate --target print what was transferred and calibrated", "[transfer][cli]") {
  std::string out;
  const std::string cli = QNM_CLI_PATH;
  REQUIRE(qnm::testing::RunCommand(cli + " predict " + Data("transfer/vlasiator-light-mahti.csv") + " --target " +
                                       Data("transfer/vlasiator-light-lumi.csv") + " --procs 32,8192 2>&1",
                                   &out) == 0);
  CHECK(out.find("transferred: the code's scaling from 9 process counts") != std::string::npos);
  CHECK(out.find("calibrated: time level at the target's runs P=32,64,128,256,512,1024,2048,4096,8192") !=
        std::string::npos);
  REQUIRE(qnm::testing::RunCommand(cli + " validate " + Data("transfer/vlasiator-light-mahti.csv") + " --target " +
                                       Data("transfer/vlasiator-light-lumi.csv") + " --format csv 2>&1",
                                   &out) == 0);
  CHECK(out.find("8192") != std::string::npos);
  int code = qnm::testing::RunCommand(cli + " predict " + Data("transfer/vlasiator-light-mahti.csv") +
                                          " --target-machine no-such-machine 2>&1",
                                      &out);
  CHECK(code == 1);
  CHECK(out.find("no-such-machine: no such machine profile") != std::string::npos);
  // Two target series: refused with their names, unless one is picked.
  const std::string two = " --target " + Data("transfer/vlasiator-light-lumi.csv") + " " +
                          Data("transfer/gromacs-1400k-csd3-ib.csv");
  code = qnm::testing::RunCommand(cli + " predict " + Data("transfer/vlasiator-light-mahti.csv") + two + " 2>&1", &out);
  CHECK(code == 1);
  CHECK(out.find("the target runs hold 2 series and none pairs with") != std::string::npos);
  CHECK(out.find("pick one with --target-series") != std::string::npos);
  CHECK(qnm::testing::RunCommand(cli + " predict " + Data("transfer/vlasiator-light-mahti.csv") + two +
                                     " --target-series LUMI --procs 64 --format csv 2>/dev/null",
                                 &out) == 0);
  CHECK(out.find("vlasiator-IPshock-light-CSC-Mahti_rpn16_omp16 -> vlasiator-IPshock-light-EuroHPC-LUMI-C") !=
        std::string::npos);
  code = qnm::testing::RunCommand(cli + " validate " + Data("transfer/vlasiator-light-mahti.csv") + " --target " +
                                      Data("transfer/vlasiator-light-lumi.csv") + " --train 7 2>&1",
                                  &out);
  CHECK(code == 1);
  CHECK(out == "qnm-predict: --train: none of these process counts was measured on "
               "vlasiator-IPshock-light-EuroHPC-LUMI-C_rpn16_omp16\n");
  // With --target-machine naming B's profile, --machine names A's (it was dropped unsaid before round 32);
  // without it, A's is the bundled profile its runs' hosts match.
  const std::string bt = cli + " predict " + Data("mpip") + " --series 'bt-mz.C th=12' --target-machine pi4-ntua";
  REQUIRE(qnm::testing::RunCommand(bt + " --procs 16 2>&1", &out) == 0);
  CHECK(out.find("note: machine profile llnl-cab (bundled; its host pattern") != std::string::npos);
  CHECK(out.find("re-evaluated with the target profile pi4-ntua") != std::string::npos);
  REQUIRE(qnm::testing::RunCommand(bt + " --machine g5k-graphene --procs 16 2>&1", &out) == 0);
  CHECK(out.find("note: machine profile g5k-graphene (") != std::string::npos);
  CHECK(out.find("llnl-cab") == std::string::npos);
  CHECK(out.find("re-evaluated with the target profile pi4-ntua") != std::string::npos);
}

TEST_CASE("a queueing model's switch delay and contention are re-evaluated with the target's profile",
          "[transfer]") {
  // BT-MZ class C on cab with mpiP profiles at P = 1..16 (tests/data/mpip): the queueing model.
  std::vector<qnm::Series> series = qnm::LoadSeries({Data("mpip")}, "bt-mz.C th=12", nullptr);
  REQUIRE(series.size() == 1);
  qnm::SeriesModel model = Fit(series[0]);
  REQUIRE(model.kind == qnm::ModelKind::kQueueing);
  CHECK(model.machine.name == "llnl-cab");
  // To the Raspberry Pi cluster's Gigabit Ethernet (50 us, 110 MB/s against cab's 1.5 us, 3.2 GB/s).
  qnm::MachineProfile pi = qnm::LoadMachineProfile("pi4-ntua");
  qnm::TransferredModel moved = Move(model, series[0], nullptr, &pi);
  CHECK(moved.source.machine.name == "pi4-ntua");
  REQUIRE(moved.summary.transferred.size() >= 2);
  CHECK(moved.summary.transferred.back().find("re-evaluated with the target profile pi4-ntua") != std::string::npos);
  qnm::ProcsPrediction a = model.Predict(16), b = moved.Predict(16);
  REQUIRE(b.Ok());
  CHECK(b.messages_per_rank == Approx(a.messages_per_rank));    // the code's messages are the code's
  CHECK(b.compute.value_s == Approx(a.compute.value_s));        // no run on B: compute speed as on A
  CHECK(b.switch_delay.value_s > 20 * a.switch_delay.value_s);  // every message pays the slower network
  CHECK(b.total.value_s > a.total.value_s);
  // The same profile as A's changes nothing.
  qnm::TransferredModel same = Move(model, series[0], nullptr, &model.machine);
  CHECK(same.Predict(16).total.value_s == Approx(a.total.value_s));
  // With a run on B as well, the run's speed ratio applies to the computation alone: the switch delay and
  // contention are the profile's already and are not scaled again.
  qnm::Series first = Only(series[0], {1});
  qnm::TransferredModel calibrated = Move(model, series[0], &first, &pi);
  REQUIRE(calibrated.ratio_on_computation_only);
  CHECK(Says(calibrated.summary.calibrated, "the overheads are the target profile's"));
  CHECK(calibrated.Predict(1).total.value_s == Approx(first.groups[0].median_time_s));
  const qnm::ProcsPrediction raw = calibrated.Uncalibrated(16), c = calibrated.Predict(16);
  REQUIRE(c.Ok());
  CHECK(c.switch_delay.value_s == Approx(raw.switch_delay.value_s));
  CHECK(c.compute.value_s == Approx(raw.compute.value_s * calibrated.calibration.Factor(16)));
}

TEST_CASE("report --target shows the transferred prediction beside the source's", "[transfer][cli]") {
  qnm::testing::TempDir dir("qnm-transfer", "report");
  const std::string html = (dir.path / "study.html").string();
  std::string out;
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " report " + Data("transfer/vlasiator-light-mahti.csv") +
                                       " --target " + Data("transfer/vlasiator-light-lumi.csv") + " -o " + html +
                                       " 2>/dev/null",
                                   &out) == 0);
  const std::string page = qnm::ReadFile(html);
  const std::string source = "vlasiator-IPshock-light-CSC-Mahti_rpn16_omp16";
  const std::string moved = source + " -&gt; vlasiator-IPshock-light-EuroHPC-LUMI-C_rpn16_omp16";
  const std::size_t first = page.find("<h2>1. " + source + "</h2>");
  const std::size_t second = page.find("<h2>2. " + moved + "</h2>");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(first < second);  // the transferred section right after its source's
  CHECK(page.find("transferred: the code&#39;s scaling from 9 process counts", second) != std::string::npos);
  CHECK(page.find("transfer (calibrate on target P=32)", second) != std::string::npos);
}
