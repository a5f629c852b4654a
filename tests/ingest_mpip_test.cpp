// mpiP reader on the 91 real reports copied from public repositories
// (tests/data/mpip/SOURCES.md): every report parses, per-rank call-site times
// add up to the report's own MPI time per rank, '*' rows equal the rank sums.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "profiles/mpip_report.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

namespace fs = std::filesystem;
const std::string kMpipDir = std::string(QNM_TEST_DATA_DIR) + "/mpip";

std::vector<std::string> ReportPaths() {
  std::vector<std::string> paths;
  for (const auto& entry : fs::directory_iterator(kMpipDir)) {
    std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && (qnm::EndsWith(name, ".mpiP") || qnm::EndsWith(name, ".mpip")))
      paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

qnm::MpipReport Load(const std::string& name) {
  std::string path = kMpipDir + "/" + name;
  return qnm::ParseMpipReport(qnm::ReadFile(path), path);
}

// %g with 3 significant digits: a printed value is within 0.5% of the truth.
constexpr double kPrinted3 = 0.005;
constexpr double kPrinted4 = 0.0005;

}  // namespace

TEST_CASE("every real mpiP report is read, with its version and task count", "[ingest][mpip]") {
  std::vector<std::string> paths = ReportPaths();
  REQUIRE(paths.size() == 91);
  std::map<std::string, int> versions;
  int tasks_total = 0;
  for (const std::string& path : paths) {
    INFO(path);
    qnm::MpipReport report = qnm::ParseMpipReport(qnm::ReadFile(path), path);
    CHECK(report.complete);
    CHECK(report.Tasks() >= 1);
    CHECK_FALSE(report.time_stats.empty());
    ++versions[report.version];
    tasks_total += report.Tasks();
  }
  // SOURCES.md: mpiP 2.5 (1), 3.3.0 (67), 3.4.1 (16), 3.5.0 (7).
  CHECK(versions["2.5"] == 1);
  CHECK(versions["3.3.0"] == 67);
  CHECK(versions["3.4.1"] == 16);
  CHECK(versions["3.5.0"] == 7);
  CHECK(tasks_total == 1716);  // MPI Time rows counted with awk over the 91 files
}

TEST_CASE("call-site times per rank add up to the MPI time per rank", "[ingest][mpip]") {
  int reports = 0, ranks_checked = 0, incomplete = 0;
  for (const std::string& path : ReportPaths()) {
    INFO(path);
    qnm::MpipReport report = qnm::ParseMpipReport(qnm::ReadFile(path), path);
    qnm::RunStats run = qnm::MpipToRunStats(report);
    ++reports;
    if (!run.per_rank_complete) {  // -t hid rank rows: per-rank sums are lower bounds
      ++incomplete;
      continue;
    }
    for (int rank = 0; rank < report.Tasks(); ++rank) {
      double sum_s = 0, rounding_s = 0;
      for (const qnm::CallSiteStats& site : run.call_sites) {
        sum_s += site.time_s_per_rank[rank];
        rounding_s += kPrinted3 * site.time_s_per_rank[rank];
      }
      double mpi_s = report.task_times[rank].mpi_time_s;
      INFO("rank " << rank << ": sites " << sum_s << " s, MPITime " << mpi_s << " s");
      CHECK(std::abs(sum_s - mpi_s) <= rounding_s + kPrinted3 * mpi_s + 1e-9);
      ++ranks_checked;
    }
  }
  CHECK(reports == 91);
  CHECK(incomplete == 0);  // no collected report used -t
  CHECK(ranks_checked == 1716);
}

