#include "trace/otf2_reader.h"

#include <otf2/otf2.h>
#include <sys/stat.h>

#include <memory>

#include "trace/otf2_archive.h"
#include "trace/otf2_error.h"
#include "trace/otf2_event_callbacks.h"
#include "util/input_error.h"

// The archive opened and its definitions read in trace/otf2_archive.h, each location's events read
// by the callbacks of trace/otf2_event_callbacks.h: here, the readers of the whole trace, of a part
// of its ranks, and of a block of ranks in windows.
namespace qnm::trace {
using otf2::CloseReader;
using otf2::DefinitionNames;
using otf2::ExpectedEvents;
using otf2::FileSize;
using otf2::IsFile;
using otf2::LocationReader;
using otf2::MappedIds;
using otf2::NewEventCallbacks;
using otf2::OpenArchive;
using otf2::ReaderPtr;
using otf2::ReadLocalDefinitions;
using otf2::ReadLocalDefinitionsOf;

namespace {

bool IsDirectory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

}  // namespace

std::string Otf2AnchorPath(const std::string& path) {
  if (IsDirectory(path)) return path + (path.empty() || path.back() == '/' ? "" : "/") + "traces.otf2";
  return path;
}

uint32_t CountOtf2Ranks(const std::string& path, uint64_t* event_bytes) {
  const std::string anchor = Otf2AnchorPath(path);
  Trace trace;
  std::vector<uint64_t> rank_locations;
  OpenArchive(anchor, &trace, &rank_locations);
  if (event_bytes) {
    const std::string dir = anchor.substr(0, anchor.size() - 5) + "/";
    *event_bytes = 0;
    for (uint64_t location : rank_locations) *event_bytes += FileSize(dir + std::to_string(location) + ".evt");
  }
  return static_cast<uint32_t>(rank_locations.size());
}

Trace ReadOtf2Trace(const std::string& path) {
  QuirkCounts quirks;
  RankRange range;
  Trace trace = ReadOtf2TraceRanks(path, RankPartition{}, &range, &quirks);
  AddQuirkWarnings(quirks, &trace.warnings);
  return trace;
}

Trace ReadOtf2TraceRanks(const std::string& path, RankPartition partition, RankRange* range_out,
                         QuirkCounts* quirks_out, EventSink* sink) {
  std::string anchor = Otf2AnchorPath(path);
  Trace trace;
  trace.path = anchor;
  std::vector<uint64_t> rank_locations;
  RankRange range;
  DefinitionNames names;
  ReaderPtr reader = OpenArchive(anchor, &trace, &rank_locations, partition, &range, &names);
  uint32_t program_string = OTF2_UNDEFINED_STRING;
  *range_out = range;
  uint32_t pausing = trace.call_paths.AddPausingRegion();
  const std::vector<MappedIds> ids = ReadLocalDefinitions(reader.get(), anchor, rank_locations, range);
  if (range.first == range.end) return trace;  // this process owns no rank

  std::string dir = anchor.substr(0, anchor.size() - 5) + "/";
  if (OTF2_Reader_OpenEvtFiles(reader.get()) != OTF2_SUCCESS)
    throw InputError(anchor, 0, Otf2Message("cannot open the event files"));
  OTF2_EvtReaderCallbacks* callbacks = NewEventCallbacks();
  std::unique_ptr<OTF2_EvtReaderCallbacks, void (*)(OTF2_EvtReaderCallbacks*)> callbacks_owner(
      callbacks, OTF2_EvtReaderCallbacks_Delete);
  QuirkCounts& quirks = *quirks_out;
  if (sink) {
    uint64_t expected = 0, total = 0;
    for (uint32_t rank = 0; rank < rank_locations.size(); ++rank) {
      uint64_t events = ExpectedEvents(trace.ranks[rank], dir + std::to_string(rank_locations[rank]) + ".evt");
      total += events;
      if (rank >= range.first && rank < range.end) expected += events;
    }
    sink->ExpectEvents(expected, total);
  }
  for (uint32_t rank = range.first; rank < range.end; ++rank) {
    std::string file = dir + std::to_string(rank_locations[rank]) + ".evt";
    if (!IsFile(file)) throw InputError(file, 0, "missing event file");
    if (!sink) {
      uint64_t expected = ExpectedEvents(trace.ranks[rank], file);
      trace.ranks[rank].events.reserve(expected);
      // Address space only: pages that stay untouched cost nothing.
      trace.ranks[rank].messages.reserve(expected / 2);
    }
    OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(reader.get(), rank_locations[rank]);
    if (!evt) throw InputError(file, 0, Otf2Message("cannot open the event file"));
    const MappedIds& rank_ids = ids[rank - range.first];
    rank_ids.Configure(evt);
    LocationReader loc;
    loc.trace = &trace;
    loc.ids = &rank_ids;
    loc.out = &trace.ranks[rank];
    loc.rank = rank;
    loc.pausing_region = pausing;
    loc.program_string = &program_string;
    loc.sink = sink;
    loc.SetClockRange();
    if (sink) sink->BeginRank(trace, rank, *loc.out);
    OTF2_Reader_RegisterEvtCallbacks(reader.get(), evt, callbacks, &loc);
    uint64_t read = 0;
    OTF2_ErrorCode status = OTF2_Reader_ReadAllLocalEvents(reader.get(), evt, &read);
    OTF2_Reader_CloseEvtReader(reader.get(), evt);
    if (status != OTF2_SUCCESS) throw InputError(file, 0, Otf2Message("corrupt event file"));
    if (loc.outside_clock > 0)
      throw InputError(file, 0, std::to_string(loc.outside_clock) + " event timestamps (first " +
                                    std::to_string(loc.first_outside) + ") lie outside the clock range [" +
                                    std::to_string(trace.global_offset) + ", " +
                                    std::to_string(trace.global_offset + trace.trace_length_ticks) +
                                    "] of the global definitions by more than the trace's length");
    loc.out->raw_events = read;
    loc.Finish(&quirks);
    if (sink) sink->EndRank(rank);
    // Only when the header's event count was far off: shrinking copies the events.
    if (loc.out->events.capacity() > loc.out->events.size() + loc.out->events.size() / 4)
      loc.out->events.shrink_to_fit();
  }
  OTF2_Reader_CloseEvtFiles(reader.get());
  // Scalasca's PEARL enters the region named by ProgramBegin (its canonical name).
  if (program_string != OTF2_UNDEFINED_STRING) {
    trace.program_begin = true;
    auto text = names.strings.find(program_string);
    trace.program_name = text != names.strings.end() ? text->second : std::string("program");
    auto region = names.region_of_canonical.find(program_string);
    if (region != names.region_of_canonical.end() && trace.call_paths.HasRegion(region->second))
      trace.program_region = region->second;
  }
  return trace;
}

struct Otf2BlockReader::Impl {
  struct Rank {
    Trace* trace = nullptr;
    QuirkCounts* quirks = nullptr;
    EventSink* sink = nullptr;
    std::string file;
    OTF2_EvtReader* evt = nullptr;
    std::unique_ptr<LocationReader> loc;
    MappedIds ids;
    uint32_t program_string = OTF2_UNDEFINED_STRING;
    uint64_t read = 0;
    /// More records than the event file has bytes cannot come from it: on a
    /// truncated file libotf2 can go on decoding its chunk buffer's stale
    /// bytes window after window without ever failing.
    uint64_t max_records = 0;
  };
  std::string anchor, dir;
  Trace base;  // the definitions every rank's Trace starts from
  std::vector<uint64_t> locations;
  RankRange range;
  DefinitionNames names;
  ReaderPtr reader{nullptr, CloseReader};
  uint32_t pausing = kNone;
  bool def_files_tried = false, def_files_open = false;
  bool evt_files_open = false;
  std::vector<Rank> ranks;
  std::unique_ptr<OTF2_EvtReaderCallbacks, void (*)(OTF2_EvtReaderCallbacks*)> callbacks{
      NewEventCallbacks(), OTF2_EvtReaderCallbacks_Delete};

