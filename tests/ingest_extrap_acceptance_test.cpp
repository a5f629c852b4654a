// Extra-P acceptance: Extra-P's own reader-test inputs (tests/data/extrap-tests,
// BSD-3, SOURCES.md there) against extrap_reads.json, what Extra-P 4.2 itself
// reads from each file and cube set down to every repetition's value. Every
// file Extra-P reads must read with the same parameters, points and multiset
// of repetition values for every call path x metric; as a series over one
// parameter (--parameter where it is not p-like, --where for the others); and
// every file Extra-P refuses must be refused with a message naming the reason.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cube/cube_set.h"
#include "extrap/extrap_data.h"
#include "extrap/extrap_file.h"
#include "extrap/extrap_selection.h"
#include "ingest/ingest.h"
#include "ingest/repetition_spread.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

using namespace qnm;
using Json = nlohmann::json;

namespace {

const std::string kRoot = std::string(QNM_TEST_DATA_DIR) + "/extrap-tests";

const Json& Reference() {
  static const Json reference = Json::parse(ReadFile(kRoot + "/extrap_reads.json"));
  return reference;
}

bool Close(double ours, double theirs, double tolerance = 1e-12) {
  return std::fabs(ours - theirs) <= tolerance * std::max(1.0, std::fabs(theirs));
}

// Our repetitions at one point against Extra-P's entry [point, values, mean,
// median]: the same multiset of values, bit for bit from text and JSON (the
// same decimal strings), within 1e-12 relative from cubes (exclusive values
// are computed by subtraction on both sides). Extra-P's JSON Lines reader does not keep the
// values (the reference holds null there): then mean and median must agree.
bool SameValues(std::vector<double> ours, const Json& entry, bool cube, std::string* why) {
  std::sort(ours.begin(), ours.end());
  std::ostringstream text;
  text.precision(17);
  if (entry[1].is_null()) {
    if (ours.empty()) return *why = "no values", false;
    double mean = 0;
    for (double v : ours) mean += v / static_cast<double>(ours.size());
    std::size_t n = ours.size();
    double median = n % 2 ? ours[n / 2] : 0.5 * (ours[n / 2 - 1] + ours[n / 2]);
    if (Close(mean, entry[2]) && Close(median, entry[3])) return true;
    text << "mean " << mean << " median " << median << ", Extra-P " << entry[2] << " " << entry[3];
    return *why = text.str(), false;
  }
  std::vector<double> theirs = entry[1].get<std::vector<double>>();
  std::sort(theirs.begin(), theirs.end());
  if (ours.size() != theirs.size()) {
    *why = std::to_string(ours.size()) + " repetitions, Extra-P " + std::to_string(theirs.size());
    return false;
  }
  for (std::size_t k = 0; k < ours.size(); ++k)
    if (!Close(ours[k], theirs[k], cube ? 1e-12 : 0)) {
      text << "value " << ours[k] << ", Extra-P " << theirs[k];
      *why = text.str();
      return false;
    }
  return true;
}

std::vector<double> Point(const Json& coordinate) { return coordinate.get<std::vector<double>>(); }

// Our ExtrapData against Extra-P's reading of the same input: "" when equal.
std::string CompareData(const ExtrapData& data, const Json& expected, bool cube) {
  if (data.parameters != expected["parameters"].get<std::vector<std::string>>()) return "parameters differ";
  std::vector<std::vector<double>> ours = data.points, theirs;
  for (const Json& c : expected["coordinates"]) theirs.push_back(Point(c));
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  if (ours != theirs) return "points differ (" + std::to_string(ours.size()) + " vs " + std::to_string(theirs.size()) + ")";
  int compared = 0;
  for (const auto& [key, list] : expected["meas"].items()) {
    std::size_t bar = key.rfind('|');
    std::string callpath = key.substr(0, bar), metric = key.substr(bar + 1);
    // Of a cube set we read the metrics the record uses: time, visits, bytes_sent.
    if (cube && metric != "time" && metric != "visits" && metric != "bytes_sent") continue;
    int m = data.Find(callpath, metric);
    if (m < 0) return "no " + key;
    for (const Json& entry : list) {
      std::vector<double> point = Point(entry[0]);
      auto it = std::find(data.points.begin(), data.points.end(), point);
      std::string why;
      if (!SameValues(data.measurements[static_cast<std::size_t>(m)].values[static_cast<std::size_t>(it - data.points.begin())],
                      entry, cube, &why))
        return key + " at point " + entry[0].dump() + ": " + why;
    }
    ++compared;
  }
  return compared > 0 ? "" : "nothing compared";
}

// The series qnm-predict models: one parameter as P (the p-like one, else the
// first, as --parameter), the others fixed at the first point's values (as
// --where), the run time = the first call path x metric Extra-P lists.
std::string CompareSeries(const ExtrapData& data, const Json& expected, bool cube, const std::string& path) {
  std::vector<std::string> names = expected["parameters"];
  RunSelection selection;
  std::size_t chosen = names.size(), process_like = 0;
  for (std::size_t k = 0; k < names.size(); ++k)
    if (IsProcessCountName(names[k])) {
      ++process_like;
      if (chosen == names.size()) chosen = k;
    }
  if (chosen == names.size()) chosen = 0;
  if (process_like != 1) selection.parameter = names[chosen];  // --parameter: none or several named like P
  std::vector<double> first = Point(expected["coordinates"][0]);
  for (std::size_t k = 0; k < names.size(); ++k)
    if (k != chosen) selection.where.emplace_back(names[k], first[k]);
  std::string key = expected["meas"].begin().key();
  std::size_t bar = key.rfind('|');
  selection.callpath = key.substr(0, bar);
  selection.metric = key.substr(bar + 1);
  ExtrapExperiment experiment = SelectSeries(data, selection, path);
  const ExtrapMeasurement& runtime = RunTimeMeasurement(experiment, selection, path);
  if (runtime.callpath != selection.callpath || runtime.metric != selection.metric) return "other run-time measurement";
  std::size_t matched = 0;
  for (const Json& entry : expected["meas"][key]) {
    std::vector<double> point = Point(entry[0]);
    bool fixed = true;
    for (std::size_t k = 0; k < names.size(); ++k)
      if (k != chosen && point[k] != first[k]) fixed = false;
    if (!fixed) continue;
    auto it = std::find(experiment.points.begin(), experiment.points.end(), point[chosen]);
    if (it == experiment.points.end()) return "series lacks " + names[chosen] + "=" + std::to_string(point[chosen]);
    std::string why;
    if (!SameValues(runtime.values[static_cast<std::size_t>(it - experiment.points.begin())], entry, cube, &why))
      return "series at " + entry[0].dump() + ": " + why;
    ++matched;
  }
  if (matched != experiment.points.size()) return "series has points Extra-P's reading lacks";
  return matched > 0 ? "" : "empty series";
}

// What our refusal must say for each reason Extra-P gives.
std::string ExpectedReason(const std::string& extrap_error) {
  const std::pair<const char*, const char*> reasons[] = {
      {"UnicodeDecodeError", "not text (bytes that are not UTF-8)"},
      {"does not match the number of coordinates", "points (Extra-P needs every call path at every point)|DATA lines for"},
      {"To many DATA lines", "more DATA lines than the"},
      {"number of coordinate units", "coordinates for"},
      {"This file has no parameters", "no parameters"},
      {"Encountered wrong field", "unknown field"},
      {"Parameters must be the same and in the same order", "folders name different parameters"},
  };
  for (const auto& [theirs, ours] : reasons)
    if (extrap_error.find(theirs) != std::string::npos) return ours;
  return "(unmapped Extra-P error: " + extrap_error + ")";
}

struct Tally {
  int single = 0, single_ok = 0, multi = 0, multi_ok = 0, refused = 0, refused_ok = 0;
  std::string Line(const char* what) const {
    return std::string(what) + ": " + std::to_string(single_ok + multi_ok + refused_ok) + "/" +
           std::to_string(single + multi + refused) + " as Extra-P (" + std::to_string(single_ok) + "/" +
           std::to_string(single) + " single-parameter, " + std::to_string(multi_ok) + "/" + std::to_string(multi) +
           " multi-parameter with --where, " + std::to_string(refused_ok) + "/" + std::to_string(refused) + " refused)";
  }
};

template <typename ReadFn>
void Check(const std::string& name, const Json& expected, bool cube, ReadFn read, Tally* tally) {
  INFO(name);
  const std::string path = kRoot + "/" + name;
  if (expected.contains("error")) {
    ++tally->refused;
    std::string extrap_error = expected["error"];
    // TALPas files: the reference ran Extra-P's text reader on them (its
    // error quotes the first line), so its refusal is the text reader's.
    std::string message;
    try {
      if (name.rfind("talpas/", 0) == 0) ParseExtrapTextData(ReadFile(path), path);
      else read(path);
    } catch (const InputError& error) {
      message = error.what();
    }
    // Each reason may be said in one of several ways ("a|b").
    std::string reasons = ExpectedReason(extrap_error) + "|";
    bool named = false;
    for (std::size_t start = 0, bar; (bar = reasons.find('|', start)) != std::string::npos; start = bar + 1)
      named = named || message.find(reasons.substr(start, bar - start)) != std::string::npos;
    INFO("Extra-P: " << extrap_error << "\nours: " << message);
    CHECK(named);
    CHECK(message.find('\n') == std::string::npos);
    if (named) ++tally->refused_ok;
    return;
  }
  const bool multi = expected["parameters"].size() > 1;
  ++(multi ? tally->multi : tally->single);
  std::string data_result, series_result;
  try {
    ExtrapData data = read(path);
    data_result = CompareData(data, expected, cube);
    series_result = CompareSeries(data, expected, cube, path);
  } catch (const InputError& error) {
    data_result = error.what();
  }
  CHECK(data_result == "");
  CHECK(series_result == "");
  if (data_result.empty() && series_result.empty()) ++(multi ? tally->multi_ok : tally->single_ok);
}

}  // namespace

