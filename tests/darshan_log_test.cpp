// Darshan logs (profiles/darshan_log.h) on the logs of Darshan's own repository (tests/data/darshan/SOURCES.md):
// each log's job record as `darshan-parser` 3.5 prints it (processes, run time, command line, job id, log
// version), the same job read from darshan-parser's text, logs built here in the layouts darshan-util reads that
// the repository has no log of (format 3.41 with nanoseconds, the other byte order, no compression), and the
// refusals.
#include "profiles/darshan_log.h"

#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/darshan";

// A job record as a test writes it into a log of its own.
struct JobFields {
  std::int64_t uid = 1001, start_s = 1700000000, start_ns = 250000000, end_s = 1700000012, end_ns = 750000000;
  std::int64_t nprocs = 64, jobid = 4242;
  std::string metadata = "lib_ver=3.4.4\nh=romio_no_indep_rw=true;cb_nodes=4\n";
  std::string exe = "/home/user/bin/lulesh2.0 -s 48 -i 100";
};

void Put(std::string* out, std::size_t at, std::uint64_t value, std::size_t bytes, bool big_endian) {
  for (std::size_t b = 0; b < bytes; ++b)
    (*out)[at + (big_endian ? bytes - 1 - b : b)] = static_cast<char>((value >> (8 * b)) & 0xff);
}

// A log in the layout of darshan-log-format.h: format 3.41 (64 modules, nanoseconds) or 3.21 (16 modules, whole
// seconds), zlib-compressed (0) or not (2), in either byte order; its job region is the header's only region.
std::string BuildLog(const JobFields& job, const std::string& version, int compression, bool big_endian) {
  const bool v341 = version == "3.41";
  const std::size_t header_bytes = v341 ? 1328 : 360;
  std::string header(header_bytes, '\0');
  std::memcpy(header.data(), version.data(), version.size());
  Put(&header, 8, 6567223, 8, big_endian);
  header[16] = static_cast<char>(compression);
  std::string record(4096, '\0');
  std::size_t at = 0;
  auto field = [&](std::int64_t value) {
    Put(&record, at, static_cast<std::uint64_t>(value), 8, big_endian);
    at += 8;
  };
  field(job.uid);
  field(job.start_s);
  if (v341) field(job.start_ns);
  field(job.end_s);
  if (v341) field(job.end_ns);
  field(job.nprocs);
  field(job.jobid);
  std::memcpy(record.data() + at, job.metadata.data(), job.metadata.size());
  at += 1024;
  const std::string trailing = job.exe + "\n/scratch lustre\n";  // cut at the record's end, as Darshan cuts it
  std::memcpy(record.data() + at, trailing.data(), std::min(trailing.size(), record.size() - at));
  std::string region = record;
  if (compression == 0) {
    uLongf size = compressBound(record.size());
    region.assign(size, '\0');
    REQUIRE(compress(reinterpret_cast<Bytef*>(region.data()), &size, reinterpret_cast<const Bytef*>(record.data()),
                     record.size()) == Z_OK);
    region.resize(size);
  }
  // The name records' region follows the job's: its offset bounds the job region.
  Put(&header, v341 ? 32 : 24, header_bytes + region.size(), 8, big_endian);
  return header + region + std::string(64, '\x5a');
}

