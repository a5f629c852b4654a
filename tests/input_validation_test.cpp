// Every number a reader takes in is finite and plausible, or the input is
// refused with one line naming the file, the line (where there is one) and the
// field: the cases of issue 13 on real inputs, damaged one value at a time.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "app_outputs/npb_output.h"
#include "models/machine_profile.h"
#include "mva/jmva_xml.h"
#include "mva/network_json.h"
#include "profiles/mpip_report.h"
#include "tables/statistics_table.h"
#include "trace/otf2_reader.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/json_input.h"
#include "util/utf8_text.h"
#include "whatif/whatif_hypothesis.h"

namespace fs = std::filesystem;

namespace {

std::string Data(const std::string& relative) { return std::string(QNM_TEST_DATA_DIR) + "/" + relative; }

/// `text` with the first occurrence of `from` replaced by `to` (which must exist).
std::string Replace(std::string text, const std::string& from, const std::string& to) {
  std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// The InputError message of `read()`, or "" when it succeeds.
template <typename Read>
std::string ErrorOf(Read read) {
  try {
    read();
  } catch (const qnm::InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kNpbFile = "npb/llnl-cab_bt-mz.C.np1.th10.omp.out";
const std::string kMpipFile = "mpip/bitonic__8_8_profile.mpiP";

}  // namespace

TEST_CASE("NPB: time NaN, negative, 0, 1e309 and absurd values are refused at their line", "[ingest][validation]") {
  const std::string original = qnm::ReadFile(Data(kNpbFile));
  auto error = [&](const std::string& time) {
    const std::string text = Replace(original, "55.43", time);
    return ErrorOf([&] { qnm::NpbToRunStats(qnm::ParseNpbOutput(text, "bt.out")); });
  };
  CHECK(error("55.43").empty());
  for (const char* bad : {"NaN", "-1", "0", "1e309", "inf", "1e-300", "1e30"}) {
    INFO(bad);
    const std::string message = error(bad);
    CHECK_THAT(message, Catch::StartsWith("bt.out:42: NPB 'Time in seconds'") ||
                            Catch::StartsWith("bt.out:"));
    CHECK_THAT(message, Catch::Contains("Time in seconds"));
  }
  CHECK_THAT(error("1e30"), Catch::Contains("outside [1e-06, 1e+07] s"));
  CHECK_THAT(error("-1"), Catch::Contains("outside"));
}

TEST_CASE("mpiP: negative counts and times, NaN and absurd sums are refused", "[ingest][validation]") {
  const std::string original = qnm::ReadFile(Data(kMpipFile));
  auto error = [&](const std::string& from, const std::string& to) {
    const std::string text = Replace(original, from, to);
    return ErrorOf([&] { qnm::MpipToRunStats(qnm::ParseMpipReport(text, "b.mpiP")); });
  };
  CHECK(error("   0       17.3", "   0       17.3").empty());
  CHECK(error("   0       17.3", "   0       -17.3") == "b.mpiP:26: AppTime -17.3 is outside [0, 1e+07] s "
                                                       "(a part of a run lasts at most 115 days)");
  CHECK_THAT(error("   0       17.3", "   0       nan"), Catch::StartsWith("b.mpiP:26: AppTime NaN is not a finite"));
  CHECK_THAT(error("Barrier              1    0      1   0.0271",
                   "Barrier              1    0     -1   0.0271"),
             Catch::StartsWith("b.mpiP:93: Count -1 is outside"));
  // Count x Mean of a row beyond any run: finite numbers, absurd product.
  CHECK_THAT(error("Barrier              1    0      1   0.0271   0.0271",
                   "Barrier              1    0      1e17   0.0271   1e9"),
             Catch::StartsWith("b.mpiP:93: Count x Mean"));
}

TEST_CASE("Tables: inf, 1e30 s and 1e-300 s are refused with the row's line", "[ingest][validation]") {
  const std::string header = "series,procs,time_s\n";
  auto error = [&](const std::string& time) {
    return ErrorOf([&] { qnm::ReadStatisticsCsv(header + "lu,4," + time + "\n", "t.csv"); });
  };
  CHECK(error("12.5").empty());
  CHECK_THAT(error("1e30"), Catch::StartsWith("t.csv:2: wall time 1e+30 is outside"));
  CHECK_THAT(error("1e-300"), Catch::StartsWith("t.csv:2: wall time 1e-300 is outside"));
  CHECK_THAT(error("inf"), Catch::StartsWith("t.csv:2:"));
  const std::string json = R"([{"series": "lu", "procs": 4, "time_s": 3, "app_time_s": 1e30}])";
  CHECK_THAT(ErrorOf([&] { qnm::ReadStatisticsJson(json, "t.json"); }),
             Catch::StartsWith("t.json:1: mean app time 1e+30 is outside"));
  // Parts of a run may be 0, but not a damaged 1e-300 (robustness campaign, round 3).
  auto part_error = [&](const std::string& column, const std::string& value) {
    return ErrorOf([&] {
      qnm::ReadStatisticsCsv("series,procs,time_s," + column + "\nlu,4,3," + value + "\n", "p.csv");
    });
  };
  CHECK(part_error("mpi_time_s", "0").empty());
  CHECK(part_error("mpi_time_s", "2e-9").empty());
  CHECK_THAT(part_error("mpi_time_s", "1e-300"),
             Catch::StartsWith("p.csv:2: mean MPI time 1e-300 is not 0 and below 1e-12 s: a damaged number"));
  CHECK(part_error("mops", "0").empty());
  CHECK_THAT(part_error("mops", "1e-300"), Catch::Contains("Mop/s total 1e-300 is not 0 and below 1e-09 Mop/s"));
}

TEST_CASE("Machine profile: 1e309 and absurd bandwidth give one line naming the file", "[models][validation]") {
  const std::string original = qnm::ReadFile(std::string(QNM_SOURCE_DIR) + "/data/machines/llnl-cab.json");
  const std::size_t at = original.find("\"bandwidth_bytes_per_s\"");
  REQUIRE(at != std::string::npos);
  const std::size_t value = original.find_first_of("0123456789", at + 24);
  const std::size_t end = original.find_first_of(",\n}", value);
  auto error = [&](const std::string& bandwidth) {
    std::string text = original;
    text.replace(value, end - value, bandwidth);
    return ErrorOf([&] { qnm::MachineProfileFromJson(text, "m.json"); });
  };
  CHECK(error("3.2e9").empty());
  const std::string overflow = error("1e309");
  CHECK_THAT(overflow, Catch::StartsWith("m.json: invalid JSON: number overflow parsing '1e309'"));
  CHECK(overflow.find('\n') == std::string::npos);
  CHECK(overflow.find("json.exception") == std::string::npos);
  CHECK_THAT(error("1e30"), Catch::StartsWith("m.json: \"bandwidth_bytes_per_s\" 1e+30 is outside [1000, 1e+13]"));
  CHECK_THAT(error("{"), Catch::StartsWith("m.json:"));
}

TEST_CASE("JMVA: populations 1e19, Infinity, 9.2e18 and negative servers are refused", "[mva][validation]") {
  const std::string original = qnm::ReadFile(std::string(QNM_SOURCE_DIR) + "/tests/robustness/seeds/two_class_terminals_cpu_disk.jmva");
  auto error = [&](const std::string& from, const std::string& to) {
    return ErrorOf([&] { qnm::mva::NetworkFromJmvaXml(Replace(original, from, to), "m.jmva"); });
  };
  CHECK(error("population=\"3\"", "population=\"3\"").empty());
  for (const char* population : {"1e19", "Infinity", "9.2e18", "3e30", "inf", "-1", "1e309"}) {
    INFO(population);
    CHECK_THAT(error("population=\"3\"", std::string("population=\"") + population + "\""),
               Catch::StartsWith("m.jmva: closedclass 'A' population"));
  }
  CHECK_THAT(error("servers=\"2\"", "servers=\"-2\""), Catch::StartsWith("m.jmva: listation 'cpu' servers -2 is outside"));
  CHECK_THAT(error("servers=\"2\"", "servers=\"many\""), Catch::StartsWith("m.jmva: listation 'cpu' servers: 'many' is not a number"));
  CHECK_THAT(error(">0.5<", ">1e30<"), Catch::Contains("service time 1e+30 is outside"));
}

TEST_CASE("MVA JSON: absurd demands and populations are refused", "[mva][validation]") {
  auto error = [](const std::string& text) {
    return ErrorOf([&] { qnm::mva::NetworkFromJson(qnm::mva::ParseJsonText(text, "n.json"), "n.json"); });
  };
  CHECK(error(R"({"classes": [{"population": 3}], "stations": [{"demands": [1]}]})").empty());
  CHECK_THAT(error(R"({"classes": [{"population": 3}], "stations": [{"demands": [4.5e33]}]})"),
             Catch::Contains("beyond 1e12"));
  CHECK_THAT(error(R"({"classes": [{"population": 1e10}], "stations": [{"demands": [1]}]})"),
             Catch::Contains("population 1e+10 is outside"));
}

TEST_CASE("What-if factors: 1e15, NaN, inf and 4.5e33 are refused with the rule", "[whatif][validation]") {
  using namespace qnm::trace;
  Hypothesis h;
  CHECK(ParseHypothesisLine("SCALE COMPUTATION 1000", "w.cfg", 3, &h));
  CHECK(h.factor == 1000);
  CHECK_THAT(ErrorOf([&] { ParseHypothesisLine("SCALE REGION \"main\" 4.5e33", "w.cfg", 3, &h); }),
             Catch::StartsWith("w.cfg:3: scale factor 4.5e+33 is outside [0, 1000]"));
  CHECK_THAT(ErrorOf([&] { ParseHypothesisLine("SCALE MPI inf", "w.cfg", 4, &h); }),
             Catch::StartsWith("w.cfg:4: scale factor must be a number >= 0"));
  CHECK_THAT(ErrorOf([&] { GlobalScaleFromArg(HypothesisKind::kScaleComputation, 1e15, "--scale-computation"); }),
             Catch::StartsWith("--scale-computation: scale factor 1e+15 is outside"));
  CHECK_THAT(ErrorOf([&] { GlobalScaleFromArg(HypothesisKind::kScaleComputation, std::nan(""), "--scale-computation"); }),
             Catch::StartsWith("--scale-computation: scale factor must be a number >= 0"));
}

TEST_CASE("JSON input: deep nesting is refused before parsing, with the line", "[util][validation]") {
  const std::string deep = "{\n\"a\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  CHECK_THAT(ErrorOf([&] { qnm::ParseJsonDocument(deep, "d.json"); }),
             Catch::StartsWith("d.json:2: invalid JSON: nested deeper than 64 levels"));
  CHECK(ErrorOf([&] { qnm::ParseJsonDocument("[[[1]]]", "d.json"); }).empty());
}

TEST_CASE("Messages quoting damaged bytes and names stay one valid line", "[util][validation]") {
  const qnm::InputError error("f.txt", 3, "got 'a\nb\rc\x1b[2J'");
  CHECK(std::string(error.what()) == "f.txt:3: got 'a?b?c?[2J'");
  CHECK(qnm::ValidUtf8("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(qnm::ValidUtf8("a\xb1z\xc0\xafq\xed\xa0\x80") == "a?z??q???");
  CHECK(qnm::ValidUtf8("tab\there\x01") == "tab\there?");
}

TEST_CASE("OTF2: a damaged timestamp far outside the clock range is refused", "[trace][validation]") {
  const fs::path dir = fs::temp_directory_path() / ("qnm-validation-otf2-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(Data("otf2/synthetic-patterns-4rank"), dir, fs::copy_options::recursive);
  for (auto& entry : fs::recursive_directory_iterator(dir))
    fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add);
  const qnm::trace::Trace trace = qnm::trace::ReadOtf2Trace(dir.string());
  REQUIRE(trace.trace_length_ticks > 0);
  // The last event of rank 1 as stored (global clock): 8 little-endian bytes in its event file.
  const qnm::trace::LocationTrace& rank = trace.ranks[1];
  const uint64_t stored = rank.last_ticks + trace.global_offset;
  const fs::path events = dir / "traces" / (std::to_string(rank.otf2_location) + ".evt");
  std::string bytes = qnm::ReadFile(events.string());
  std::string pattern(8, '\0');
  std::memcpy(pattern.data(), &stored, 8);
  const std::size_t at = bytes.rfind(pattern);
  REQUIRE(at != std::string::npos);
  // 1.8e9 s later (a flipped high bit), in a 3 ms trace.
  const uint64_t damaged = stored + 1'800'000'000ull * trace.timer_resolution;
  std::memcpy(bytes.data() + at, &damaged, 8);
  { std::ofstream(events, std::ios::binary | std::ios::trunc) << bytes; }
  const std::string message = ErrorOf([&] { qnm::trace::ReadOtf2Trace(dir.string()); });
  fs::remove_all(dir);
  CHECK_THAT(message, Catch::StartsWith(events.string() + ": 1 event timestamps"));
  CHECK_THAT(message, Catch::Contains("outside the clock range"));
}