TEST_CASE("extrap acceptance: every file reads or is refused as Extra-P 4.2 does", "[ingest][extrap][acceptance]") {
  Tally tally;
  for (const auto& [name, expected] : Reference()["files"].items())
    Check(name, expected, false, [](const std::string& path) { return ReadExtrapFileData(path, ReadFile(path)); }, &tally);
  WARN(tally.Line("Extra-P files"));
  CHECK(tally.single + tally.multi + tally.refused == 117);
  CHECK(tally.single_ok == tally.single);
  CHECK(tally.multi_ok == tally.multi);
  CHECK(tally.refused_ok == tally.refused);
}

TEST_CASE("extrap acceptance: every cube set reads or is refused as Extra-P 4.2 does", "[ingest][extrap][cube][acceptance]") {
  Tally tally;
  int profiles = 0;
  for (const auto& [name, expected] : Reference()["cube_sets"].items())
    Check(name, expected, true, [](const std::string& path) { return ReadCubeSetData(path); }, &tally);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kRoot + "/cubeset"))
    profiles += entry.path().extension() == ".cubex";
  WARN(tally.Line("cube sets") << "; " << profiles << " profiles");
  CHECK(tally.single + tally.multi + tally.refused == 8);
  CHECK(tally.single_ok == tally.single);
  CHECK(tally.multi_ok == tally.multi);
  CHECK(tally.refused_ok == tally.refused);
}

