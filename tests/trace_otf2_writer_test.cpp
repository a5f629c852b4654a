// The OTF2 writer: a trace written back and read again is the same trace
// (events, call paths, messages, wait states), on every real trace; the
// what-if replay's simulated trace is written with cut messages removed
// consistently; otf2-print reads what we write; the atomic writer refuses to
// overwrite folders that are not ours and leaves nothing behind on failure.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <iterator>
#include <fstream>
#include <string>

#include "tests/command_runner.h"
#include "tests/temp_dir.h"
#include "trace/otf2_reader.h"
#include "trace/otf2_writer.h"
#include "trace/wait_states.h"
#include "util/input_error.h"
#include "whatif/whatif_hypothesis.h"
#include "whatif/whatif_simulation.h"

using namespace qnm::trace;
namespace fs = std::filesystem;

namespace {

std::string TraceDir(const std::string& tag) { return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag; }

/// A fresh temporary directory, removed at scope exit.
struct TempDir : qnm::testing::TempDir {
  explicit TempDir(const std::string& name) : qnm::testing::TempDir("qnm-otf2w", name) {}
};

std::size_t CountKind(const Trace& trace, EventKind kind) {
  std::size_t n = 0;
  for (const LocationTrace& rank : trace.ranks)
    for (const Event& e : rank.events) n += e.kind == kind;
  return n;
}

/// Enter and Leave records of real regions (MEASUREMENT OFF is written as measurement OFF/ON).
std::size_t RegionRecords(const Trace& trace) {
  std::size_t n = 0;
  for (const LocationTrace& rank : trace.ranks)
    for (const Event& e : rank.events)
      n += (e.kind == EventKind::kEnter || e.kind == EventKind::kLeave) &&
           trace.call_paths.RegionOf(e.ref).call_class != CallClass::kPausing;
  return n;
}

/// Same events (kind, time, call path, payload) on every rank.
void RequireSameEvents(const Trace& a, const Trace& b) {
  REQUIRE(a.ranks.size() == b.ranks.size());
  REQUIRE(a.timer_resolution == b.timer_resolution);
  std::size_t differing = 0;
  for (std::size_t p = 0; p < a.ranks.size(); ++p) {
    const LocationTrace& x = a.ranks[p];
    const LocationTrace& y = b.ranks[p];
    INFO("rank " << p);
    REQUIRE(x.events.size() == y.events.size());
    CHECK(x.first_ticks == y.first_ticks);
    CHECK(x.last_ticks == y.last_ticks);
    CHECK(x.name == y.name);
    CHECK(x.node == y.node);
    for (std::size_t i = 0; i < x.events.size(); ++i) {
      const Event& e = x.events[i];
      const Event& f = y.events[i];
      bool same = e.kind == f.kind && e.ticks == f.ticks;
      if (same && (e.kind == EventKind::kEnter || e.kind == EventKind::kLeave))
        same = a.call_paths.PathString(e.ref) == b.call_paths.PathString(f.ref);
      if (same && (e.kind == EventKind::kSend || e.kind == EventKind::kIsend || e.kind == EventKind::kRecv ||
                   e.kind == EventKind::kIrecv)) {
        const Message& m = x.messages[e.ref];
        const Message& n = y.messages[f.ref];
        same = m.comm == n.comm && m.peer == n.peer && m.tag == n.tag && m.bytes == n.bytes &&
               m.request_event == n.request_event;
      }
      if (same && e.kind == EventKind::kCollEnd) {
        const CollectiveRecord& c = x.collectives[e.ref];
        const CollectiveRecord& d = y.collectives[f.ref];
        same = c.comm == d.comm && c.root == d.root && c.op == d.op && c.bytes_sent == d.bytes_sent &&
               c.bytes_received == d.bytes_received;
      }
      differing += !same;
    }
  }
  CHECK(differing == 0);
}

/// Every wait-state value, exclusive time, visit count and outside time equal.
void RequireSameAnalysis(const Trace& a, const Trace& b) {
  WaitStateResult x = AnalyzeWaitStates(a);
  WaitStateResult y = AnalyzeWaitStates(b);
  REQUIRE(x.cnodes == y.cnodes);
  for (std::size_t p = 0; p < kPatternCount; ++p) {
    INFO(InfoOf(static_cast<Pattern>(p)).id);
    CHECK(x.severity[p] == y.severity[p]);
  }
  CHECK(x.exclusive_time_s == y.exclusive_time_s);
  CHECK(x.visits == y.visits);
  CHECK(x.outside_time_s == y.outside_time_s);
  CHECK(x.messages_matched == y.messages_matched);
  CHECK(x.unmatched_sends == y.unmatched_sends);
  CHECK(x.unmatched_receives == y.unmatched_receives);
  CHECK(x.collective_instances == y.collective_instances);
  CHECK(x.rma_epochs_matched == y.rma_epochs_matched);
}

}  // namespace

