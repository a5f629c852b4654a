#pragma once
// Reading one location's events through libotf2's callbacks (trace/otf2_reader.cpp): the
// per-location state (LocationReader: the call stack, pending requests, the clock range and the
// quirks of real traces it repairs and counts) and the callbacks that turn OTF2's event records
// into the Trace's compact events and side tables, or hand them to an EventSink. Internal to
// trace/: the readers' API is otf2_reader.h.
#include <otf2/otf2.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "trace/otf2_archive.h"
#include "trace/otf2_reader.h"
#include "trace/pending_requests.h"
#include "trace/trace_events.h"

namespace qnm::trace::otf2 {

/// Per-location state while its events are read.
struct LocationReader {
  Trace* trace = nullptr;
  const MappedIds* ids = nullptr;  // the location's mapping tables (set before reading)
  LocationTrace* out = nullptr;
  EventSink* sink = nullptr;  // streaming: events go here, side tables keep the current record only
  uint32_t rank = 0;
  uint32_t events_added = 0, messages_added = 0;  // event index / message id of the next one
  Event current_event{};  // streaming: the event handed to the sink
  uint32_t pausing_region = kNone;
  struct Frame {
    uint32_t cnode;
    uint32_t region;
  };
  std::vector<Frame> stack;
  PendingRequests pending_isend;  // request -> message index
  PendingRequests pending_irecv;  // request -> request event index
  PendingRequests pending_rma;    // (win, matching id) -> op index
  bool paused = false;
  uint32_t* program_string = nullptr;  // first ProgramBegin's name, shared by all locations
  uint64_t last_ticks = 0;
  bool any_event = false;
  // Counts of repaired quirks, turned into one warning line each at the end.
  uint64_t unmatched_leaves = 0, closed_frames = 0, closed_at_end = 0, unknown_regions = 0;
  uint64_t unmatched_completions = 0, bad_refs = 0, backwards_time = 0;

  // Events must lie in the clock range of the global definitions, [offset,
  // offset + length], give or take one trace length (and a millisecond) for
  // clocks that were not synchronised exactly. Farther out, the timestamp is
  // damaged: a 3 ms trace would otherwise report hours.
  uint64_t outside_clock = 0;       // such events; the first one is reported
  OTF2_TimeStamp first_outside = 0;
  uint64_t earliest = 0, latest = UINT64_MAX;  // the clock range with its slack
  void SetClockRange() {
    const uint64_t length = trace->trace_length_ticks;
    if (length == 0) return;  // clock range not recorded: nothing to check against
    const uint64_t slack = std::max<uint64_t>(length, trace->timer_resolution / 1000);
    const uint64_t begin = trace->global_offset, end = trace->global_offset + length;
    earliest = begin >= slack ? begin - slack : 0;
    latest = end <= UINT64_MAX - slack ? end + slack : UINT64_MAX;
  }
  bool InClockRange(OTF2_TimeStamp time) const { return time >= earliest && time <= latest; }
  uint64_t Ticks(OTF2_TimeStamp time) {
    if (!InClockRange(time) && outside_clock++ == 0) first_outside = time;
    uint64_t ticks = time >= trace->global_offset ? time - trace->global_offset : 0;
    if (any_event && ticks < last_ticks) {
      ++backwards_time;
      ticks = last_ticks;
    }
    if (!any_event) out->first_ticks = ticks;
    any_event = true;
    last_ticks = ticks;
    out->last_ticks = ticks;
    return ticks;
  }
  uint32_t Add(uint64_t ticks, EventKind kind, uint32_t ref) {
    if (sink) {
      Event& event = current_event;  // field by field (a temporary stalls on store forwarding)
      event.ticks = ticks;
      event.ref = ref;
      event.kind = kind;
      sink->OnEvent(event, events_added);
    }
    else out->events.push_back(Event{ticks, ref, kind});
    return events_added++;
  }
  /// Appends a side-table record and returns its index (streaming: the table
  /// holds only this record, and the index only tells records apart).
  template <typename Table, typename Record>
  uint32_t Append(Table& table, const Record& record) {
    if (sink) table.clear();
    table.push_back(record);
    return static_cast<uint32_t>(table.size() - 1);
  }
  /// Append for a message, field by field (a temporary written with narrow
  /// stores and copied with wide loads stalls on store forwarding).
  void AppendMessage(uint32_t comm, uint32_t peer, uint32_t tag, uint32_t request_event, uint64_t bytes) {
    if (sink) out->messages.clear();
    Message& message = out->messages.emplace_back();
    message.comm = comm;
    message.peer = peer;
    message.tag = tag;
    message.request_event = request_event;
    message.bytes = bytes;
  }
  void Enter(uint64_t ticks, uint32_t region) {
    uint32_t parent = stack.empty() ? CallPaths::kNoParent : stack.back().cnode;
    uint32_t cnode = trace->call_paths.Child(parent, region);
    Frame& frame = stack.emplace_back();  // field by field (see Add)
    frame.cnode = cnode;
    frame.region = region;
    Add(ticks, EventKind::kEnter, cnode);
  }
  void PopTo(std::size_t depth, uint64_t ticks) {  // leaves frames until stack.size() == depth
    while (stack.size() > depth) {
      Add(ticks, EventKind::kLeave, stack.back().cnode);
      stack.pop_back();
    }
  }
  // A Leave of a region deeper in the stack closes the frames above it at the
  // same time (TraceR's stencil leaves TRACER_Loop before its inner regions).
  void Leave(uint64_t ticks, uint32_t region) {
    for (std::size_t i = stack.size(); i-- > 0;) {
      if (stack[i].region != region) continue;
      closed_frames += stack.size() - i - 1;
      PopTo(i, ticks);
      return;
    }
    ++unmatched_leaves;
  }
  bool CommOk(uint32_t comm) {
    if (comm < trace->comms.size()) return true;
    ++bad_refs;
    return false;
  }
  bool WinOk(uint32_t win) {
    if (win < trace->windows.size()) return true;
    ++bad_refs;
    return false;
  }
  void Finish(QuirkCounts* quirks) {
    closed_at_end += stack.size();
    PopTo(0, last_ticks);
    trace->repaired_leaves += closed_frames + closed_at_end;
    auto note = [&](uint64_t count, const char* what) {
      if (count) (*quirks)[what].emplace_back(rank, count);
    };
    note(unmatched_leaves, "Leave events without a matching Enter were ignored");
    note(closed_frames, "regions left out of order were closed with their parent");
    note(closed_at_end, "regions still open at the end of the trace were closed there");
    note(unknown_regions, "events named undefined regions and were ignored");
    note(unmatched_completions, "request completions without a request were ignored");
    note(bad_refs, "records named undefined communicators/windows/groups and were ignored");
    note(backwards_time, "timestamps went backwards and were clamped");
    note(pending_isend.size(), "non-blocking sends were never completed");
  }
};

/// The event callbacks, each taking its LocationReader as the user data. The caller owns the
/// result (OTF2_EvtReaderCallbacks_Delete).
OTF2_EvtReaderCallbacks* NewEventCallbacks();

}  // namespace qnm::trace::otf2