TEST_CASE("extrap: equal repetitions are kept, each value by its origin", "[ingest][extrap][duplicates]") {
  // Issue 18 item 1: "DATA 4.1 3.9 4.0 4.0 4.1" kept 3 of 5 values.
  std::string dir = std::filesystem::temp_directory_path() / "qnm-extrap-repetitions";
  std::filesystem::create_directories(dir);
  std::string file = dir + "/reps.txt";
  WriteFileAtomically(file, "PARAMETER p\nPOINTS 2 4\nREGION main\nMETRIC time\nDATA 4.1 3.9 4.0 4.0 4.1\nDATA 2.1 2.1\n");
  IngestSummary summary;
  std::vector<Series> series = GroupIntoSeries(IngestPaths({file}, IngestOptions{true, false}, &summary));
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].groups.size() == 2);
  CHECK(series[0].groups[0].runs.size() == 5);
  CHECK(series[0].groups[1].runs.size() == 2);
  CHECK(series[0].groups[0].median_time_s == Approx(4.0));
  CHECK(summary.duplicates.Total() == 0);
  // The same file named twice is one measurement read twice: counted once.
  series = GroupIntoSeries(IngestPaths({file, dir}, IngestOptions{true, false}, &summary));
  REQUIRE(series.size() == 1);
  CHECK(series[0].groups[0].runs.size() == 5);
  CHECK(summary.duplicates.copies == 7);
  std::filesystem::remove_all(dir);
}

