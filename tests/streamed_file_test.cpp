// Files read as they stream by (textio/streamed_file.h, line_reader.h, gzip_member.h): the same
// lines and bytes whatever the pieces they arrive in, every compression unpacked as it is read with
// the checks of reading it whole; and a Paraver trace or a Caliper .cali profile streamed from disk
// is the file read whole.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "caliper/caliper_profile.h"
#include "paraver/paraver_trace.h"
#include "record/run_stats_json.h"
#include "tests/ingest_test_util.h"
#include "tests/temp_dir.h"
#include "textio/compressed_file.h"
#include "textio/content_digest.h"
#include "textio/gzip_member.h"
#include "textio/line_reader.h"
#include "textio/streamed_file.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

using qnm::testing::InputErrorOf;

namespace {

namespace fs = std::filesystem;
const std::string kParaver = std::string(QNM_TEST_DATA_DIR) + "/paraver";
// The EPOCH trace at P = 1 packed with xz, zstd and bzip2 (tests/data/compressed/make-fixtures.sh).
const std::string kPacked = std::string(QNM_TEST_DATA_DIR) + "/compressed/paraver/epoch_1proc.prv";

// `text` as one gzip member (zlib's deflate with the gzip wrapper, as gzip(1) writes it).
std::string GzipMember(const std::string& text) {
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&stream, text.size()) + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

// Everything a GzipInflater unpacks from `packed`, fed `step` compressed bytes at a time.
std::string InflateInSteps(const std::string& packed, std::size_t step, std::size_t max_bytes = 1u << 30) {
  qnm::GzipInflater inflater(qnm::BytesInSteps(packed, step), "x.gz", "the file", max_bytes);
  std::string out;
  std::string_view piece;
  while (inflater.Next(&piece)) out.append(piece);
  return out;
}

// The lines of `text` as a LineReader gives them from pieces of `step` bytes, each with its number.
std::vector<std::string> LinesInPieces(const std::string& text, std::size_t step) {
  qnm::LineReader lines(qnm::LineReader::PiecesOf(text, step), "t.txt", 1 << 20);
  std::vector<std::string> out;
  std::string_view line;
  while (lines.Next(&line)) out.push_back(std::to_string(lines.number()) + ":" + std::string(line));
  return out;
}

std::string Unpacked(const std::string& path) {
  qnm::StreamedFile file(path, 0);
  std::string out;
  std::string_view piece;
  while (file.Next(&piece)) out.append(piece);
  return out;
}

void Write(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

}  // namespace

TEST_CASE("lines arrive whole and numbered, whatever the pieces they come in", "[ingest][stream]") {
  const std::string text = "first\r\n\nthird line\nlast without newline";
  const std::vector<std::string> expected = {"1:first\r", "2:", "3:third line", "4:last without newline"};
  {
    qnm::LineReader whole(text);
    std::vector<std::string> got;
    std::string_view line;
    while (whole.Next(&line)) got.push_back(std::to_string(whole.number()) + ":" + std::string(line));
    CHECK(got == expected);
  }
  for (std::size_t step = 1; step <= text.size(); ++step) {
    INFO("pieces of " << step << " bytes");
    CHECK(LinesInPieces(text, step) == expected);
  }
  // A final newline ends the last line; it does not start an empty one.
  CHECK(LinesInPieces("a\nb\n", 1) == std::vector<std::string>{"1:a", "2:b"});
  CHECK(LinesInPieces("", 1).empty());
  CHECK(LinesInPieces("\n", 1) == std::vector<std::string>{"1:"});

  // A line longer than the limit (a binary file under a text format's name) is refused with its number.
  const std::string long_line = "ok\n" + std::string(5000, 'x') + "\n";
  qnm::LineReader bounded(qnm::LineReader::PiecesOf(long_line, 1000), "blob.prv", 4096);
  std::string_view line;
  REQUIRE(bounded.Next(&line));
  const std::string error = InputErrorOf([&] { bounded.Next(&line); });
  CHECK(error.find("blob.prv:2: a line longer than") == 0);
}

TEST_CASE("gzip unpacks the same fed a byte at a time, its members and checks kept", "[ingest][stream][compressed]") {
  std::string text;
  for (int k = 0; k < 20000; ++k) text += "2:0:1:1:1:" + std::to_string(k * 37) + ":50000001:" + std::to_string(k % 7) + "\n";
  const std::string one = GzipMember(text.substr(0, 100000)), two = GzipMember(text.substr(100000));
  const std::string members = one + two;  // as `cat a.gz b.gz` and pigz write them
  for (std::size_t step : {1u, 2u, 3u, 7u, 4096u, 1u << 20}) {
    INFO("compressed bytes fed " << step << " at a time");
    CHECK(InflateInSteps(members, step) == text);
    CHECK(InflateInSteps(members + std::string(20, '\0'), step) == text);  // zero padding after the last member
  }
  CHECK(qnm::Gunzip(members, "x.gz", "the file", 1u << 30) == text);

  // The refusals of reading it whole, fed in any steps: bytes after the members, counted to the end
  // of the file; a stream cut short; a flipped bit (the CRC); more than the limit.
  for (std::size_t step : {1u, 5u, 1u << 20}) {
    INFO("compressed bytes fed " << step << " at a time");
    CHECK_THAT(InputErrorOf([&] { InflateInSteps(members + std::string(3, '\0') + "junk" + std::string(13, '\0'), step); }),
               Catch::Contains("20 bytes after its last member that are not gzip"));
    CHECK_THAT(InputErrorOf([&] { InflateInSteps(members.substr(0, members.size() - 9), step); }),
               Catch::Contains("gzip-compressed but cut short"));
    std::string flipped = members;
    flipped[one.size() - 6] ^= 0x10;  // inside the first member's CRC-32
    CHECK_THAT(InputErrorOf([&] { InflateInSteps(flipped, step); }), Catch::Contains("gzip-compressed but corrupt"));
    CHECK_THAT(InputErrorOf([&] { InflateInSteps(members, step, 150000); }), Catch::Contains("unpacks to more than"));
  }
  CHECK_THAT(InputErrorOf([&] { InflateInSteps("", 1); }), Catch::Contains("cut short"));
}

TEST_CASE("a file streams as it is on disk or as it unpacks, every compression", "[ingest][stream][compressed]") {
  const std::string plain = qnm::Gunzip(qnm::ReadFile(kParaver + "/epoch/epoch_1proc.prv.gz"), "t", "the file", 1u << 30);
  CHECK(Unpacked(kParaver + "/epoch/epoch_1proc.prv.gz") == plain);
  for (const char* suffix : {".xz", ".zst", ".bz2"}) {
    INFO(suffix);
    const std::string path = kPacked + suffix;
    CHECK(Unpacked(path) == plain);
    CHECK(qnm::StreamedFile(path, 0).compression() == qnm::CompressionOf(qnm::ReadFileHead(path, 16)));
  }
  qnm::testing::TempDir dir("qnm", "streamed-file");
  Write(dir.path / "plain.prv", plain);
  CHECK(Unpacked((dir.path / "plain.prv").string()) == plain);
  CHECK(qnm::StreamedFile((dir.path / "plain.prv").string(), 0).size_bytes() == static_cast<long long>(plain.size()));
  Write(dir.path / "empty.prv", "");
  CHECK(Unpacked((dir.path / "empty.prv").string()).empty());

  // Damage and limits, each a one-line error naming the file.
  const std::string xz = qnm::ReadFile(kPacked + ".xz");
  Write(dir.path / "cut.prv.xz", xz.substr(0, xz.size() / 2));
  CHECK_THAT(InputErrorOf([&] { Unpacked((dir.path / "cut.prv.xz").string()); }),
             Catch::StartsWith((dir.path / "cut.prv.xz").string() + ": the file is xz-compressed but corrupt or cut short"));
  CHECK_THAT(InputErrorOf([&] { qnm::StreamedFile file((dir.path / "plain.prv").string(), 1000);
                                std::string_view piece;
                                while (file.Next(&piece)) {} }),
             Catch::Contains("more than the limit of") && Catch::Contains("(--max-file-size)"));
  const std::string fifo = (dir.path / "fifo.prv").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(InputErrorOf([&] { qnm::StreamedFile file(fifo, 0); }), Catch::Contains("not a regular file"));
  CHECK_THAT(InputErrorOf([&] { qnm::StreamedFile file(dir.path.string(), 0); }), Catch::Contains("is a directory"));
}

TEST_CASE("Paraver: a trace streamed from disk is the trace read whole", "[paraver][stream]") {
  for (const char* procs : {"1", "4"}) {
    const std::string path = kParaver + "/epoch/epoch_" + std::string(procs) + "proc.prv.gz";
    INFO(path);
    const std::string text = qnm::Gunzip(qnm::ReadFile(path), path, "the file", 1u << 30);
    const qnm::ParaverCompanions companions = qnm::FindParaverCompanions(path, nullptr);
    const qnm::RunStats whole = qnm::ReadParaverTrace(text, path, companions);
    std::string digest;
    const qnm::RunStats streamed = qnm::ReadParaverTraceFile(path, 0, companions, &digest);
    CHECK(digest == qnm::ContentDigest(text));  // the record's origin: the same measurement either way
    CHECK(streamed.wall_time_s == whole.wall_time_s);
    CHECK(streamed.app_time_s_per_rank.vector() == whole.app_time_s_per_rank.vector());
    CHECK(streamed.mpi_time_s_per_rank.vector() == whole.mpi_time_s_per_rank.vector());
    CHECK(streamed.details == whole.details);
    REQUIRE(streamed.call_sites.size() == whole.call_sites.size());
    for (std::size_t s = 0; s < whole.call_sites.size(); ++s) {
      CHECK(streamed.call_sites[s].mpi_function == whole.call_sites[s].mpi_function);
      CHECK(streamed.call_sites[s].time_s_per_rank == whole.call_sites[s].time_s_per_rank);
    }
  }

  // Ingest streams a trace of every compression beside its .pcf and .row: the same record as the
  // gzip one pypop ships, the bytes read those on disk, and --max-file-size still a limit.
  qnm::testing::TempDir dir("qnm", "paraver-streamed");
  const std::vector<qnm::RunStats> gzip = qnm::testing::IngestPath(kParaver + "/epoch/epoch_1proc.prv.gz");
  REQUIRE(gzip.size() == 1);
  for (const char* suffix : {".xz", ".zst", ".bz2"}) {
    INFO(suffix);
    const fs::path folder = dir.path / (suffix + 1);  // "xz", "zst", "bz2"
    fs::create_directories(folder);
    fs::copy_file(kPacked + suffix, folder / (std::string("epoch_1proc.prv") + suffix));
    for (const char* companion : {".pcf", ".row"})
      fs::copy_file(kParaver + "/epoch/epoch_1proc" + std::string(companion), folder / (std::string("epoch_1proc") + companion));
    qnm::IngestSummary summary;
    const std::vector<qnm::RunStats> runs = qnm::testing::IngestPath(folder.string(), &summary);
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].origin == gzip[0].origin);  // one measurement, however it was packed
    CHECK(runs[0].wall_time_s == gzip[0].wall_time_s);
    CHECK(runs[0].hosts == gzip[0].hosts);
    CHECK(runs[0].call_sites.size() == gzip[0].call_sites.size());
    double on_disk = 0;
    for (const auto& entry : fs::directory_iterator(folder)) on_disk += static_cast<double>(entry.file_size());
    CHECK(summary.bytes_read == on_disk);