TEST_CASE("'*' rows of every mpiP report equal the sums over ranks", "[ingest][mpip]") {
  for (const std::string& path : ReportPaths()) {
    INFO(path);
    qnm::MpipReport report = qnm::ParseMpipReport(qnm::ReadFile(path), path);
    double app_sum = 0, mpi_sum = 0;
    for (const qnm::MpipTaskTime& task : report.task_times) {
      app_sum += task.app_time_s;
      mpi_sum += task.mpi_time_s;
    }
    CHECK(std::abs(report.task_total.app_time_s - app_sum) <=
          kPrinted3 * (app_sum + report.task_total.app_time_s) + 1e-9);
    CHECK(std::abs(report.task_total.mpi_time_s - mpi_sum) <=
          kPrinted3 * (mpi_sum + report.task_total.mpi_time_s) + 1e-9);
    bool collective = report.report_generation == "Collective";
    // Per site: calls add up exactly, times within printed precision, Max/Min are extremes.
    std::map<int, std::vector<const qnm::MpipSiteRow*>> by_site;
    for (const qnm::MpipSiteRow& row : report.time_stats) by_site[row.site].push_back(&row);
    for (const auto& [site, rows] : by_site) {
      const qnm::MpipSiteRow* total = nullptr;
      double calls = 0, time_ms = 0, max_ms = 0, min_ms = INFINITY;
      for (const qnm::MpipSiteRow* row : rows) {
        if (row->rank < 0) {
          total = row;
          continue;
        }
        calls += row->count;
        time_ms += row->count * row->mean;
        max_ms = std::max(max_ms, row->max);
        min_ms = std::min(min_ms, row->min);
      }
      INFO("site " << site);
      REQUIRE(total != nullptr);
      CHECK(total->count == calls);
      CHECK(std::abs(total->count * total->mean - time_ms) <= kPrinted3 * (time_ms + total->count * total->mean));
      CHECK(total->max == max_ms);
      // Collective mode: ranks without the site contribute Min = 0 (docs/formats/mpip-format.md §9).
      CHECK((total->min == min_ms || (collective && total->min == 0)));
    }
    std::map<int, std::pair<double, double>> sent;  // site -> (sum of rank Sums, '*' Sum)
    for (const qnm::MpipSiteRow& row : report.sent_stats) {
      if (row.rank < 0) sent[row.site].second = row.sum;
      else sent[row.site].first += row.sum;
    }
    for (const auto& [site, sums] : sent) {
      INFO("sent, site " << site);
      CHECK(std::abs(sums.first - sums.second) <= kPrinted4 * (sums.first + sums.second) + 1e-9);
    }
  }
}

TEST_CASE("mpiP header, MPI time and call sites of an NPB-MZ report", "[ingest][mpip]") {
  qnm::MpipReport report = Load("tpatki-npbmz__bt-mz.C.4.4.30707.1.mpiP");
  CHECK(report.version == "3.3.0");
  CHECK(report.report_generation == "Collective");
  CHECK(report.env_var == "[null]");
  CHECK(report.collector_pid == 30707);
  CHECK(report.start_time == "2012 07 06 13:43:47");
  CHECK(report.hosts == std::vector<std::string>{"cab183", "cab194", "cab275", "cab459"});
  REQUIRE(report.Tasks() == 4);
  CHECK(report.task_times[1].app_time_s == 11);
  CHECK(report.task_times[1].mpi_time_s == Approx(0.154));
  CHECK(report.task_total.app_time_s == Approx(44.2));
  REQUIRE(report.call_sites.size() == 20);
  const qnm::MpipCallSite* site = report.FindSite(2);
  REQUIRE(site != nullptr);
  CHECK(site->frames[0].address == "0x4018d9");  // unresolved: address, no line
  CHECK(site->frames[0].line == 0);
  CHECK(site->frames[0].function == "MAIN__");
  CHECK(site->frames[0].mpi_call == "Bcast");
  REQUIRE(report.aggregate_time.rows.size() >= 1);
  CHECK(report.aggregate_time.columns.back() == "COV");
  CHECK(report.aggregate_time.rows[0].call == "Waitall");
  CHECK(report.aggregate_time.rows[0].values[1] == Approx(988));

  qnm::RunStats run = qnm::MpipToRunStats(report);
  CHECK(run.procs == 4);
  CHECK(run.allocation == "one-per-node");
  CHECK(run.app_time_max_s == 11);
  CHECK(run.mpi_time_mean_s == Approx((0.307 + 0.154 + 0.314 + 0.27) / 4));
  CHECK(run.derivations.count("p2p_bytes_sent_per_rank") == 1);
}