TEST_CASE("otf2 writer: identity what-if trace written and read back analyses the same", "[otf2writer]") {
  auto tag = GENERATE(as<std::string>{}, "pipit-ping-pong-otf2", "pipit-ping-pong-otf2-papi",
                      "sstelements-emberotf2-test", "sstmacro-mpi-coverage-test", "synthetic-patterns-4rank",
                      "tracer-stencil4d-32", "tracer-stencil4d-64");
  INFO(tag);
  TempDir temp("identity");
  Trace original = ReadOtf2Trace(TraceDir(tag));
  Trace simulated = RetimeTrace(original, {});
  fs::path dir = temp.path / "written";
  Otf2WriteSummary summary = WriteOtf2ArchiveAtomically(simulated, dir.string(), "test");
  CHECK(summary.locations == original.ranks.size());
  CHECK(summary.events >= original.EventCount());
  Trace reread = ReadOtf2Trace(dir.string());
  CHECK(reread.RawEventCount() == summary.events);
  CHECK(reread.creator.rfind("qnm-predict test", 0) == 0);
  CHECK(reread.program_name == original.program_name);
  CHECK((reread.program_region == kNone) == (original.program_region == kNone));
  RequireSameEvents(original, reread);
  RequireSameAnalysis(original, reread);
  // The measurement-off periods of the TraceR traces survive as OFF/ON records.
  if (tag.rfind("tracer", 0) == 0) CHECK(CountKind(reread, EventKind::kEnter) == CountKind(original, EventKind::kEnter));

  // otf2-print, the reference reader, reads it completely.
  std::string out;
  int status = qnm::testing::RunCommand("otf2-print " + (dir / "traces.otf2").string() + " 2>&1", &out);
  CHECK(status == 0);
  CHECK(out.find("ERROR") == std::string::npos);
  std::size_t records = 0;
  for (std::size_t at = out.find('\n'); at != std::string::npos; at = out.find('\n', at + 1))
    records += out.compare(at + 1, 6, "ENTER ") == 0 || out.compare(at + 1, 6, "LEAVE ") == 0;
  CHECK(records == RegionRecords(reread));
}

TEST_CASE("otf2 writer: cut messages leave with their receives and requests, collectives stay", "[otf2writer]") {
  TempDir temp("cut");
  Trace original = ReadOtf2Trace(TraceDir("tracer-stencil4d-32"));
  REQUIRE(CountKind(original, EventKind::kSend) > 0);
  REQUIRE(CountKind(original, EventKind::kIrecvRequest) > 0);
  Hypothesis cut = CutFromArg("size>=0");  // every message
  WhatifSummary summary;
  Trace simulated = RetimeTrace(original, {cut}, &summary);
  CHECK(summary.messages_cut == CountKind(original, EventKind::kSend) + CountKind(original, EventKind::kIsend));
  fs::path dir = temp.path / "cut";
  WriteOtf2ArchiveAtomically(simulated, dir.string(), "test");
  Trace reread = ReadOtf2Trace(dir.string());
  for (EventKind kind : {EventKind::kSend, EventKind::kIsend, EventKind::kIsendComplete, EventKind::kRecv,
                         EventKind::kIrecv, EventKind::kIrecvRequest})
    CHECK(CountKind(reread, kind) == 0);
  CHECK(CountKind(reread, EventKind::kCollEnd) == CountKind(original, EventKind::kCollEnd));
  // MPI calls whose every record was cut go with them (SILAS); the others stay.
  auto visits = [](const Trace& t, const std::string& region) {
    std::size_t n = 0;
    for (const LocationTrace& rank : t.ranks)
      for (const Event& e : rank.events) n += e.kind == EventKind::kEnter && t.call_paths.RegionOf(e.ref).name == region;
    return n;
  };
  CHECK(visits(reread, "MPI_Send") == 0);
  CHECK(visits(reread, "MPI_Irecv") == 0);
  CHECK(visits(original, "MPI_Barrier") > 0);
  CHECK(visits(reread, "MPI_Barrier") == visits(original, "MPI_Barrier"));
  CHECK(reread.warnings.empty());
  RequireSameEvents(simulated, reread);
  WaitStateResult analysis = AnalyzeWaitStates(reread);
  CHECK(analysis.messages_matched == 0);
  CHECK(analysis.unmatched_sends == 0);
  CHECK(analysis.unmatched_receives == 0);
  CHECK(analysis.collective_instances == AnalyzeWaitStates(original).collective_instances);

  // A partial cut (one of the 8 tags) keeps the rest matched and its requests paired.
  Trace some = RetimeTrace(original, {CutFromArg("tag==3")}, &summary);
  CHECK(summary.messages_cut == 64);
  REQUIRE(summary.messages_matched == 512);
  fs::path dir2 = temp.path / "some";
  WriteOtf2ArchiveAtomically(some, dir2.string(), "test");
  Trace reread2 = ReadOtf2Trace(dir2.string());
  RequireSameEvents(some, reread2);
  RequireSameAnalysis(some, reread2);
  WaitStateResult partial = AnalyzeWaitStates(reread2);
  CHECK(partial.unmatched_sends == 0);
  CHECK(partial.unmatched_receives == 0);
  CHECK(partial.messages_matched == summary.messages_matched - summary.messages_cut);
  // The written trace is accepted by the what-if replay again.
  WhatifResult again = SimulateWhatif(reread2, {});
  CHECK(again.summary.gain_s == 0.0);
}

