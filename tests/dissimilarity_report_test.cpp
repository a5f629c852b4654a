// Table, JSON and CSV rendering of Calzarossa et al. 2004 dissimilarity results.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "imbalance/dissimilarity.h"
#include "imbalance/dissimilarity_report.h"

namespace {

/// 2 activities x 3 regions x 4 ranks with one planted imbalance; one
/// region ("idle") has no time at all.
qnm::DissimilarityResult Small() {
  qnm::ActivityRegionTimes times;
  times.activities = {"computation", "collective"};
  times.regions = {"solve, step \"a\"", "exchange", "idle"};
  times.Resize(2, 3, 4);
  for (int p = 0; p < 4; ++p) {
    times.At(0, 0, p) = 10.0;
    times.At(1, 1, p) = p == 3 ? 4.0 : 1.0;
  }
  return qnm::ComputeDissimilarity(times, {});
}

}  // namespace

TEST_CASE("JSON output carries every index, NaN as null", "[dissimilarity][report]") {
  qnm::DissimilarityResult result = Small();
  nlohmann::json json = qnm::DissimilarityToJson(result);
  CHECK(json["ranks"] == 4);
  CHECK(json["dispersion_index"] == "euclidean");
  CHECK(json["dominant"]["activity"] == "computation");
  CHECK(json["most_imbalanced"]["activity"] == "collective");
  REQUIRE(json["regions"].size() == 3);
  // Ranked first: exchange (t~ = 4/7 vs 1/7), then the balanced region, then idle.
  CHECK(json["regions"][0]["name"] == "exchange");
  const double id = std::sqrt(3 * (1.0 / 7 - 0.25) * (1.0 / 7 - 0.25) + (4.0 / 7 - 0.25) * (4.0 / 7 - 0.25));
  CHECK(json["regions"][0]["ID_C"].get<double>() == Approx(id));
  CHECK(json["regions"][0]["SID_C"].get<double>() == Approx(7.0 / 47 * id));
  CHECK(json["regions"][0]["time_s_per_rank"].get<double>() == Approx(7.0 / 4));
  CHECK(json["regions"][2]["name"] == "idle");
  CHECK(json["regions"][2]["ID_C"].is_null());
  CHECK(json["cells"][0]["heaviest_rank"] == 3);
  CHECK(json["cells"][0]["heaviest_share"].get<double>() == Approx(4.0 / 7));
  CHECK(json["activities"][0]["most_imbalanced_region"] == "exchange");

  std::vector<qnm::DissimilarityReportEntry> entries = {{"run-a", &result, {"input note"}}};
  nlohmann::json runs = nlohmann::json::parse(qnm::RenderDissimilarity(entries, qnm::DissimilarityFormat::kJson, 0));
  REQUIRE(runs.is_array());
  CHECK(runs[0]["run"] == "run-a");
  CHECK(runs[0]["input_notes"][0] == "input note");
}

TEST_CASE("CSV output has one quoted row per activity, region and cell", "[dissimilarity][report]") {
  qnm::DissimilarityResult result = Small();
  std::vector<qnm::DissimilarityReportEntry> entries = {{"run,a", &result, {}}, {"run-b", &result, {}}};
  std::string csv = qnm::RenderDissimilarity(entries, qnm::DissimilarityFormat::kCsv, 0);
  std::istringstream lines(csv);
  std::string line;
  std::vector<std::string> rows;
  while (std::getline(lines, line)) rows.push_back(line);
  // Header + 2 runs x (2 activities + 3 regions + 2 cells).
  REQUIRE(rows.size() == 1 + 2 * 7);
  CHECK(rows[0].rfind("run,kind,rank,activity,region,time_s", 0) == 0);
  CHECK(rows[1].rfind("\"run,a\",activity,1,collective,,7,1.75,", 0) == 0);
  CHECK(rows[4].find(",\"solve, step \"\"a\"\"\",") != std::string::npos);  // RFC 4180 quoting
  CHECK(rows[5].find(",idle,0,0,0,,,0,,") != std::string::npos);         // no index: empty fields
  CHECK(rows[6].find("cell,1,collective,exchange,") != std::string::npos);
  CHECK(rows[6].substr(rows[6].size() - 14) == ",3,0.571428571");
}

TEST_CASE("Table output reads top-down and honours the row limit", "[dissimilarity][report]") {
  qnm::DissimilarityResult result = Small();
  std::vector<qnm::DissimilarityReportEntry> entries = {{"run-a", &result, {"computation from AppTime"}}};
  std::string all = qnm::RenderDissimilarity(entries, qnm::DissimilarityFormat::kTable, 0);
  INFO(all);
  CHECK(all.rfind("== run-a ==\n4 ranks, 2 activities x 3 regions (2 performed)", 0) == 0);
  CHECK(all.find("Activities (ranked by SID_A, index of dispersion euclidean)") != std::string::npos);
  CHECK(all.find("collective @ exchange: ID 0.3712, 1.75 s/rank, heaviest rank 3 with 57.1% (balanced 25.0%)") !=
        std::string::npos);
  CHECK(all.find("<- candidate") != std::string::npos);
  CHECK(all.find("Input: computation from AppTime") != std::string::npos);
  std::string top1 = qnm::DissimilarityTable(result, 1);
  CHECK(top1.find("  2   ") == std::string::npos);
  qnm::DissimilarityFormat format;
  CHECK(qnm::ParseDissimilarityFormat("csv", &format));
  CHECK(format == qnm::DissimilarityFormat::kCsv);
  CHECK_FALSE(qnm::ParseDissimilarityFormat("xml", &format));
}