    qnm::IngestOptions limited;
    limited.strict = true;
    limited.max_file_bytes = 100000;  // less than the 795 kB the trace unpacks to
    CHECK_THAT(InputErrorOf([&] { qnm::IngestPaths({folder.string()}, limited, nullptr); }),
               Catch::Contains("epoch_1proc.prv" + std::string(suffix)) && Catch::Contains("(--max-file-size)"));
  }
}

TEST_CASE("Caliper: a .cali profile streamed from disk is the profile read whole", "[caliper][stream]") {
  const std::string data = std::string(QNM_TEST_DATA_DIR) + "/caliper";
  qnm::testing::TempDir dir("qnm", "caliper-streamed");
  for (const std::string name : {"thicket-mpi-scaling/64_cores.cali", "ring/runtime-profile/ring-p4.cali"}) {
    INFO(name);
    const std::string path = data + "/" + name, text = qnm::ReadFile(path);
    const qnm::RunStats whole = qnm::ReadCaliperProfile(text, path);
    std::string digest;
    const qnm::RunStats streamed = qnm::ReadCaliperProfileFile(path, 0, &digest);
    CHECK(digest == qnm::ContentDigest(text));
    CHECK(qnm::RunsToCsv({streamed}) == qnm::RunsToCsv({whole}));
    // Compressed, through ingest: one measurement with the plain file, every field the same.
    const fs::path packed = dir.path / (fs::path(name).filename().string() + ".gz");
    Write(packed, GzipMember(text.substr(0, text.size() / 3)) + GzipMember(text.substr(text.size() / 3)));
    const std::vector<qnm::RunStats> plain = qnm::testing::IngestPath(path), unpacked = qnm::testing::IngestPath(packed.string());
    REQUIRE(plain.size() == 1);
    REQUIRE(unpacked.size() == 1);
    CHECK(unpacked[0].origin == plain[0].origin);
    CHECK(unpacked[0].app_time_s_per_rank.vector() == plain[0].app_time_s_per_rank.vector());
    CHECK(unpacked[0].mpi_time_s_per_rank.vector() == plain[0].mpi_time_s_per_rank.vector());
  }
  // Damage still names its line when the file streams: a record cut in the middle of an escape.
  Write(dir.path / "cut.cali", "__rec=node,id=1,attr=8,data=a\\");
  CHECK_THAT(qnm::testing::IngestErrorOf((dir.path / "cut.cali").string()),
             Catch::StartsWith((dir.path / "cut.cali").string() + ":1: the line ends in an escape character"));
}