TEST_CASE("otf2 writer: atomic output refuses foreign folders and replaces its own", "[otf2writer]") {
  TempDir temp("atomic");
  Trace trace = ReadOtf2Trace(TraceDir("pipit-ping-pong-otf2"));
  fs::path dir = temp.path / "out";

  // A folder with something else in it is refused and left as it was.
  fs::create_directories(dir);
  { std::ofstream(dir / "notes.txt") << "mine\n"; }
  CHECK_THROWS_AS(WriteOtf2ArchiveAtomically(trace, dir.string(), "test"), qnm::InputError);
  CHECK(fs::exists(dir / "notes.txt"));
  // An OTF2 archive someone else wrote is refused too.
  fs::remove_all(dir);
  fs::copy(TraceDir("pipit-ping-pong-otf2"), dir, fs::copy_options::recursive);
  for (auto& entry : fs::recursive_directory_iterator(dir))
    fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add);
  try {
    WriteOtf2ArchiveAtomically(trace, dir.string(), "test");
    FAIL("overwrote a Score-P trace");
  } catch (const qnm::InputError& e) {
    CHECK(std::string(e.what()).find("refusing to overwrite") != std::string::npos);
  }
  CHECK(ReadOtf2Trace(dir.string()).creator.rfind("Score-P", 0) == 0);
  // An empty folder is filled; our own archive is replaced; a trailing slash is fine.
  fs::remove_all(dir);
  fs::create_directories(dir);
  WriteOtf2ArchiveAtomically(trace, dir.string() + "/", "first");
  CHECK(ReadOtf2Trace(dir.string()).creator == "qnm-predict first");
  WriteOtf2ArchiveAtomically(trace, dir.string(), "second");
  CHECK(ReadOtf2Trace(dir.string()).creator == "qnm-predict second");
  // A missing parent folder is an error; nothing is left beside the target.
  CHECK_THROWS_AS(WriteOtf2ArchiveAtomically(trace, (temp.path / "no" / "such").string(), "x"), qnm::InputError);
  auto entries = std::distance(fs::directory_iterator(temp.path), fs::directory_iterator{});
  CHECK(entries == 1);  // only "out": no temporary or old folders
}

TEST_CASE("otf2 writer: damaged copies of a written trace read cleanly or fail with InputError", "[otf2writer]") {
  TempDir temp("damage");
  Trace trace = ReadOtf2Trace(TraceDir("sstmacro-mpi-coverage-test"));
  fs::path dir = temp.path / "w";
  WriteOtf2ArchiveAtomically(RetimeTrace(trace, {}), dir.string(), "test");
  const fs::path files[] = {dir / "traces.otf2", dir / "traces.def", dir / "traces" / "3.evt"};
  int errors = 0, results = 0;
  for (const fs::path& file : files) {
    std::string original;
    {
      std::ifstream in(file, std::ios::binary);
      original.assign(std::istreambuf_iterator<char>(in), {});
    }
    REQUIRE(!original.empty());
    for (int k = 0; k <= 16; ++k) {
      std::string damaged = original;
      if (k % 2) damaged.resize(original.size() * k / 17);
      else damaged[original.size() * k / 17] ^= static_cast<char>(0xA5);
      { std::ofstream(file, std::ios::binary | std::ios::trunc) << damaged; }
      INFO(file.filename() << " damage " << k);
      try {
        Trace reread = ReadOtf2Trace(dir.string());
        AnalyzeWaitStates(reread);
        ++results;
      } catch (const qnm::InputError& e) {
        CHECK(std::string(e.what()).find('\n') == std::string::npos);
        ++errors;
      }
    }
    { std::ofstream(file, std::ios::binary | std::ios::trunc) << original; }
  }
  WARN("damaged written traces: " << errors << " errors, " << results << " results");
  CHECK(errors > 10);
  CHECK(results > 0);
}
