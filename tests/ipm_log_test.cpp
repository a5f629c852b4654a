// IPM XML logs (profiles/ipm_log.h). Acceptance: IPM 2.0.6's own logs of a ring
// exchange at P = 1, 2, 4, 8 (tests/data/ipm, written by its
// generate-ipm-2.0.6.sh with IPM built from source) read as IPM's own parser,
// `ipm_parse -full`, reads them (its output beside each log): the job's wall
// clock and MPI time (total, mean, min, max over the ranks) and every MPI
// routine's time and calls.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <cmath>
#include <filesystem>

#include "ingest/ingest.h"
#include "profiles/ipm_log.h"
#include "tests/ingest_test_util.h"
#include "tests/temp_dir.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace fs = std::filesystem;

namespace {

const std::string kIpm = std::string(QNM_TEST_DATA_DIR) + "/ipm";

std::vector<qnm::RunStats> Read(const std::string& path, qnm::IngestSummary* summary = nullptr) {
  qnm::IngestOptions options;
  options.strict = summary == nullptr;
  return qnm::IngestPaths({path}, options, summary);
}

// ipm_parse -full, the job section (before the first region): "# wallclock  total avg min max",
// "# mpi ...", and "# MPI_<routine>  time calls %mpi %wall" rows.
struct IpmParseJob {
  std::map<std::string, std::vector<double>> rows;        // "wallclock", "mpi" -> total, avg, min, max
  std::map<std::string, std::pair<double, double>> calls;  // "Sendrecv" -> time, calls
};

IpmParseJob ReadIpmParse(const std::string& path) {
  IpmParseJob job;
  std::istringstream text(qnm::ReadFile(path));
  std::string line;
  while (std::getline(text, line)) {
    if (line.rfind("# region", 0) == 0) break;
    std::istringstream words(line);
    std::string hash, name;
    words >> hash >> name;
    std::vector<double> values;
    for (double value; words >> value;) values.push_back(value);
    if ((name == "wallclock" || name == "mpi") && values.size() == 4) job.rows[name] = values;
    if (name.rfind("MPI_", 0) == 0 && values.size() == 4) job.calls[name.substr(4)] = {values[0], values[1]};
  }
  return job;
}

}  // namespace

TEST_CASE("IPM's own logs read as IPM's ipm_parse reads them", "[ingest][ipm][acceptance]") {
  for (int procs : {1, 2, 4, 8}) {
    const std::string stem = kIpm + "/ring." + std::to_string(procs);
    CAPTURE(procs);
    const std::vector<qnm::RunStats> runs = Read(stem + ".ipm.xml");
    REQUIRE(runs.size() == 1);
    const qnm::RunStats& run = runs.front();
    const IpmParseJob peer = ReadIpmParse(stem + ".ipm_parse.txt");
    REQUIRE(peer.rows.count("wallclock"));
    REQUIRE(peer.rows.count("mpi"));
    REQUIRE(run.procs == procs);
    double wall = 0, mpi = 0;
    for (int r = 0; r < procs; ++r) wall += run.app_time_s_per_rank[r], mpi += run.mpi_time_s_per_rank[r];
    // ipm_parse prints 6 significant digits.
    CHECK(wall == Approx(peer.rows.at("wallclock")[0]).epsilon(1e-5));
    CHECK(run.app_time_mean_s == Approx(peer.rows.at("wallclock")[1]).epsilon(1e-5));
    CHECK(run.app_time_max_s == Approx(peer.rows.at("wallclock")[3]).epsilon(1e-5));
    CHECK(mpi == Approx(peer.rows.at("mpi")[0]).epsilon(1e-5));
    CHECK(run.mpi_time_mean_s == Approx(peer.rows.at("mpi")[1]).epsilon(1e-5));
    CHECK(run.mpi_time_max_s == Approx(peer.rows.at("mpi")[3]).epsilon(1e-5));
    REQUIRE(!peer.calls.empty());
    for (const auto& [routine, expected] : peer.calls) {
      const qnm::CallSiteStats* site = nullptr;
      for (const qnm::CallSiteStats& candidate : run.call_sites)
        if (candidate.mpi_function == routine) site = &candidate;
      REQUIRE(site != nullptr);
      CHECK(site->total_time_s == Approx(expected.first).epsilon(1e-5));
      CHECK(site->total_calls == expected.second);
    }
    // What the record adds: 200 Sendrecv of 65,536 doubles and 200 Allreduce of one double per rank.
    CHECK(run.p2p_calls_per_rank[0] == 200);
    CHECK(run.p2p_bytes_sent_per_rank[0] == 200.0 * 524288);
    CHECK(run.collective_calls_per_rank[0] == 200);
    CHECK(run.collective_bytes_sent_per_rank[0] == 200.0 * 8);
    CHECK(run.app == "ring");
    CHECK(run.tool_version == "IPM 2.0.6");
    CHECK(run.hosts.size() == static_cast<std::size_t>(procs));
    CHECK(run.nodes == 1);
  }
}