TEST_CASE("extrap: --parameter, --metric, --callpath and --where choose the runs", "[ingest][extrap]") {
  // text/one_parameter_1.txt: parameter x, six repetitions per point, two of them equal at x=20.
  IngestOptions options{true, false};
  options.selection.parameter = "x";
  IngestSummary summary;
  std::vector<Series> series =
      GroupIntoSeries(IngestPaths({kRoot + "/text/one_parameter_1.txt"}, options, &summary));
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].groups.size() == 5);
  CHECK(series[0].groups[0].procs == 20);
  CHECK(series[0].groups[0].runs.size() == 6);
  CHECK(series[0].groups[0].median_time_s == Approx(81.99916510082973));
  // Without --parameter the refusal names the parameters and the option.
  CHECK_THROWS_WITH(IngestPaths({kRoot + "/text/one_parameter_1.txt"}, IngestOptions{true, false}, &summary),
                    Catch::Contains("no parameter is named like a process count (parameters: x); say which one is with --parameter NAME"));
  // Two parameters: p is the process count, n must be fixed.
  std::string two = kRoot + "/input/experiments_MP/experiment_MP.txt";
  CHECK_THROWS_WITH(IngestPaths({two}, IngestOptions{true, false}, &summary),
                    Catch::Contains("2 parameters (p, n): scaling in p needs the others fixed with --where n=VALUE"));
  options.selection = RunSelection();
  AddWhere("n=2000", &options.selection);
  options.selection.callpath = "met2";
  series = GroupIntoSeries(IngestPaths({two}, options, &summary));
  REQUIRE(series.size() == 1);
  CHECK(series[0].name.find("n=2000") != std::string::npos);
  CHECK(series[0].groups.size() == 5);
  CHECK(series[0].groups[0].runs[0].derivations.at("wall_time_s").find("call path met2") != std::string::npos);
  options.selection.where = {{"n", 7}};
  CHECK_THROWS_WITH(IngestPaths({two}, options, &summary), Catch::Contains("no point has n=7 (n takes"));
  options.selection = RunSelection();
  options.selection.parameter = "x";
  options.selection.metric = "flops";
  series = GroupIntoSeries(IngestPaths({kRoot + "/text/one_parameter_3.txt"}, options, &summary));
  REQUIRE(series.size() == 1);
  CHECK(series[0].groups[0].runs[0].derivations.at("wall_time_s") == "Extra-P: metric flops of call path compute");
  options.selection.metric = "bytes";
  CHECK_THROWS_WITH(IngestPaths({kRoot + "/text/one_parameter_3.txt"}, options, &summary),
                    Catch::Contains("--metric bytes: the experiment's metrics are time, flops"));
}

TEST_CASE("extrap: a cube set's folder parameter is the process count under --parameter", "[ingest][extrap][cube]") {
  IngestOptions options;  // not strict: the folders also hold scorep.cfg
  options.selection.parameter = "x";
  IngestSummary summary;
  std::vector<Series> series = GroupIntoSeries(IngestPaths({kRoot + "/cubeset/single_parameter"}, options, &summary));
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].groups.size() == 9);
  CHECK(series[0].groups[0].procs == 1);
  CHECK(series[0].groups[8].procs == 2000);
  // --where keeps the profiles of one z in a three-parameter set.
  AddWhere("y=1,z=1", &options.selection);
  series = GroupIntoSeries(IngestPaths({kRoot + "/cubeset/multi_parameter"}, options, &summary));
  REQUIRE(series.size() == 1);
  CHECK(series[0].groups.size() == 3);  // x = 1, 10, 25
}

TEST_CASE("cube set folder names parse as Extra-P parses them", "[ingest][cube]") {
  std::vector<std::pair<std::string, double>> p;
  REQUIRE(ParseCubeSetFolder("mm.x20,5.y20,5.z1,5.r1", &p));
  CHECK(p == std::vector<std::pair<std::string, double>>{{"x", 20.5}, {"y", 20.5}, {"z", 1.5}});
  REQUIRE(ParseCubeSetFolder("mm.x21.5,y21,5,z1.15.r1", &p));
  CHECK(p == std::vector<std::pair<std::string, double>>{{"x", 21.5}, {"y", 21.5}, {"z", 1.15}});
  REQUIRE(ParseCubeSetFolder("x10y1z1", &p));
  CHECK(p == std::vector<std::pair<std::string, double>>{{"x", 10}, {"y", 1}, {"z", 1}});
  REQUIRE(ParseCubeSetFolder("example.f3", &p));
  CHECK(p == std::vector<std::pair<std::string, double>>{{"f", 3}});
  CHECK_FALSE(ParseCubeSetFolder("mm.noparameters.r1", &p));
}