TEST_CASE("C++ call-site names with spaces and commas are cut at the header offsets", "[ingest][mpip]") {
  qnm::MpipReport report = Load("cenat__lulesh2.0.64.102451.1.mpiP");
  CHECK(report.version == "3.4.1");
  const qnm::MpipCallSite* site = report.FindSite(1);
  REQUIRE(site != nullptr);
  CHECK(site->frames[0].file == "lulesh-comm.cc");
  CHECK(site->frames[0].line == 1067);
  CHECK(site->frames[0].function == "CommSBN(Domain&, int, double& (Domain::**)(int))");
  CHECK(site->frames[0].mpi_call == "Wait");
  site = report.FindSite(2);
  REQUIRE(site != nullptr);
  CHECK(site->frames[0].function == "CommRecv(Domain&, int, int, int, int, int, bool, bool)");
  CHECK(site->frames[0].mpi_call == "Irecv");
}

TEST_CASE("mpiP 2.5 layout: unaligned call sites, stack depth 4, old section names", "[ingest][mpip]") {
  qnm::MpipReport report = Load("toolgear__irs.mpiP");
  CHECK(report.version == "2.5");
  CHECK(report.stack_depth == 4);
  CHECK(report.Tasks() == 8);
  CHECK(report.task_total.app_time_s == Approx(7970));
  const qnm::MpipCallSite* site = report.FindSite(1);
  REQUIRE(site != nullptr);
  REQUIRE(site->frames.size() == 4);
  CHECK(site->frames[0].file == "irs_src/FunctionTimer_mpi_wrappers.c");
  CHECK(site->frames[0].line == 435);
  CHECK(site->frames[0].function == ".MPI_Reduce_Wrapper");
  CHECK(site->frames[0].mpi_call == "Reduce");
  CHECK(site->frames[1].function == ".comreduce");
  CHECK(site->frames[1].mpi_call.empty());
  CHECK(report.aggregate_sent.columns.back() == "MPI%");
  CHECK_FALSE(report.time_stats.empty());
  CHECK_FALSE(report.sent_stats.empty());
}

TEST_CASE("mpiP 3.5 Count column, I/O sections and empty histograms", "[ingest][mpip]") {
  qnm::MpipReport report = Load("bitonic__8_8_profile.mpiP");
  CHECK(report.version == "3.5.0");
  REQUIRE(report.aggregate_time.columns.size() == 7);
  CHECK(report.aggregate_time.columns[5] == "Count");
  CHECK(report.aggregate_time.rows[0].call == "Barrier");
  CHECK(report.aggregate_time.rows[0].values[0] == 13);       // Site
  CHECK(report.aggregate_time.rows[0].values[1] == 12700);    // Time (ms), printed 1.27e+04
  CHECK(report.collective_histogram.rows.empty());            // "No collective operations to report"
  REQUIRE(report.aggregate_io.rows.size() == 2);
  CHECK(report.aggregate_io.rows[0].call == "File_read_at");
  CHECK(report.aggregate_io.rows[0].values[2] == Approx(9.4e8));
  CHECK(report.io_stats.size() >= 8);
  CHECK(report.io_stats[0].sum == Approx(1.342e8));
}

TEST_CASE("collective histogram rows with communicator and data-size bins", "[ingest][mpip]") {
  qnm::MpipReport report = Load("etls__su3_rmd.128.9161.1.mpiP");
  REQUIRE(report.collective_histogram.rows.size() >= 3);
  const qnm::MpipTableRow& row = report.collective_histogram.rows[0];
  CHECK(row.call == "Allreduce");
  CHECK(row.values == std::vector<double>{13.8, 128, 255, 32, 63});
  CHECK(report.env_var == "-o -r -y");
}