  void Open(uint32_t rank, Rank& state) {
    RecordOtf2Errors();
    if (def_files_open) {
      OTF2_Reader_CloseDefFiles(reader.get());
      def_files_open = false;
    }
    if (!evt_files_open) {
      if (OTF2_Reader_OpenEvtFiles(reader.get()) != OTF2_SUCCESS)
        throw InputError(anchor, 0, Otf2Message("cannot open the event files"));
      evt_files_open = true;
    }
    state.file = dir + std::to_string(locations[rank]) + ".evt";
    if (!IsFile(state.file)) throw InputError(state.file, 0, "missing event file");
    state.max_records = FileSize(state.file) + 16;
    state.evt = OTF2_Reader_GetEvtReader(reader.get(), locations[rank]);
    if (!state.evt) throw InputError(state.file, 0, Otf2Message("cannot open the event file"));
    state.ids.Configure(state.evt);
    state.loc = std::make_unique<LocationReader>();
    LocationReader& loc = *state.loc;
    loc.trace = state.trace;
    loc.ids = &state.ids;
    loc.out = &state.trace->ranks[rank];
    loc.rank = rank;
    loc.pausing_region = pausing;
    loc.program_string = &state.program_string;
    loc.sink = state.sink;
    loc.SetClockRange();
    state.sink->ExpectEvents(ExpectedEvents(*loc.out, state.file), 0);
    state.sink->BeginRank(*state.trace, rank, *loc.out);
    OTF2_Reader_RegisterEvtCallbacks(reader.get(), state.evt, callbacks.get(), &loc);
  }

