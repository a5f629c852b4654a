// Bad traces of every kind: a one-line InputError naming the file, or a
// result with warnings; never a crash or a hang. Corrupted copies of the real
// traces are made in a temporary directory.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "tests/file_bytes.h"
#include "tests/support/synthetic_trace.h"
#include "tests/temp_dir.h"
#include "trace/otf2_reader.h"
#include "trace/wait_states.h"
#include "util/input_error.h"

namespace fs = std::filesystem;
using namespace qnm::trace;

namespace {

std::string TraceDir(const std::string& tag) {
  return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag;
}

/// A fresh temporary directory, removed at scope exit.
struct TempDir : qnm::testing::TempDir {
  explicit TempDir(const std::string& name) : qnm::testing::TempDir("qnm-trace", name) {}
};

fs::path CopyTrace(const std::string& tag, const fs::path& into) {
  fs::path target = into / tag;
  qnm::testing::CopyWritable(TraceDir(tag), target);
  return target;
}

using qnm::testing::ReadBytes;
using qnm::testing::WriteBytes;

enum class Outcome { kResult, kInputError };

/// Reads and analyses; any exception other than InputError fails the test.
Outcome ReadAndAnalyse(const fs::path& dir, std::string* message) {
  try {
    Trace trace = ReadOtf2Trace(dir.string());
    WaitStateResult result = AnalyzeWaitStates(trace);
    (void)result;
    return Outcome::kResult;
  } catch (const qnm::InputError& e) {
    *message = e.what();
    return Outcome::kInputError;
  }
}

}  // namespace

TEST_CASE("trace robustness: missing files give an error naming the file", "[trace]") {
  TempDir temp("missing");
  std::string message;
  CHECK_THROWS_AS(ReadOtf2Trace((temp.path / "nope").string()), qnm::InputError);

  fs::path dir = CopyTrace("pipit-ping-pong-otf2", temp.path);
  fs::remove(dir / "traces" / "1.evt");
  REQUIRE(ReadAndAnalyse(dir, &message) == Outcome::kInputError);
  CHECK(message.find("1.evt") != std::string::npos);

  fs::copy_file(TraceDir("pipit-ping-pong-otf2") + "/traces/1.evt", dir / "traces" / "1.evt");
  fs::remove(dir / "traces" / "0.def");
  REQUIRE(ReadAndAnalyse(dir, &message) == Outcome::kInputError);
  CHECK(message.find("0.def: missing local definition file") != std::string::npos);

  fs::remove(dir / "traces.def");
  REQUIRE(ReadAndAnalyse(dir, &message) == Outcome::kInputError);
  CHECK(message.find("traces.def: missing global definition file") != std::string::npos);

  fs::copy_file(TraceDir("pipit-ping-pong-otf2") + "/traces.def", dir / "traces.def");
  WriteBytes(dir / "traces.otf2", "not an anchor file\n");
  REQUIRE(ReadAndAnalyse(dir, &message) == Outcome::kInputError);
  CHECK(message.find("traces.otf2") != std::string::npos);
}

TEST_CASE("trace robustness: truncated and bit-flipped copies of all real traces", "[trace]") {
  TempDir temp("corrupt");
  const char* tags[] = {"pipit-ping-pong-otf2", "pipit-ping-pong-otf2-papi", "sstmacro-mpi-coverage-test",
                        "tracer-stencil4d-32", "sstelements-emberotf2-test", "synthetic-patterns-4rank"};
  int errors = 0, results = 0;
  for (const char* tag : tags) {
    fs::path dir = CopyTrace(tag, temp.path);
    // The files to damage: the anchor, the global definitions, rank 1's definitions and events.
    const fs::path files[] = {dir / "traces.otf2", dir / "traces.def", dir / "traces" / "1.def",
                              dir / "traces" / "1.evt"};
    for (const fs::path& file : files) {
      const std::string original = ReadBytes(file);
      // Truncations at several points, then byte flips at spread-out positions.
      for (double fraction : {0.0, 0.1, 0.5, 0.9, 0.999}) {
        WriteBytes(file, original.substr(0, static_cast<std::size_t>(fraction * original.size())));
        std::string message;
        INFO(tag << " " << file.filename() << " truncated to " << fraction);
        (ReadAndAnalyse(dir, &message) == Outcome::kInputError ? errors : results)++;
      }
      for (int k = 1; k <= 12; ++k) {
        std::string damaged = original;
        std::size_t at = (original.size() * k) / 13;
        damaged[at] = static_cast<char>(damaged[at] ^ (k % 2 ? 0xFF : 0x5A));
        WriteBytes(file, damaged);
        std::string message;
        INFO(tag << " " << file.filename() << " byte " << at << " flipped");
        (ReadAndAnalyse(dir, &message) == Outcome::kInputError ? errors : results)++;
      }
      WriteBytes(file, original);
    }
  }
  // Both outcomes occur: damage is detected where OTF2 can see it, and the
  // rest is read (a flipped timestamp or tag is still a valid trace).
  WARN("corrupted copies: " << errors << " errors, " << results << " results");
  CHECK(errors > 50);
  CHECK(results > 20);
}