std::string Refusal(const std::string& bytes, const std::string& path = "a.darshan") {
  try {
    qnm::DarshanJobToRunStats(qnm::ReadDarshanLogJob(bytes, path), path);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

std::string TextRefusal(const std::string& text, const std::string& path = "parser.txt") {
  try {
    qnm::DarshanJobToRunStats(qnm::ReadDarshanParserJob(text, path), path);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("Darshan logs: a log of format 3.41 built here reads as darshan-parser prints it, in both byte orders",
          "[darshan]") {
  const JobFields fields;
  for (const bool big_endian : {false, true}) {
    for (const int compression : {0, 2}) {
      INFO("big endian " << big_endian << ", compression " << compression);
      const std::string log = BuildLog(fields, "3.41", compression, big_endian);
      REQUIRE(qnm::LooksLikeDarshanLog(log));
      const qnm::DarshanJob job = qnm::ReadDarshanLogJob(log, "lulesh.darshan");
      CHECK(job.log_version == "3.41");
      CHECK(job.compression == (compression == 0 ? "ZLIB" : "NONE"));
      CHECK(job.nprocs == 64);
      CHECK(job.jobid == 4242);
      CHECK(job.uid == 1001);
      // darshan_log_get_job_runtime: (end + end_ns / 1e9) - (start + start_ns / 1e9).
      CHECK(job.run_time_s == Approx(12.5).epsilon(1e-12));
      CHECK_FALSE(job.whole_seconds);
      CHECK(job.exe == "/home/user/bin/lulesh2.0 -s 48 -i 100");
      REQUIRE(job.metadata.size() == 2);
      CHECK(job.metadata[1].first == "h");
      CHECK(job.metadata[1].second == "romio_no_indep_rw=true;cb_nodes=4");  // split at the first '='
      const qnm::RunStats run = qnm::DarshanJobToRunStats(job, "lulesh.darshan");
      CHECK(run.app.str() == "lulesh2.0");
      CHECK(run.procs == 64);
      CHECK(run.wall_time_s == Approx(12.5));
      CHECK(run.details.at("command.arguments") == "-s 48 -i 100");
      CHECK(run.details.at("command.program_folder") == "user/bin");
      CHECK(run.details.at("darshan.lib_ver") == "3.4.4");
      CHECK(run.tool_version.str() == "Darshan 3.4.4");
    }
  }
  // Before 3.41: whole seconds, and darshan-util's + 1.
  const qnm::DarshanJob old = qnm::ReadDarshanLogJob(BuildLog(fields, "3.21", 0, false), "old.darshan");
  CHECK(old.run_time_s == 13.0);
  CHECK(old.whole_seconds);
  CHECK(old.nprocs == 64);
}

TEST_CASE("Darshan logs: refusals name the file and why", "[darshan]") {
  const JobFields fields;
  const std::string log = BuildLog(fields, "3.41", 0, false);
  CHECK(Refusal(log.substr(0, 600)) == "a.darshan: Darshan log cut short in its header (600 of 1328 bytes)");
  CHECK_THAT(Refusal(log.substr(0, 1400)), Catch::Contains("the Darshan job region is cut short or corrupt"));
  std::string flipped = log;
  flipped[1340] = static_cast<char>(flipped[1340] ^ 0x55);
  CHECK_THAT(Refusal(flipped), Catch::Contains("a.darshan: the Darshan job region"));
  std::string magic = log;
  magic[9] = 'x';
  CHECK(Refusal(magic) == "a.darshan: bad magic number in the Darshan log header");
  CHECK(Refusal(BuildLog(fields, "3.30", 0, false)) ==
        "a.darshan: Darshan log format version 3.30 is not read (darshan-util 3.4 reads 3.00, 3.10, 3.20, 3.21 and "
        "3.41)");
  std::string compression = log;
  compression[16] = 7;
  CHECK(Refusal(compression) == "a.darshan: Darshan log of unknown compression 7");
  JobFields none = fields;
  none.nprocs = 0;
  CHECK(Refusal(BuildLog(none, "3.41", 0, false)) == "a.darshan: Darshan job record with 0 processes");
  JobFields backwards = fields;
  backwards.end_s = backwards.start_s - 5;
  CHECK_THAT(Refusal(BuildLog(backwards, "3.41", 2, false)), Catch::Contains("ends before it starts"));
  // Times a damaged log holds at the ends of 64 bits: their difference in doubles (no integer overflow, which the
  // fuzzer found), then refused by ingest's plausible range (a run lasts at most 1e7 s).
  JobFields far = fields;
  far.start_s = -2932827064656833994LL;
  far.end_s = 8873427982220969406LL;
  const qnm::DarshanJob far_job = qnm::ReadDarshanLogJob(BuildLog(far, "3.21", 0, false), "far.darshan");
  CHECK(far_job.run_time_s == Approx(1.1806254e19).epsilon(1e-6));
  JobFields nameless = fields;
  nameless.exe = "";
  CHECK(Refusal(BuildLog(nameless, "3.41", 0, false), "logs/.darshan") ==
        "logs/.darshan: Darshan job record without a command line (exe)");
  // darshan-convert's 3.41 rewrite of a 3.21 log whose run began and ended in one second: darshan-parser prints
  // "run time: 0.0000" (3.41 adds no second); no run lasts no time.
  CHECK(Refusal(qnm::ReadFile(kFolder + "/refused/ior_hdf5_example-format341.darshan")) ==
        "a.darshan: Darshan job record without a run time (0 s)");
  // Darshan 2's logs (the whole file gzip-compressed, format 2.06) need a Darshan 2 install.
  const std::string old = kFolder +
                          "/refused/pcarns_mpi-io-test-x86_64-2.3.1_id13154_3-13-47125-7023224190677163982_1"
                          ".darshan.gz";
  try {
    qnm::IngestOptions options;
    options.strict = true;
    qnm::IngestSummary summary;
    qnm::IngestPaths({old}, options, &summary);
    FAIL("a Darshan 2 log was read");
  } catch (const qnm::InputError& error) {
    CHECK_THAT(std::string(error.what()), Catch::Contains("Darshan log format version 2.06 is not read"));
  }
  CHECK(TextRefusal("# darshan log version: 3.41\n# exe: a.out\n# run time: 1.5\n") ==
        "parser.txt:1: darshan-parser's job summary without its '# nprocs:' line");
  CHECK(TextRefusal("# darshan log version: 3.41\n# exe: a.out\n# nprocs: 0\n# run time: 1.5\n") ==
        "parser.txt:3: darshan-parser 'nprocs' needs a whole number from 1 to 16777216, got '0'");
  CHECK(TextRefusal("# darshan log version: 3.41\n# exe: a.out\n# nprocs: 4\n# run time: 0.0000\n") ==
        "parser.txt:4: Darshan job record without a run time (0 s)");
}

TEST_CASE("Darshan logs: the repository's logs read as darshan-parser 3.5 prints them", "[darshan]") {
  struct Expected {
    const char* file;
    const char* version;
    const char* app;
    long long jobid, nprocs;
    double run_time_s;
    const char* lib_ver;
  };
  // darshan-parser's "# darshan log version", the exe's first word, "# jobid", "# nprocs", "# run time" and
  // "# metadata: lib_ver" of each (tests/data/darshan/SOURCES.md); PyDarshan's test_job_stats.py expects 2048
  // processes and 780.0 s of sample-badost.
  const std::vector<Expected> logs = {
      {"sample-badost.darshan", "3.10", "ior", 6265799, 2048, 780.0, "3.1.3"},
      {"sample-goodost.darshan", "3.10", "ior", 6909118, 48, 5.0, "3.1.3"},
      {"noposixopens.darshan", "3.10", "1116507695", 2568372269LL, 32, 1111.0, "3.1.4"},
      {"ior_hdf5_example.darshan", "3.21", "ior", 32324925, 4, 1.0, "3.2.1"},
      {"sample-dxt-simple.darshan", "3.21", "a.out", 4233209, 16, 1.0, "3.2.1"},
      {"shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158.darshan", "3.21", "macsio", 29959, 16, 4.0,
       "3.2.1"},
      {"sample-goodost-bzip2-format341.darshan", "3.41", "ior", 6909118, 48, 4.0, "3.1.3"},
      {"pq_app_readAB_writeC_id71326_7-31-5658-2037904274838284930_55623.darshan", "3.21", "app_readAB_writeC", 71326,
       4, 1.0, "3.2.1"},
  };
  for (const Expected& expected : logs) {
    INFO(expected.file);
    const std::string path = kFolder + "/" + expected.file;
    const std::string bytes = qnm::ReadFile(path);
    REQUIRE(qnm::LooksLikeDarshanLog(bytes));
    const qnm::DarshanJob job = qnm::ReadDarshanLogJob(bytes, path);
    CHECK(job.log_version == expected.version);
    CHECK(job.compression == (job.log_version == "3.41" ? "BZIP2" : "ZLIB"));
    CHECK(job.jobid == expected.jobid);
    CHECK(job.nprocs == expected.nprocs);
    CHECK(job.run_time_s == expected.run_time_s);
    CHECK(job.whole_seconds == (job.log_version != "3.41"));
    CHECK_FALSE(job.partial);
    const qnm::RunStats run = qnm::DarshanJobToRunStats(job, path);
    CHECK(run.app.str() == expected.app);
    CHECK(run.procs == expected.nprocs);
    CHECK(run.wall_time_s == expected.run_time_s);
    CHECK(run.details.at("darshan.lib_ver") == expected.lib_ver);
    CHECK(run.details.at("jobid") == std::to_string(expected.jobid));
  }
  // The command line's arguments are the run's settings (two inputs, two series); its folder too.
  const qnm::RunStats goodost = qnm::DarshanJobToRunStats(
      qnm::ReadDarshanLogJob(qnm::ReadFile(kFolder + "/sample-goodost.darshan"), "sample-goodost.darshan"),
      "g.darshan");
  CHECK(goodost.details.at("command.arguments") == "-t 8m -b 256m -s 4 -F -C -e -a POSIX -w -k");
  CHECK(goodost.details.at("command.program_folder") == "ior-lanl/src");
}

TEST_CASE("Darshan logs: darshan-parser's printed job summary reads as the log it was printed from", "[darshan]") {
  for (const char* name : {"sample-badost", "ior_hdf5_example", "sample-dxt-simple"}) {
    INFO(name);
    const std::string text_path = kFolder + "/parser/" + name + ".txt";
    const std::string text = qnm::ReadFile(text_path);
    REQUIRE(qnm::LooksLikeDarshanParserOutput(text));
    REQUIRE_FALSE(qnm::LooksLikeDarshanLog(text));
    const qnm::DarshanJob printed = qnm::ReadDarshanParserJob(text, text_path);
    const qnm::DarshanJob logged =
        qnm::ReadDarshanLogJob(qnm::ReadFile(kFolder + "/" + name + ".darshan"), "log.darshan");
    CHECK(printed.log_version == logged.log_version);
    CHECK(printed.exe == logged.exe);
    CHECK(printed.jobid == logged.jobid);
    CHECK(printed.uid == logged.uid);
    CHECK(printed.nprocs == logged.nprocs);
    CHECK(printed.start_time_s == logged.start_time_s);
    CHECK(printed.end_time_s == logged.end_time_s);
    CHECK(printed.run_time_s == logged.run_time_s);
    CHECK(printed.metadata == logged.metadata);
    CHECK(printed.whole_seconds);
    CHECK(printed.line == 10);  // "# nprocs:"
    const qnm::RunStats run = qnm::DarshanJobToRunStats(printed, text_path);
    CHECK(run.sources.front() == text_path + ":10");
  }
  // darshan-parser first warns of logs of Darshan 3.2.0 (darshan_log_print_version_warnings).
  const std::string warned =
      "# WARNING: Darshan logs generated by runtime version 3.2.0 likely exhibit some corruption in counter values.\n"
      "#          This bug clearly results in bogus values for some COMMON_ACCESS counters (POSIX, MPIIO, H5 "
      "modules),\n"
      "#          but preceding data may also be corrupted.\n" +
      qnm::ReadFile(kFolder + "/parser/ior_hdf5_example.txt");
  REQUIRE(qnm::LooksLikeDarshanParserOutput(warned));
  CHECK(qnm::ReadDarshanParserJob(warned, "w.txt").nprocs == 4);
  CHECK(qnm::ReadDarshanParserJob(warned, "w.txt").line == 13);
  CHECK_FALSE(qnm::LooksLikeDarshanParserOutput("# a comment\nprocs,time_s\n# darshan log version: 3.41\n"));
}

TEST_CASE("Darshan logs: a folder of logs is read by ingest, named as Darshan names them", "[darshan][ingest]") {
  qnm::IngestOptions options;
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder}, options, &summary);
  // Eight logs and the printed summaries of three of them: seven jobs. A summary and its log are one measurement
  // (the same job, one origin: counted once), and so are a log and darshan-convert's rewrite of it. The refused
  // logs are skipped with their reasons, as are COPYRIGHT and SOURCES.md.
  REQUIRE(runs.size() == 7);
  CHECK(summary.files_read == 11);
  std::set<std::string> jobs;
  for (const qnm::RunStats& run : runs) jobs.insert(run.origin);
  CHECK(jobs.size() == 7);
  REQUIRE(summary.skipped.size() == 4);
  CHECK_THAT(summary.skipped[2].reason, Catch::Contains("Darshan job record without a run time (0 s)"));
  CHECK_THAT(summary.skipped[3].reason, Catch::Contains("Darshan log format version 2.06 is not read"));
  for (const qnm::RunStats& run : runs) {
    INFO(run.sources.front());
    CHECK(run.tool_version.str().rfind("Darshan ", 0) == 0);
    if (run.sources.front().find("shane_macsio_id29959") != std::string::npos) {
      // Darshan's own name (<user>_<program>_id<job>_...) says no configuration: no data set, no variant.
      CHECK(run.data_set.str().empty());
      CHECK(run.variant.str().empty());
    }
  }
  // A log without a command line (darshan-parser prints "# exe: ") is named by Darshan's name of it.
  JobFields fields;
  fields.exe = std::string(4096 - 1080, 'x');  // a command line as long as the record: no line break, cut
  const std::string log = BuildLog(fields, "3.41", 0, false);
  CHECK(qnm::ReadDarshanLogJob(log, "x").exe.empty());
  const qnm::RunStats named =
      qnm::DarshanJobToRunStats(qnm::ReadDarshanLogJob(log, "x"), "/logs/alice_lmp_id123-4_1-2-3456-789_1.darshan");
  CHECK(named.app.str() == "lmp");
  const qnm::RunStats stem = qnm::DarshanJobToRunStats(qnm::ReadDarshanLogJob(log, "x"), "/logs/run64.darshan.gz");
  CHECK(stem.app.str() == "run64");
}