TEST_CASE("an empty file is one reason, whatever format its name says", "[ingest][stream]") {
  qnm::testing::TempDir dir("qnm", "empty-inputs");
  for (const char* name : {"a.mpiP", "b.csv", "c.cali", "d.json", "e.out", "f.prv", "g.prv.gz"})
    Write(dir.path / name, "");
  qnm::IngestSummary summary;
  CHECK(qnm::testing::IngestPath(dir.path.string(), &summary, /*strict=*/false).empty());
  REQUIRE(summary.skipped.size() == 7);
  for (const qnm::SkippedFile& file : summary.skipped) {
    INFO(file.path);
    CHECK(file.reason == file.path + ": empty file (0 bytes)");
  }
}

TEST_CASE("a content digest depends on the bytes alone, not on the pieces they come in", "[ingest][stream]") {
  std::string text;
  for (int k = 0; k < 1000; ++k) text += "line " + std::to_string(k * 7919 % 1013) + "\n";
  const std::string whole = qnm::ContentDigest(text);
  for (std::size_t piece : {1u, 2u, 3u, 5u, 7u, 64u, 4099u}) {
    qnm::ContentDigester digester;
    for (std::size_t at = 0; at < text.size(); at += piece) digester.Add(std::string_view(text).substr(at, piece));
    CHECK(digester.Digest() == whole);
  }
  // One byte changed, in any lane, or one byte more: another digest.
  for (std::size_t at : {0u, 1u, 2u, 3u, 4097u}) {
    std::string changed = text;
    changed[at] ^= 1;
    CHECK(qnm::ContentDigest(changed) != whole);
  }
  CHECK(qnm::ContentDigest(text + " ") != whole);
  CHECK(whole.substr(whole.find(':')) == ":" + std::to_string(text.size()));
}