TEST_CASE("trace robustness: unmatched receive and a missing collective participant", "[trace]") {
  TempDir temp("broken");
  StencilTraceOptions options;
  options.ranks = 4;
  options.iterations = 20;
  options.allreduce_every = 5;
  options.drop_first_receive = true;
  options.skip_last_allreduce_on = 2;
  fs::path dir = temp.path / "stencil";
  uint64_t written = WriteStencilTrace(dir.string(), options);
  Trace trace = ReadOtf2Trace(dir.string());
  CHECK(trace.RawEventCount() == written);
  WaitStateResult result = AnalyzeWaitStates(trace);
  CHECK(result.unmatched_sends == 1);
  CHECK(result.unmatched_receives == 0);
  CHECK(result.messages_matched == 4 * 20 * 2 - 1);
  CHECK(result.collective_instances == 3);  // the 4th Allreduce lacks rank 2
  CHECK(result.collectives_skipped == 1);
  bool warned_collective = false, warned_message = false;
  for (const std::string& warning : result.warnings) {
    if (warning.find("MPI_COMM_WORLD: members recorded between 3 and 4 collective calls") != std::string::npos)
      warned_collective = true;
    if (warning.find("1 sends and 0 receives have no partner") != std::string::npos) warned_message = true;
  }
  CHECK(warned_collective);
  CHECK(warned_message);
  // The dropped receive leaves its request open on rank 0 (no crash, no hang).
  CHECK(result.Total(Pattern::kLateSender) > 0);
}

TEST_CASE("trace robustness: anchor counts that cannot fit are refused before libotf2 reads them", "[trace]") {
  // The campaign's three OTF2 hangs (round 3): libotf2 read 3.4e9 properties
  // past the end of a 72-byte anchor. Offsets follow the anchor layout of
  // docs/formats/otf2-anchor.md for the synthetic trace (anchor format 3,
  // empty machine, creator and description).
  TempDir temp("anchor");
  fs::path dir = CopyTrace("synthetic-patterns-4rank", temp.path);
  const fs::path anchor = dir / "traces.otf2";
  const std::string original = ReadBytes(anchor);
  REQUIRE(original.size() == 72);
  REQUIRE(original.compare(2, 5, std::string("OTF2\0", 5)) == 0);
  std::string message;

  std::string bytes = original;
  bytes.replace(0x31, 4, "\xba\xd5\xff\xcc");  // number of properties 0xccffd5ba
  WriteBytes(anchor, bytes);
  REQUIRE(ReadAndAnalyse(dir, &message) == Outcome::kInputError);
  CHECK(message.find("traces.otf2: damaged OTF2 anchor file: 3439318458 properties cannot fit") != std::string::npos);

  bytes = original;
  bytes[0x0e] = '\x40';  // event chunk size 1 MiB -> 64 GiB
  bytes[0x10] = '\x10';
  WriteBytes(anchor, bytes);
  REQUIRE(ReadAndAnalyse(dir, &message) == Outcome::kInputError);
  CHECK(message.find("event chunk size") != std::string::npos);
  CHECK(message.find("outside OTF2's 256 KiB to 16 MiB") != std::string::npos);

  bytes = original;
  bytes[0x1e] = '\x7f';  // 127 locations, 84 global definitions
  WriteBytes(anchor, bytes);
  REQUIRE(ReadAndAnalyse(dir, &message) == Outcome::kInputError);
  CHECK(message.find("127 locations but 84 global definitions") != std::string::npos);

  bytes = original;
  bytes.resize(0x33);  // cut inside the number of properties
  WriteBytes(anchor, bytes);
  REQUIRE(ReadAndAnalyse(dir, &message) == Outcome::kInputError);
  CHECK(message.find("damaged OTF2 anchor file: ends before the number of properties") != std::string::npos);

  WriteBytes(anchor, original);  // and the undamaged anchor still reads
  CHECK(ReadAndAnalyse(dir, &message) == Outcome::kResult);
}
