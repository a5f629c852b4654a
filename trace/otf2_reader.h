#pragma once
// Reads an OTF2 archive (Score-P trace) through libotf2's OTF2_Reader into the
// compact in-memory Trace: global definitions, the local definition mapping
// tables, and each MPI rank's events. Quirks of real traces are repaired and
// listed in Trace::warnings (see tests/data/otf2/SOURCES.md).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "trace/trace_events.h"

namespace qnm::trace {

/// Reads the trace whose anchor is `path` (a `traces.otf2` file, or a
/// directory holding one). Throws InputError naming the file on any error
/// (missing or corrupt anchor, definition or event file).
Trace ReadOtf2Trace(const std::string& path);

// --- Reading a subset of the ranks (parallel replay, Geimer et al. 2009, §3.2) ---

/// World ranks [first, end) of a trace.
struct RankRange {
  uint32_t first = 0, end = 0;
};
/// Block partition of M ranks over `parts` analysis processes: part p reads
/// ranks [M*p/parts, M*(p+1)/parts).
struct RankPartition {
  uint32_t part = 0, parts = 1;
  RankRange Of(uint32_t ranks) const {
    return RankRange{static_cast<uint32_t>(uint64_t{ranks} * part / parts),
                     static_cast<uint32_t>(uint64_t{ranks} * (part + 1) / parts)};
  }
};
/// Repaired quirks: message -> (rank, count) in ascending rank order.
using QuirkCounts = std::map<std::string, std::vector<std::pair<uint32_t, uint64_t>>>;

/// Receives each rank's events while libotf2 decodes them, instead of the
/// trace storing them (streaming analysis; one sink per reading thread).
class EventSink {
 public:
  virtual ~EventSink() = default;
  /// Once, before the first rank: about this many events will come for this
  /// part's ranks, and the whole trace holds about `trace_events` (the
  /// definitions' counts, bounded by the event files' sizes).
  virtual void ExpectEvents(uint64_t events, uint64_t trace_events) { (void)events, (void)trace_events; }
  /// Before rank `rank`'s first event. `data` is where the reader keeps the
  /// rank's metadata and, at each event, the event's side-table record (a
  /// message, collective, ...) as the last entry of its table.
  virtual void BeginRank(const Trace& trace, uint32_t rank, const LocationTrace& data) = 0;
  /// Event number `index` of the rank, repaired as the stored trace has it;
  /// message ids (event.ref of message events) count the rank's messages.
  virtual void OnEvent(const Event& event, uint32_t index) = 0;
  /// After the rank's last event (the Leaves that close open regions included).
  virtual void EndRank(uint32_t rank) = 0;
};

/// Like ReadOtf2Trace, but reads local definitions and events only for this
/// part's ranks (set in `*range`; other ranks keep their name/node and no
/// events), and returns the per-rank quirk counts in `quirks` instead of
/// warning lines. Call paths are numbered in this part's discovery order.
/// With a `sink`, the events go to it and are not stored (the side tables
/// keep only the current record).
Trace ReadOtf2TraceRanks(const std::string& path, RankPartition partition, RankRange* range,
                         QuirkCounts* quirks, EventSink* sink = nullptr);
/// Reads a block of ranks in windows (matching while reading, trace/
/// match_while_reading.h): one OTF2_Reader for the block, an event reader per
/// rank, each advanced by the caller a number of event records at a time. Each
/// rank gets its own Trace — the definitions, and call paths numbered in that
/// rank's own discovery order, as ReadOtf2TraceRanks reading that rank alone
/// numbers them — and its own sink. Errors are per rank: a rank that throws is
/// done, the others can go on.
class Otf2BlockReader {
 public:
  /// Opens the archive and reads the global definitions for `partition`'s
  /// ranks. Throws InputError.
  Otf2BlockReader(const std::string& path, RankPartition partition);
  ~Otf2BlockReader();
  Otf2BlockReader(const Otf2BlockReader&) = delete;
  Otf2BlockReader& operator=(const Otf2BlockReader&) = delete;

  RankRange range() const;
  /// Rank `rank` of the block: `*trace` gets the definitions and the rank's
  /// metadata, the rank's local definitions are read. Call for every rank
  /// of the block (ascending) before the first Read. Throws InputError.
  void Begin(uint32_t rank, Trace* trace, QuirkCounts* quirks, EventSink* sink);
  /// Reads up to `records` more event records of `rank` into its sink; false
  /// once its last record is read (the rank is then finished: the sink's
  /// EndRank has run and its Trace is complete). Throws InputError.
  bool Read(uint32_t rank, uint64_t records);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// "12 regions ... (ranks 0-3, 7)": one warning per kind of repaired quirk.
void AddQuirkWarnings(const QuirkCounts& quirks, std::vector<std::string>* warnings);

/// Decodes every event record of the trace without keeping anything (the
/// baselines for the benchmark): with no callbacks at all, or with callbacks
/// that only count the common MPI records. Returns the records decoded.
uint64_t DecodeOtf2EventsOnly(const std::string& path, bool counting_callbacks = false);

/// The number of ranks the trace defines (reads its global definitions only)
/// and, if `event_bytes`, the sizes of their event files summed.
uint32_t CountOtf2Ranks(const std::string& path, uint64_t* event_bytes = nullptr);

/// The anchor file for `path` (appends "traces.otf2" to a directory).
std::string Otf2AnchorPath(const std::string& path);

}  // namespace qnm::trace