  void Finish(uint32_t rank, Rank& state) {
    LocationReader& loc = *state.loc;
    Trace& trace = *state.trace;
    if (loc.outside_clock > 0)
      throw InputError(state.file, 0, std::to_string(loc.outside_clock) + " event timestamps (first " +
                                          std::to_string(loc.first_outside) + ") lie outside the clock range [" +
                                          std::to_string(trace.global_offset) + ", " +
                                          std::to_string(trace.global_offset + trace.trace_length_ticks) +
                                          "] of the global definitions by more than the trace's length");
    loc.out->raw_events = state.read;
    loc.Finish(state.quirks);
    state.sink->EndRank(rank);
    if (state.program_string != OTF2_UNDEFINED_STRING) {
      trace.program_begin = true;
      auto text = names.strings.find(state.program_string);
      trace.program_name = text != names.strings.end() ? text->second : std::string("program");
      auto region = names.region_of_canonical.find(state.program_string);
      if (region != names.region_of_canonical.end() && trace.call_paths.HasRegion(region->second))
        trace.program_region = region->second;
    }
    state.loc.reset();
  }
};

Otf2BlockReader::Otf2BlockReader(const std::string& path, RankPartition partition) : impl_(std::make_unique<Impl>()) {
  Impl& in = *impl_;
  in.anchor = Otf2AnchorPath(path);
  in.dir = in.anchor.substr(0, in.anchor.size() < 5 ? 0 : in.anchor.size() - 5) + "/";
  in.base.path = in.anchor;
  in.reader = OpenArchive(in.anchor, &in.base, &in.locations, partition, &in.range, &in.names);
  in.pausing = in.base.call_paths.AddPausingRegion();
  in.ranks.resize(in.range.end - in.range.first);
}

Otf2BlockReader::~Otf2BlockReader() = default;

RankRange Otf2BlockReader::range() const { return impl_->range; }

void Otf2BlockReader::Begin(uint32_t rank, Trace* trace, QuirkCounts* quirks, EventSink* sink) {
  Impl& in = *impl_;
  Impl::Rank& state = in.ranks.at(rank - in.range.first);
  state.trace = trace;
  state.quirks = quirks;
  state.sink = sink;
  *trace = in.base;
  RecordOtf2Errors();
  // As ReadLocalDefinitions, one rank at a time in one session of the block.
  const uint64_t location = in.locations[rank];
  const std::string file = in.dir + std::to_string(location) + ".def";
  if (!IsFile(file)) throw InputError(file, 0, "missing local definition file");
  if (!in.def_files_tried) {
    in.def_files_open = OTF2_Reader_OpenDefFiles(in.reader.get()) == OTF2_SUCCESS;
    in.def_files_tried = true;
  }
  if (!in.def_files_open) throw InputError(file, 0, Otf2Message("cannot open local definition files"));
  OTF2_DefReader* def_reader = OTF2_Reader_GetDefReader(in.reader.get(), location);
  if (!def_reader) throw InputError(file, 0, Otf2Message("cannot open local definitions"));
  OTF2_ErrorCode status = ReadLocalDefinitionsOf(in.reader.get(), def_reader, &state.ids);
  OTF2_Reader_CloseDefReader(in.reader.get(), def_reader);
  if (status != OTF2_SUCCESS) throw InputError(file, 0, Otf2Message("corrupt local definitions"));
}

bool Otf2BlockReader::Read(uint32_t rank, uint64_t records) {
  Impl& in = *impl_;
  Impl::Rank& state = in.ranks.at(rank - in.range.first);
  if (!state.evt) in.Open(rank, state);
  uint64_t read = 0;
  OTF2_ErrorCode status = OTF2_Reader_ReadLocalEvents(in.reader.get(), state.evt, records, &read);
  state.read += read;
  const bool impossible = state.read > state.max_records;
  if (status == OTF2_SUCCESS && read == records && !impossible) return true;
  OTF2_Reader_CloseEvtReader(in.reader.get(), state.evt);
  state.evt = nullptr;
  if (status != OTF2_SUCCESS || impossible) throw InputError(state.file, 0, Otf2Message("corrupt event file"));
  in.Finish(rank, state);
  return false;
}

namespace {

OTF2_CallbackCode Count(void* user) {
  ++*static_cast<uint64_t*>(user);
  return OTF2_CALLBACK_SUCCESS;
}

/// Callbacks that only count: the least any reader does with the records.
OTF2_EvtReaderCallbacks* NewCountingCallbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  using L = OTF2_LocationRef;
  using T = OTF2_TimeStamp;
  using A = OTF2_AttributeList;
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, [](L, T, uint64_t, void* u, A*, OTF2_RegionRef) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, [](L, T, uint64_t, void* u, A*, OTF2_RegionRef) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(
      cb, [](L, T, uint64_t, void* u, A*, uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
      cb, [](L, T, uint64_t, void* u, A*, uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(
      cb, [](L, T, uint64_t, void* u, A*, uint32_t, OTF2_CommRef, uint32_t, uint64_t, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(
      cb, [](L, T, uint64_t, void* u, A*, uint32_t, OTF2_CommRef, uint32_t, uint64_t, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, [](L, T, uint64_t, void* u, A*, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, [](L, T, uint64_t, void* u, A*, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, [](L, T, uint64_t, void* u, A*) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
      cb, [](L, T, uint64_t, void* u, A*, OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t) {
        return Count(u);
      });
  OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, [](L, T, uint64_t, void* u, A*, OTF2_MeasurementMode) {
    return Count(u);
  });
  return cb;
}

}  // namespace

uint64_t DecodeOtf2EventsOnly(const std::string& path, bool counting_callbacks) {
  std::string anchor = Otf2AnchorPath(path);
  Trace trace;
  std::vector<uint64_t> rank_locations;
  ReaderPtr reader = OpenArchive(anchor, &trace, &rank_locations);
  ReadLocalDefinitions(reader.get(), anchor, rank_locations,
                       RankRange{0, static_cast<uint32_t>(rank_locations.size())});
  if (OTF2_Reader_OpenEvtFiles(reader.get()) != OTF2_SUCCESS)
    throw InputError(anchor, 0, Otf2Message("cannot open the event files"));
  std::unique_ptr<OTF2_EvtReaderCallbacks, void (*)(OTF2_EvtReaderCallbacks*)> counting(
      NewCountingCallbacks(), OTF2_EvtReaderCallbacks_Delete);
  uint64_t total = 0;
  for (uint64_t location : rank_locations) {
    OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(reader.get(), location);
    if (!evt) throw InputError(anchor, 0, Otf2Message("cannot open an event file"));
    uint64_t read = 0, counted = 0;
    if (counting_callbacks) OTF2_Reader_RegisterEvtCallbacks(reader.get(), evt, counting.get(), &counted);
    OTF2_ErrorCode status = OTF2_Reader_ReadAllLocalEvents(reader.get(), evt, &read);
    OTF2_Reader_CloseEvtReader(reader.get(), evt);
    if (status != OTF2_SUCCESS) throw InputError(anchor, 0, Otf2Message("corrupt event file"));
    total += read;
  }
  OTF2_Reader_CloseEvtFiles(reader.get());
  return total;
}

std::size_t LocationTrace::MemoryBytes() const {
  return events.size() * sizeof(Event) + messages.size() * sizeof(Message) +
         collectives.size() * sizeof(CollectiveRecord) + rma_collectives.size() * sizeof(RmaCollectiveRecord) +
         rma_syncs.size() * sizeof(RmaSyncRecord) + rma_ops.size() * sizeof(RmaOpRecord) +
         rma_locks.size() * sizeof(RmaLockRecord);
}

std::size_t Trace::EventCount() const {
  std::size_t n = 0;
  for (const LocationTrace& rank : ranks) n += rank.events.size();
  return n;
}
std::size_t Trace::RawEventCount() const {
  std::size_t n = 0;
  for (const LocationTrace& rank : ranks) n += rank.raw_events;
  return n;
}
std::size_t Trace::MemoryBytes() const {
  std::size_t n = 0;
  for (const LocationTrace& rank : ranks) n += rank.MemoryBytes();
  return n;
}

}  // namespace qnm::trace
