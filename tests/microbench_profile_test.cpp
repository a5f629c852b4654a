// OSU micro-benchmark and IMB-MPI1 outputs read into machine profiles (issue 21),
// on the real samples in tests/data/osu and tests/data/imb (docs/formats/osu.md, imb.md).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <zlib.h>

#include "command_runner.h"
#include "microbench/micro_benchmark.h"
#include "microbench/network_profile.h"
#include "reader/micro_benchmark_files.h"
#include "temp_dir.h"
#include "util/input_error.h"

namespace {

std::string Data(const std::string& path) { return std::string(QNM_TEST_DATA_DIR) + "/" + path; }

std::string ErrorOf(const std::string& text, bool imb) {
  try {
    if (imb) qnm::ReadImbOutput(text, "x.txt");
    else qnm::ReadOsuOutput(text, "x.txt");
  } catch (const qnm::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("osu_latency, osu_bw and osu_allreduce outputs are read row by row", "[microbench][osu]") {
  auto latency = qnm::ReadMicroBenchmarkFile(Data("osu/cofc-osu_latency-compute001.log"));
  REQUIRE(latency.size() == 1);
  CHECK(latency[0].kind == qnm::MicroBenchmarkKind::kPingPongLatency);
  CHECK(latency[0].suite == "OSU MPI Latency Test v5.3.2");
  REQUIRE(latency[0].rows.size() == 24);
  CHECK(latency[0].rows.front().bytes == 0);
  CHECK(latency[0].rows.front().time_s == Approx(1.07e-6));
  CHECK(latency[0].rows.back().bytes == 4194304);
  CHECK(latency[0].rows.back().time_s == Approx(355.08e-6));
  CHECK(latency[0].rows.back().line == 26);

  auto bandwidth = qnm::ReadMicroBenchmarkFile(Data("osu/dvsmedeiros-osu_bw.log"));
  REQUIRE(bandwidth.size() == 1);
  CHECK(bandwidth[0].kind == qnm::MicroBenchmarkKind::kStreamBandwidth);
  REQUIRE(bandwidth[0].rows.size() == 23);
  CHECK(bandwidth[0].rows[16].bytes == 65536);
  CHECK(bandwidth[0].rows[16].bandwidth_bytes_per_s == Approx(15731.13e6));

  auto allreduce = qnm::ReadMicroBenchmarkFile(Data("osu/archer2-osu_allreduce-256.txt"));
  REQUIRE(allreduce.size() == 1);
  CHECK(allreduce[0].kind == qnm::MicroBenchmarkKind::kAllreduce);
  REQUIRE(allreduce[0].rows.size() == 19);
  CHECK(allreduce[0].rows.front().bytes == 4);
  CHECK(allreduce[0].rows.front().time_s == Approx(6.81e-6));
  CHECK(allreduce[0].processes == 0);  // OSU does not print it
}

TEST_CASE("IMB-MPI1 PingPong and Allreduce tables are read, the other benchmarks skipped", "[microbench][imb]") {
  auto tables = qnm::ReadMicroBenchmarkFile(Data("imb/juno-IMB-MPI1_internode.txt"));
  REQUIRE(tables.size() == 2);  // PingPong, Allreduce (#processes = 2); PingPing, Sendrecv, ... skipped
  CHECK(tables[0].kind == qnm::MicroBenchmarkKind::kPingPongLatency);
  CHECK(tables[0].suite == "Intel (R) MPI Benchmarks 4.1, MPI-1 part: PingPong");
  CHECK(tables[0].processes == 2);
  REQUIRE(tables[0].rows.size() == 24);
  CHECK(tables[0].rows[0].time_s == Approx(155.82e-6));
  CHECK(tables[0].rows.back().time_s == Approx(36946.39e-6));
  CHECK(tables[1].kind == qnm::MicroBenchmarkKind::kAllreduce);
  REQUIRE(tables[1].rows.size() == 22);
  CHECK(tables[1].rows[1].bytes == 4);
  CHECK(tables[1].rows[1].time_s == Approx(290.56e-6));  // t_avg, not t_min or t_max
}

TEST_CASE("HPC Challenge outputs: each run's Summary section a ping-pong of its slowest pair", "[microbench][hpcc]") {
  // hpcc appends to hpccoutf.txt: two runs of 2 processes, one table each.
  auto tables = qnm::ReadMicroBenchmarkFile(Data("hpcc/vm-2procs-2runs.hpccoutf.txt"));
  REQUIRE(tables.size() == 2);
  CHECK(tables[0].kind == qnm::MicroBenchmarkKind::kPingPongLatency);
  CHECK(tables[0].suite == "HPC Challenge 1.5.0: b_eff ping-pong, slowest of 2 processes' pairs");
  CHECK(tables[0].processes == 2);
  CHECK(tables[0].line == 430);
  REQUIRE(tables[0].rows.size() == 2);
  CHECK(tables[0].rows[0].bytes == 8);  // "The latency   measurements were done with        8 bytes"
  CHECK(tables[0].rows[0].time_s == Approx(0.379889e-6));
  CHECK(tables[0].rows[0].line == 545);
  CHECK(tables[0].rows[1].bytes == 2000000);
  CHECK(tables[0].rows[1].bandwidth_bytes_per_s == Approx(13.0438e9));
  CHECK(tables[0].rows[1].time_s == Approx(2000000 / 13.0438e9));  // HPCC's bandwidth is L / t
  CHECK(tables[1].line == 1012);
  CHECK(tables[1].rows[0].time_s == Approx(0.384917e-6));
  CHECK(tables[1].rows[1].bandwidth_bytes_per_s == Approx(13.633e9));

  // A profile: the slowest run's latency; the bandwidth the Hockney line's, L / (t - Lat).
  for (auto& t : qnm::ReadMicroBenchmarkFile(Data("hpcc/vm-4procs-oversubscribed.hpccoutf.txt"))) tables.push_back(t);
  qnm::NetworkProfileOptions options;
  options.name = "vm";
  std::vector<std::string> notes;
  qnm::MachineProfile profile = qnm::BuildNetworkProfile(tables, options, &notes);
  CHECK(profile.latency_s == Approx(5.11775e-6));  // 4 processes oversubscribed on 2 cores
  CHECK(profile.bandwidth_bytes_per_s == Approx(2000000 / (2000000 / 9.12596e9 - 5.11775e-6)));
  CHECK_FALSE(qnm::Known(profile.allreduce_latency_s));  // HPCC has no allreduce
  CHECK(profile.source.find("HPC Challenge 1.5.0") != std::string::npos);

  // Runs of one process measure no ping-pong (HPCC prints -1): passed over beside a
  // run that has one, and a file of them only is refused saying why.
  CHECK_THROWS_WITH(qnm::ReadMicroBenchmarkFile(Data("hpcc/vm-1proc.hpccoutf.txt")),
                    Catch::EndsWith("vm-1proc.hpccoutf.txt:496: no ping-pong in this run (1 process; HPCC prints -1): "
                                    "give the output of a run on 2 or more processes"));
  CHECK_THROWS_WITH(qnm::ReadMicroBenchmarkFile(Data("hpcc/ezibenroc-hpl-1.4.2-1proc.hpccoutf.txt")),
                    Catch::Contains("ezibenroc-hpl-1.4.2-1proc.hpccoutf.txt:494: no ping-pong in this run"));
  qnm::testing::TempDir dir("qnm-microbench", "t" + std::to_string(__LINE__));
  const std::string both = dir.path.string() + "/hpccoutf.txt";
  {
    std::ofstream out(both);
    for (const char* file : {"hpcc/vm-1proc.hpccoutf.txt", "hpcc/vm-4procs-oversubscribed.hpccoutf.txt"})
      out << std::ifstream(Data(file)).rdbuf();
  }
  auto kept = qnm::ReadMicroBenchmarkFile(both);
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].processes == 4);

  // A file compressed as a whole reads as zcat shows it; cut short, it is refused.
  std::stringstream text;
  text << std::ifstream(Data("hpcc/vm-4procs-oversubscribed.hpccoutf.txt")).rdbuf();
  const std::string gz = dir.path.string() + "/hpccoutf.txt.gz";
  gzFile out = gzopen(gz.c_str(), "wb");
  REQUIRE(out != nullptr);
  REQUIRE(gzwrite(out, text.str().data(), static_cast<unsigned>(text.str().size())) > 0);
  REQUIRE(gzclose(out) == Z_OK);
  auto unpacked = qnm::ReadMicroBenchmarkFile(gz);
  REQUIRE(unpacked.size() == 1);
  CHECK(unpacked[0].rows[0].time_s == kept[0].rows[0].time_s);
  CHECK(unpacked[0].rows[1].line == 547);
  std::string bytes;
  {
    std::ifstream in(gz, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(gz, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 2);
  CHECK_THROWS_WITH(qnm::ReadMicroBenchmarkFile(gz), Catch::Contains("cut short"));
}

TEST_CASE("damaged HPC Challenge outputs are refused with file and line", "[microbench][hpcc][errors]") {
  const std::string head =
      "This is the DARPA/DOE HPC Challenge Benchmark version 1.5.0 October 2012\n"
      " The latency   measurements were done with        8 bytes\n"
      "Begin of Summary section.\n";
  auto error = [](const std::string& text) {
    try {
      qnm::ReadHpccOutput(text, "x.txt");
    } catch (const qnm::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string good = "CommWorldProcs=16\nMaxPingPongLatency_usec=2.11265\nMinPingPongBandwidth_GBytes=1.99586\n";
  CHECK(error(head + good + "End of Summary section.\n").empty());
  CHECK(error(head + good) == "x.txt:3: the Summary section has no end (a truncated output?)");
  CHECK(error(head + "CommWorldProcs=16\nMaxPingPongLatency_usec=nan\nMinPingPongBandwidth_GBytes=1.99586\n"
                     "End of Summary section.\n") == "x.txt:5: MaxPingPongLatency_usec 'nan' is not a finite number");
  CHECK(error(head + "CommWorldProcs=16\nMinPingPongBandwidth_GBytes=1.99586\nEnd of Summary section.\n") ==
        "x.txt:3: the Summary section has no MaxPingPongLatency_usec (not an HPCC 1.x output?)");
  CHECK(error(head + good + "CommWorldProcs=8\nEnd of Summary section.\n") ==
        "x.txt:7: CommWorldProcs appears twice in one Summary section");
  CHECK(error(head + "CommWorldProcs=16\nMaxPingPongLatency_usec=2.1\nMinPingPongBandwidth_GBytes=0\n"
                     "End of Summary section.\n") ==
        "x.txt:6: MinPingPongBandwidth_GBytes is not a positive bandwidth");
  CHECK(error(head + "CommWorldProcs=2.5\n" + good.substr(18) + "End of Summary section.\n") ==
        "x.txt:4: CommWorldProcs is not a process count");
  CHECK(error(head + good + "garbage\nEnd of Summary section.\n") ==
        "x.txt:7: a line of the Summary section is not key=value");
  CHECK(error(" The latency   measurements were done with  eight bytes\n") ==
        "x.txt:1: message size 'eight' is not a byte count in [0, 2^40]");
  CHECK(error("This is the DARPA/DOE HPC Challenge Benchmark version 1.5.0\nHPLinpack 2.0\n") ==
        "x.txt: no Summary section (\"Begin of Summary section.\"): an HPCC run that did not finish?");
}

TEST_CASE("a profile from OSU outputs: flat-part latency, osu_bw plateau, allreduce", "[microbench][profile]") {
  std::vector<qnm::MicroBenchmarkTable> tables;
  for (const char* file : {"osu/cofc-osu_latency-compute001.log", "osu/dvsmedeiros-osu_bw.log",
                           "osu/archer2-osu_allreduce-256.txt"})
    for (auto& t : qnm::ReadMicroBenchmarkFile(Data(file))) tables.push_back(t);
  qnm::NetworkProfileOptions options;
  options.name = "mixed";
  options.cores_per_node = 128;
  std::vector<std::string> notes;
  qnm::MachineProfile profile = qnm::BuildNetworkProfile(tables, options, &notes);
  CHECK(profile.latency_s == Approx(1.14e-6));  // median of 1.07, 1.14, 1.14, 1.13, 1.15 (0..8 bytes)
  CHECK(profile.bandwidth_bytes_per_s == Approx(16251.87e6));
  CHECK(profile.allreduce_latency_s == Approx(6.81e-6));
  CHECK(notes.size() == 3);
  // What is written reads back.
  qnm::MachineProfile back = qnm::MachineProfileFromJson(qnm::MachineProfileToJson(profile), "p.json");
  CHECK(back.latency_s == profile.latency_s);
  CHECK(back.bandwidth_bytes_per_s == profile.bandwidth_bytes_per_s);
  CHECK(back.cores_per_node == 128);
  CHECK(back.allreduce_latency_s == profile.allreduce_latency_s);
  CHECK(back.source.find("OSU MPI Latency Test v5.3.2") != std::string::npos);
}

TEST_CASE("a profile from IMB alone: bandwidth from the ping-pong's largest message", "[microbench][profile]") {
  auto tables = qnm::ReadMicroBenchmarkFile(Data("imb/juno-IMB-MPI1_internode.txt"));
  qnm::NetworkProfileOptions options;
  options.name = "juno";
  qnm::MachineProfile profile = qnm::BuildNetworkProfile(tables, options, nullptr);
  CHECK(profile.latency_s == Approx(153.68e-6));  // median of 155.82, 156.68, 153.68, 152.43, 152.61
  CHECK(profile.bandwidth_bytes_per_s == Approx(4194304 / ((36946.39 - 153.68) * 1e-6)));
  CHECK(profile.allreduce_latency_s == Approx(290.56e-6));
  CHECK(profile.allreduce_processes == 2);
  // Intra- and inter-node files together: the slower path is the network.
  for (auto& t : qnm::ReadMicroBenchmarkFile(Data("imb/juno-IMB-MPI1_intranode.txt"))) tables.push_back(t);
  qnm::MachineProfile both = qnm::BuildNetworkProfile(tables, options, nullptr);
  CHECK(both.latency_s == Approx(profile.latency_s));
}

TEST_CASE("damaged micro-benchmark outputs are refused with file and line", "[microbench][errors]") {
  const std::string osu = "# OSU MPI Latency Test v5.3.2\n# Size Latency (us)\n0 1.07\n1 abc\n";
  CHECK(ErrorOf(osu, false) == "x.txt:4: column 2 'abc' is not a finite number");
  CHECK(ErrorOf("# OSU MPI Latency Test v5\n0 1.0\n0 1.2\n", false) ==
        "x.txt:3: message size 0 does not grow over the previous row's");
  CHECK(ErrorOf("# OSU MPI Latency Test v5\n0 -1.0\n", false).rfind("x.txt:2: time per message", 0) == 0);
  CHECK(ErrorOf("# OSU MPI Bi-Directional Bandwidth Test v5.3.2\n1 0.41\n", false) ==
        "x.txt: no osu_latency, osu_bw or osu_allreduce table (other OSU tests are not used)");
  CHECK(ErrorOf("# OSU MPI Latency Test v5.3.2\n# Size Latency (us)\n", false) ==
        "x.txt:1: the OSU MPI Latency Test v5.3.2 table has no rows");
  const std::string imb =
      "# Benchmarking PingPong\n# #processes = 2\n#bytes #repetitions t[usec] Mbytes/sec\n0 1000 2.23 0.00\n1 1000\n";
  CHECK(ErrorOf(imb, true) == "x.txt:5: row has 2 columns, expected at least 3");
  CHECK(ErrorOf("# Benchmarking Allreduce\n#bytes #repetitions t[usec]\n", true) ==
        "x.txt:2: no 't_avg[usec]' column in the table header");
  // A file of neither suite, and a profile without a latency.
  qnm::testing::TempDir dir("qnm-microbench", "t" + std::to_string(__LINE__));
  const std::string other = dir.path.string() + "/other.txt";
  std::ofstream(other) << "hello\n";
  CHECK_THROWS_WITH(qnm::ReadMicroBenchmarkFile(other), Catch::Contains("not an OSU micro-benchmark output"));
  auto bw = qnm::ReadMicroBenchmarkFile(Data("osu/dvsmedeiros-osu_bw.log"));
  qnm::NetworkProfileOptions options;
  options.name = "b";
  CHECK_THROWS_WITH(qnm::BuildNetworkProfile(bw, options, nullptr), Catch::Contains("a profile needs a latency"));
}

TEST_CASE("repeated measurements of one path: the slowest by default, the median with PathChoice::kMedian",
          "[microbench][profile]") {
  // 28 osu_latency and 28 osu_bw runs between node pairs of 256 AWS EKS nodes, one osu_allreduce
  // (tests/data/osu-repeated/SOURCES.md). Each latency is the median of a table's 0..8-byte rows.
  std::vector<qnm::MicroBenchmarkTable> tables;
  for (const auto& entry : std::filesystem::directory_iterator(Data("osu-repeated")))
    if (entry.path().extension() == ".out")
      for (auto& t : qnm::ReadMicroBenchmarkFile(entry.path().string())) tables.push_back(t);
  REQUIRE(tables.size() == 57);
  qnm::NetworkProfileOptions options;
  options.name = "eks256";
  std::vector<std::string> notes;
  const qnm::MachineProfile slowest = qnm::BuildNetworkProfile(tables, options, &notes);
  CHECK(slowest.latency_s == Approx(49.12e-6));               // osu-2-iter-0, two or three times the others
  CHECK(slowest.bandwidth_bytes_per_s == Approx(2528.94e6));  // osu-2-iter-6's plateau
  REQUIRE(notes.size() == 3);
  CHECK(notes[0].find("the slowest of 28 latency tables, ") != std::string::npos);
  CHECK(notes[0].find("osu-2-iter-0-1409604911104.out:1") != std::string::npos);
  options.paths = qnm::PathChoice::kMedian;
  const qnm::MachineProfile median = qnm::BuildNetworkProfile(tables, options, &notes);
  // Of 28, the slower of the two middle ones: 22.33 us (21.74 the other), 4689.93 MB/s (4694.84).
  CHECK(median.latency_s == Approx(22.33e-6));
  CHECK(median.bandwidth_bytes_per_s == Approx(4689.93e6));
  CHECK(median.allreduce_latency_s == slowest.allreduce_latency_s);  // one allreduce table either way
  CHECK(notes[0].find("the median of 28 latency tables (repetitions of one path), ") != std::string::npos);
  CHECK(notes[0].find("osu-2-iter-19-1486729773056.out:1") != std::string::npos);
  CHECK(notes[1].find("the median of 28 bandwidth tables") != std::string::npos);
  // One table: no choice to speak of, the same with either.
  std::vector<qnm::MicroBenchmarkTable> one = qnm::ReadMicroBenchmarkFile(Data("imb/juno-IMB-MPI1_internode.txt"));
  options.name = "juno";
  CHECK(qnm::BuildNetworkProfile(one, options, &notes).latency_s == Approx(153.68e-6));
  CHECK(notes[0].find("the median of") == std::string::npos);
  // The ping-pong's own bandwidth (no osu_bw): the median of the two IMB tables' lines is the slower one.
  for (auto& t : qnm::ReadMicroBenchmarkFile(Data("imb/juno-IMB-MPI1_intranode.txt"))) one.push_back(t);
  const qnm::MachineProfile two = qnm::BuildNetworkProfile(one, options, &notes);
  options.paths = qnm::PathChoice::kSlowest;
  const qnm::MachineProfile two_slowest = qnm::BuildNetworkProfile(one, options, nullptr);
  CHECK(two.latency_s == Approx(two_slowest.latency_s));
  CHECK(two.bandwidth_bytes_per_s == Approx(two_slowest.bandwidth_bytes_per_s));
  CHECK(notes[1].find("the median of 2 ping-pong tables") != std::string::npos);
}

TEST_CASE("micro-benchmark outputs among runs: ingest says they are a profile's input, not unrecognised",
          "[microbench][ingest]") {
  std::string output;
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " ingest " + Data("osu") + " " + Data("imb") + " " +
                                       Data("hpcc") + " --format csv 2>&1",
                                   &output) == 0);
  // Each suite by its banner; HPCC's outputs also hold an HPL run, which ingest reads.
  CHECK(output.find("3 x an OSU micro-benchmark output: not a run; `qnm-predict profile` makes of it a machine "
                    "profile for --machine") != std::string::npos);
  CHECK(output.find("2 x an IMB-MPI1 output: not a run;") != std::string::npos);
  CHECK(output.find("1 x not a recognised format") != std::string::npos);  // tests/data/hpcc/SOURCES.md alone
  CHECK(output.find("hpl") != std::string::npos);
  CHECK(qnm::MicroBenchmarkSuiteOf("# OSU MPI Latency Test v7.1\n0 1.5\n") == qnm::MicroBenchmarkSuite::kOsu);
  CHECK(qnm::MicroBenchmarkSuiteOf("#----\n# Benchmarking PingPong\n") == qnm::MicroBenchmarkSuite::kImb);
  CHECK(qnm::MicroBenchmarkSuiteOf("Begin of Summary section.\n") == qnm::MicroBenchmarkSuite::kHpcc);
  CHECK(qnm::NotARunReason(" NAS Parallel Benchmarks 3.3 -- BT Benchmark\n").empty());
}

TEST_CASE("qnm-predict profile writes a profile that --machine reads; bad input is one line", "[microbench][cli]") {
  qnm::testing::TempDir dir("qnm-microbench", "t" + std::to_string(__LINE__));
  const std::string out = dir.path.string() + "/juno.json";
  std::string output;
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " profile " + Data("imb/juno-IMB-MPI1_internode.txt") +
                                       " --cores-per-node 6 -o " + out + " 2>/dev/null",
                                   &output) == 0);
  qnm::MachineProfile profile = qnm::ReadMachineProfile(out);
  CHECK(profile.name == "juno");
  CHECK(profile.cores_per_node == 6);
  CHECK(profile.latency_s == Approx(153.68e-6));
  const std::string bad = dir.path.string() + "/bad.txt";
  std::ofstream(bad) << "# OSU MPI Latency Test v5\n0 1.0\n8 nan\n";
  int code = qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " profile " + bad + " --name b 2>&1", &output);
  CHECK(code == 1);
  CHECK(output == "qnm-predict: " + bad + ":3: column 2 'nan' is not a finite number\n");
  // --paths median over the repeated runs; an unknown choice is refused.
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " profile " + Data("osu-repeated") +
                                       "/osu-2-iter-* --paths median -o " + out + " 2>/dev/null",
                                   &output) == 0);
  CHECK(qnm::ReadMachineProfile(out).latency_s == Approx(22.33e-6));
  // A folder is walked: its micro-benchmark outputs read, its other files (SOURCES.md) passed over
  // and said; a folder with none is refused naming it.
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " profile " + Data("osu-repeated") +
                                       " --paths median -o " + out + " 2>&1",
                                   &output) == 0);
  CHECK(qnm::ReadMachineProfile(out).latency_s == Approx(22.33e-6));
  CHECK(output.find("osu-repeated: read 57 micro-benchmark outputs; passed over 1 other file (the first ") !=
        std::string::npos);
  const std::string empty = dir.path.string() + "/empty";
  std::filesystem::create_directory(empty);
  std::ofstream(empty + "/README") << "no benchmark here\n";
  code = qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " profile " + empty + " --name e 2>&1", &output);
  CHECK(code == 1);
  CHECK(output == "qnm-predict: " + empty + ": no OSU, IMB-MPI1 or HPC Challenge output in this folder (1 file)\n");
  code = qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " profile " + Data("osu-repeated") +
                                      "/osu-2-iter-0-1409604911104.out --name x --paths mean 2>&1",
                                  &output);
  CHECK(code != 0);
  CHECK(output.find("--paths") != std::string::npos);
}