TEST_CASE("per-rank call-site IDs (unresolved addresses) are detected", "[ingest][mpip]") {
  qnm::RunStats run = qnm::MpipToRunStats(Load("armhack21__clover_leaf.64.5895.1.mpiP"));
  CHECK(run.call_sites.size() == 832);
  CHECK(run.derivations.count("call_sites") == 1);
  CHECK(run.procs == 64);
}

TEST_CASE("the communication matrix of the modified CeNAT mpiP is read", "[ingest][mpip]") {
  qnm::MpipReport report = Load("cenat__CoMD-mpi.64.241516.1.mpiP");
  CHECK(report.communication_matrix.size() == 64 * 64);
  CHECK(report.communication_matrix[0].bytes == 252);
  CHECK(report.communication_matrix[0].messages == 63);
  qnm::RunStats run = qnm::MpipToRunStats(report);
  REQUIRE(run.comm_matrix_bytes.size() == 64 * 64);
  CHECK(run.comm_matrix_bytes[1] == 4);
}

TEST_CASE("garbage bytes in the mpiP command line are kept, not fatal", "[ingest][mpip]") {
  qnm::MpipReport report = Load("pbdprof__quantile.spmd.mpip");
  CHECK(report.command.find("--file=quantile.spmd.r") != std::string::npos);
  CHECK(report.Tasks() == 3);
}

TEST_CASE("bytes: p2p sends and collectives per rank as mpiP counts them", "[ingest][mpip]") {
  // NPB FT class C: Alltoall counts one block of 5.24e+05 B per call (docs/formats/mpip-format.md §7).
  qnm::RunStats run = qnm::MpipToRunStats(Load("cenat__ft.C.64.64.107084.1.mpiP"));
  REQUIRE(run.collective_bytes_sent_per_rank.size() == 64);
  double alltoall_bytes = 0, alltoall_calls = 0;
  for (const qnm::CallSiteStats& site : run.call_sites)
    if (site.mpi_function == "Alltoall") {
      alltoall_bytes += site.total_bytes_sent;
      alltoall_calls += site.total_calls;
    }
  CHECK(alltoall_bytes / alltoall_calls == Approx(524288).epsilon(0.001));
  CHECK(run.derivations.at("collective_bytes_sent_per_rank").find("Alltoall") != std::string::npos);
  CHECK(run.bytes_sent_per_rank > 0);
}

TEST_CASE("truncated and malformed mpiP reports fail with file:line", "[ingest][mpip]") {
  std::string text = qnm::ReadFile(kMpipDir + "/tpatki-npbmz__bt-mz.C.4.4.30707.1.mpiP");
  std::string truncated = text.substr(0, text.find("@--- Callsite Message Sent"));
  try {
    qnm::ParseMpipReport(truncated, "t.mpiP");
    FAIL("truncated report accepted");
  } catch (const qnm::InputError& error) {
    CHECK(std::string(error.what()).find("t.mpiP:") == 0);
    CHECK(std::string(error.what()).find("End of Report") != std::string::npos);
  }
  std::string bad = text;
  std::size_t row = bad.find("   1         11      0.154");
  REQUIRE(row != std::string::npos);
  bad.replace(row, 26, "   1         11      zero!");
  try {
    qnm::ParseMpipReport(bad, "b.mpiP");
    FAIL("malformed row accepted");
  } catch (const qnm::InputError& error) {
    CHECK(error.line() == 23);
    CHECK(error.message().find("MPITime") != std::string::npos);
  }
  CHECK_THROWS_AS(qnm::ParseMpipReport("", "e.mpiP"), qnm::InputError);
}