TEST_CASE("repetitions spreading beyond the series' noise are warned about", "[ingest][duplicates]") {
  // Issue 18 item 7: mpiP reports at 4/8/12/16 threads without their NPB
  // output landed as four "repetitions" at P=1 (43.8 .. 115 s).
  std::vector<RunStats> runs;
  auto add = [&](int procs, double seconds, const std::string& file) {
    RunStats run;
    run.app = "bt-mz";
    run.problem_class = "C";
    run.procs = procs;
    run.wall_time_s = seconds;
    run.sources = {file};
    runs.push_back(run);
  };
  add(1, 115.0, "bt-mz.C.1.a.mpiP");
  add(1, 62.1, "bt-mz.C.1.b.mpiP");
  add(1, 51.0, "bt-mz.C.1.c.mpiP");
  add(1, 43.8, "bt-mz.C.1.d.mpiP");
  add(2, 30.0, "x2a");
  add(2, 30.3, "x2b");
  std::vector<std::string> warnings = RepetitionSpreadWarnings(runs);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("4 repetitions at P=1 spread 43.8 .. 115 s") != std::string::npos);
  CHECK(warnings[0].find("the series' other points spread 1%") != std::string::npos);
  CHECK(warnings[0].find("files bt-mz.C.1.a.mpiP") != std::string::npos);
  // A property that differs is named.
  runs[0].details["mpip.Command"] = "bt-mz.C.1 (OMP 16)";
  warnings = RepetitionSpreadWarnings(runs);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("mpip.Command differs") != std::string::npos);
  // With the thread count known they are four series, and nothing is flagged.
  for (int k = 0; k < 4; ++k) runs[static_cast<std::size_t>(k)].threads_per_proc = 4 * (k + 1);
  CHECK(RepetitionSpreadWarnings(runs).empty());
  CHECK(GroupIntoSeries(runs).size() == 5);
}

TEST_CASE("extrap: TALPas files read with Extra-P's TALPas reader rules", "[ingest][extrap][acceptance]") {
  // The reference ran Extra-P's text reader on talpas/ (refused, checked
  // above); Extra-P's --talpas reader reads them, and so does ours when it
  // sees TALPas lines. talpas_7.txt holds what text/one_parameter_3.txt holds.
  for (int k = 1; k <= 9; ++k) {
    std::string path = kRoot + "/talpas/talpas_" + std::to_string(k) + ".txt";
    INFO(path);
    std::string text = ReadFile(path);
    ExtrapData data = ReadExtrapFileData(path, text);
    std::size_t values = 0, lines = 0;
    for (const ExtrapMeasurement& m : data.measurements)
      for (const std::vector<double>& at : m.values) values += at.size();
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)  // one value per non-blank line
      lines += line.find_first_not_of(" \t\r") != std::string::npos;
    CHECK(values == lines);
  }
  std::string seven = kRoot + "/talpas/talpas_7.txt";
  CHECK(CompareData(ReadExtrapFileData(seven, ReadFile(seven)), Reference()["files"]["text/one_parameter_3.txt"], false) == "");
  std::string negative = kRoot + "/talpas/talpas_10_neg.txt";
  CHECK_THROWS_WITH(ReadExtrapFileData(negative, ReadFile(negative)),
                    Catch::Contains("call path 'compute' metric 'flops' is measured at 3 of the 5 points"));
}

TEST_CASE("identical profiles side by side are repetitions, the same profile in two sets one run", "[ingest][cube][duplicates]") {
  // allowed_formats/mm.x1y1z1 holds profile1.cubex and profile2.cubex with
  // equal bytes: Extra-P reads two repetitions (extrap_reads.json), so do we.
  IngestSummary summary;
  std::vector<RunStats> runs = IngestPaths({kRoot + "/cubeset/allowed_formats/mm.x1y1z1"}, IngestOptions{}, &summary);
  CHECK(runs.size() == 2);
  CHECK(summary.duplicates.copies == 0);
  // single_parameter/ and multi_parameter/ both hold mm.x1y1z1.r1/profile.cubex, byte for byte.
  runs = IngestPaths({kRoot + "/cubeset/single_parameter/mm.x1y1z1.r1", kRoot + "/cubeset/multi_parameter/mm.x1y1z1.r1"},
                     IngestOptions{}, &summary);
  CHECK(runs.size() == 1);
  CHECK(summary.duplicates.copies == 1);
}