TEST_CASE("an IPM campaign folder: the four logs are one series; the summaries are named, not read",
          "[ingest][ipm]") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = Read(kIpm, &summary);
  REQUIRE(runs.size() == 4);
  for (const qnm::RunStats& run : runs) CHECK(run.app == runs.front().app);
  int banners = 0;
  for (const qnm::SkippedFile& file : summary.skipped)
    if (file.reason.find("IPM's banner of the run whose XML log " + kIpm + "/ring.") != std::string::npos &&
        file.reason.find("is beside it: the run is read from the log") != std::string::npos)
      ++banners;
  CHECK(banners == 8);  // the runs' stdout and ipm_parse's reports: both summaries of the logs
}

TEST_CASE("an IPM banner without its XML log is its run; ipm_parse's report of the log too",
          "[ingest][ipm]") {
  qnm::testing::TempDir dir("qnm", "ipm-banner");
  for (const char* name : {"ring.4.out", "ring.4.ipm_parse.txt"}) {
    INFO(name);
    const fs::path alone = dir.path / name;
    fs::create_directories(alone);
    fs::copy_file(kIpm + "/" + name, alone / name);
    const std::vector<qnm::RunStats> runs = Read(alone.string());
    REQUIRE(runs.size() == 1);
    const qnm::RunStats& run = runs.front();
    const qnm::RunStats log = Read(kIpm + "/ring.4.ipm.xml").front();
    CHECK(run.procs == 4);
    CHECK(run.nodes == 1);
    CHECK(run.app.str() == "ring");
    CHECK(run.tool_version == "IPM 2.0.6");
    // The banner prints two decimals (of the job's region, ipm_noregion), ipm_parse six digits.
    const double precision = std::string(name) == "ring.4.out" ? 0.01 : 1e-5;
    CHECK(std::abs(run.mpi_time_mean_s - log.mpi_time_mean_s) <= precision);
    CHECK(std::abs(run.mpi_time_max_s - log.mpi_time_max_s) <= precision);
    CHECK(std::abs(run.app_time_max_s - log.app_time_max_s) <= 0.01);
    if (std::string(name) == "ring.4.out") CHECK(run.mpi_calls_per_rank == Approx(404));  // its "#calls" row
    // Sends and collectives per rank, as the log counts them: 200 Sendrecv + 200 Allreduce.
    CHECK(run.messages_per_rank == Approx(log.messages_per_rank));
    CHECK(run.messages_per_rank == Approx(400));
    CHECK(std::isnan(run.bytes_per_message));
    std::map<std::string, std::pair<double, double>> sites;
    for (const qnm::CallSiteStats& site : run.call_sites) sites[site.mpi_function] = {site.total_time_s, site.total_calls};
    for (const qnm::CallSiteStats& site : log.call_sites)
      if (site.total_time_s > 0.005) {  // the banner's two decimals: the busy routines
        INFO(site.mpi_function);
        REQUIRE(sites.count(site.mpi_function));
        CHECK(std::abs(sites[site.mpi_function].first - site.total_time_s) <= precision);
        CHECK(sites[site.mpi_function].second == site.total_calls);
      }
  }
  // The banner and ipm_parse's report of one run side by side, without the log: one run, not two (its
  // command, host, tasks and start). The other runs' banners stay runs of their own.
  const fs::path both = dir.path / "both";
  fs::create_directories(both);
  for (const char* name : {"ring.4.out", "ring.4.ipm_parse.txt", "ring.8.out"}) fs::copy_file(kIpm + "/" + name, both / name);
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::testing::IngestPath(both.string(), &summary);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].procs + runs[1].procs == 12);
  CHECK(summary.duplicates.copies == 1);
  // A start in another time zone (ipm_parse run elsewhere, 5 h 30 min west) is still the same run.
  std::ifstream in(kIpm + "/ring.4.ipm_parse.txt");
  std::string report((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t at = report.find("11/29/26/05:55:20");
  REQUIRE(at != std::string::npos);
  report.replace(at, 17, "11/29/26/00:25:20");
  std::ofstream(both / "ring.4.ipm_parse.txt") << report;
  CHECK(qnm::testing::IngestPath(both.string()).size() == 2);
  report.replace(at, 17, "11/29/26/00:25:21");  // a second later: another run
  std::ofstream(both / "ring.4.ipm_parse.txt") << report;
  CHECK(qnm::testing::IngestPath(both.string()).size() == 3);

  // The XML logs in one folder, the jobs' banners and ipm_parse's reports in another (either read
  // first): 4 runs, each the log's record (every rank's times, bytes) with the two summaries folded in.
  for (const char* logs : {"a-logs", "z-logs"}) {
    INFO(logs);
    const fs::path campaign = dir.path / ("campaign-" + std::string(logs));
    fs::create_directories(campaign / logs);
    fs::create_directories(campaign / "m-stdout");
    for (const fs::directory_entry& entry : fs::directory_iterator(kIpm)) {
      const std::string name = entry.path().filename().string();
      if (name.find(".ipm.xml") != std::string::npos) fs::copy_file(entry.path(), campaign / logs / name);
      if (name.find(".out") != std::string::npos || name.find(".ipm_parse.txt") != std::string::npos)
        fs::copy_file(entry.path(), campaign / "m-stdout" / name);
    }
    qnm::IngestSummary counted;
    const std::vector<qnm::RunStats> kept = qnm::testing::IngestPath(campaign.string(), &counted);
    REQUIRE(kept.size() == 4);
    CHECK(counted.duplicates.copies == 8);
    for (const qnm::RunStats& run : kept) {
      CHECK(run.app_time_s_per_rank.size() == static_cast<std::size_t>(run.procs));
      CHECK(run.sources.size() == 3);
      CHECK(run.machine == "vm");  // the banner's host names the machine as the log's hosts do
    }
  }
}

TEST_CASE("damaged IPM banners: one line naming the file", "[ingest][ipm][errors]") {
  qnm::testing::TempDir dir("qnm", "ipm-banner-damage");
  const std::string good = qnm::ReadFile(kIpm + "/ring.4.out");
  const std::string path = (dir.path / "ring.4.out").string();
  auto error_of = [&](const std::string& text) {
    qnm::WriteFileAtomically(path, text);
    return qnm::testing::InputErrorOf([&] { Read(path); });
  };
  CHECK_THAT(error_of(good.substr(0, good.find("# MPI_Comm_rank"))), Catch::Contains(path) && Catch::Contains("cut short"));
  std::string tasks = good;
  tasks.replace(tasks.find("4 on 1 nodes"), 12, "4 on 9 nodes");
  CHECK_THAT(error_of(tasks), Catch::Contains(path) && Catch::Contains("mpi_tasks needs"));
  std::string slow = good;
  slow.replace(slow.find("0.37         0.39"), 17, "0.37         3.39");
  CHECK_THAT(error_of(slow), Catch::Contains(path) && Catch::Contains("do not fit together"));
  std::string twice = good;
  const std::size_t row = twice.find("# MPI_Sendrecv");
  twice.insert(row, twice.substr(row, twice.find('\n', row) + 1 - row));
  CHECK_THAT(error_of(twice), Catch::Contains(path + ":") && Catch::Contains("MPI_Sendrecv a second time"));
  std::string word = good;
  word.replace(word.find("1616"), 4, "many");
  CHECK_THAT(error_of(word), Catch::Contains(path + ":") && Catch::Contains("'many' is no non-negative number"));
}

TEST_CASE("damaged IPM logs: one line naming the file and line", "[ingest][ipm][errors]") {
  const std::string good = qnm::ReadFile(kIpm + "/ring.2.ipm.xml");
  auto error_of = [](const std::string& text) {
    return qnm::testing::InputErrorOf([&] { qnm::ReadIpmXml(text, "x.ipm.xml"); });
  };
  // The second task cut off: rank 1 is missing (the XML is not closed either).
  CHECK(error_of(good.substr(0, good.find("mpi_rank=\"1\""))).find("x.ipm.xml") == 0);
  // A size the tasks do not hold is refused before anything of that size is made.
  std::string huge = good;
  for (std::size_t at = huge.find("mpi_size=\"2\""); at != std::string::npos; at = huge.find("mpi_size=\"2\"", at))
    huge.replace(at, 12, "mpi_size=\"16000000\"");
  CHECK(error_of(huge).find("the log holds 2 <task> of mpi_size 16000000") != std::string::npos);
  std::string twice = good;
  twice.replace(twice.find("mpi_rank=\"1\""), 12, "mpi_rank=\"0\"");
  CHECK(error_of(twice).find("rank 0 twice") != std::string::npos);
  std::string negative = good;
  negative.replace(negative.find("mtime=\"") + 7, 1, "-");
  CHECK(error_of(negative).find("no non-negative number") != std::string::npos);
  std::string over = good;
  const std::size_t mtime = over.find("mtime=\"") + 7;
  over.replace(mtime, over.find('"', mtime) - mtime, "9.9e+01");
  CHECK(error_of(over).find("MPI time mtime above the wall clock wtime") != std::string::npos);
  CHECK(error_of(over).find("x.ipm.xml:") == 0);  // with the line of the <perf> element
}