TEST_CASE("a -t threshold that hid rank rows marks per-rank data incomplete", "[ingest][mpip]") {
  // No collected report used -t; hide the rank rows of site 7 (Isend) as -t 10 would.
  std::string text = qnm::ReadFile(kMpipDir + "/tpatki-npbmz__bt-mz.C.4.4.30707.1.mpiP");
  std::string filtered;
  int hidden = 0;
  for (std::string_view line : qnm::SplitLines(text)) {
    auto tokens = qnm::SplitWhitespace(line);
    bool rank_row_of_7 = tokens.size() == 9 && tokens[0] == "Isend" && tokens[1] == "7" && tokens[2] != "*";
    if (rank_row_of_7) {
      ++hidden;
      continue;
    }
    if (qnm::StartsWith(line, "@ MPIP env var")) line = "@ MPIP env var             : -t 10.0";
    filtered += std::string(line) + "\n";
  }
  REQUIRE(hidden == 3);  // ranks 0, 2, 3 (rank 1 never calls this site)
  qnm::MpipReport report = qnm::ParseMpipReport(filtered, "t10.mpiP");
  CHECK(report.threshold_percent == 10.0);
  qnm::RunStats run = qnm::MpipToRunStats(report);
  CHECK_FALSE(run.per_rank_complete);
  CHECK(run.derivations.at("per_rank_complete").find("-t 10") != std::string::npos);
  int incomplete = 0;
  for (const qnm::CallSiteStats& site : run.call_sites) {
    if (site.ranks_complete) continue;
    ++incomplete;
    CHECK(site.id == 7);
    CHECK(site.total_calls > 0);  // the '*' row is still there
    for (double calls : site.calls_per_rank) CHECK(calls == 0);
  }
  CHECK(incomplete == 1);
}

TEST_CASE("concise mpiP report (-c): task time statistics instead of per-rank rows", "[ingest][mpip]") {
  // Layout from mpiP report.c (docs/formats/mpip-format.md §12; numbers from mpiP issue #35). No
  // collected report is concise, so this one is assembled from that excerpt.
  std::string text =
      "@ mpiP\n@ Command : ./a.out \n@ Version                  : 3.4.1\n"
      "@ MPIP env var             : -c\n@ Collector Rank           : 0\n"
      "@ Collector PID            : 4242\n@ Final Output Dir         : .\n"
      "@ Report generation        : Single collector task\n\n"
      "---------------------------------------------------------------------------\n"
      "@--- Task Time Statistics (seconds) ---------------------------------------\n"
      "---------------------------------------------------------------------------\n"
      "                         AppTime           MPITime   MPI%   App Task   MPI Task\n"
      "Max               352.552782        154.702501             54570      54590\n"
      "Mean              343.028495        106.324400\n"
      "Min               328.395109         69.468349             19383      35925\n"
      "Stddev              4.150850         11.282483\n"
      "Aggregate    19670625.993357    6097066.388160  31.00\n"
      "---------------------------------------------------------------------------\n"
      "@--- End of Report --------------------------------------------------------\n"
      "---------------------------------------------------------------------------\n";
  qnm::MpipReport report = qnm::ParseMpipReport(text, "a.out.57344.4242.1.mpiP");
  CHECK(report.concise);
  CHECK(report.Tasks() == 0);
  qnm::RunStats run = qnm::MpipToRunStats(report);
  CHECK(run.app_time_mean_s == Approx(343.028495));
  CHECK(run.app_time_max_s == Approx(352.552782));
  CHECK(run.mpi_time_mean_s == Approx(106.3244));
  CHECK(run.compute_time_mean_s == Approx(343.028495 - 106.3244));
}

TEST_CASE("nodes and ranks per node from mpiP's task assignment", "[ingest][mpip][nodes]") {
  // One process per node (cab, 4 distinct hosts for 4 ranks).
  qnm::RunStats run = qnm::MpipToRunStats(Load("tpatki-npbmz__bt-mz.C.4.4.30707.1.mpiP"));
  CHECK(run.allocation == "one-per-node");
  CHECK(run.nodes == 4);
  CHECK(run.ranks_per_node == 1);
  // Unknown hosts leave both unknown.
  qnm::MpipReport report = Load("tpatki-npbmz__bt-mz.C.4.4.30707.1.mpiP");
  report.hosts[2].clear();
  qnm::RunStats partial = qnm::MpipToRunStats(report);
  CHECK(partial.nodes == 0);
  CHECK(partial.ranks_per_node == 0);
}
