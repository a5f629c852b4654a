#pragma once
// Opening an OTF2 archive (a Score-P trace) for trace/otf2_reader.cpp: the anchor checked, the
// global definitions read through libotf2 and resolved into the Trace's ranks (the MPI paradigm's
// COMM_LOCATIONS group), communicators, groups, windows and clock; each rank's local definitions
// (libotf2's id mapping tables, MappedIds). Internal to trace/: the readers' API is otf2_reader.h.
#include <otf2/otf2.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/otf2_reader.h"
#include "trace/trace_events.h"

namespace qnm::trace::otf2 {

bool IsFile(const std::string& path);
uint64_t FileSize(const std::string& path);  // 0 when it cannot be read

/// What a location's local definitions hold besides definitions: libotf2's
/// mapping tables (local -> global ids) and how many clock offsets it has.
///
/// libotf2 maps every id field of every record it decodes, and corrects
/// every timestamp, looking the location up in the archive each time even
/// when it has no table and no offset (two lookups per record: 42 of the
/// 685 instructions per record of analysing a 1 M-record stencil,
/// bench/README.md, trace_bench round 12). The
/// analysis maps only the fields it reads (MappedIds, the same
/// OTF2_IdMap_GetGlobalId libotf2 calls), and leaves timestamps alone where
/// the location has no clock offset: the ids and times are the same.
struct MappedIds {
  std::array<const OTF2_IdMap*, OTF2_MAPPING_MAX> maps{};
  uint64_t clock_offsets = 0;

  /// `id` as libotf2 maps it: through the table of `type`, unchanged when
  /// the location has none or the table does not hold it.
  uint32_t Global(OTF2_MappingType type, uint32_t id) const {
    const OTF2_IdMap* map = maps[type];
    if (!map) return id;
    uint64_t global = 0;
    return OTF2_IdMap_GetGlobalId(map, id, &global) == OTF2_SUCCESS ? static_cast<uint32_t>(global) : id;
  }
  /// Sets `evt` up to hand over ids unmapped (Global maps them) and
  /// timestamps corrected only where there are corrections to make.
  void Configure(OTF2_EvtReader* evt) const {
    OTF2_EvtReader_ApplyMappingTables(evt, false);
    if (clock_offsets == 0) OTF2_EvtReader_ApplyClockOffsets(evt, false);
  }
};

using ReaderPtr = std::unique_ptr<OTF2_Reader, void (*)(OTF2_Reader*)>;
inline void CloseReader(OTF2_Reader* reader) {
  if (reader) OTF2_Reader_Close(reader);
}

/// Strings and region canonical names, kept to name the program of ProgramBegin.
struct DefinitionNames {
  std::unordered_map<uint32_t, std::string> strings;
  std::unordered_map<uint32_t, uint32_t> region_of_canonical;
};

/// Opens the archive, reads the global definitions, selects the rank locations of `partition`
/// (set in `*range_out`); `names` keeps the strings and regions' canonical names. Throws
/// InputError naming the file.
ReaderPtr OpenArchive(const std::string& anchor, Trace* trace, std::vector<uint64_t>* ranks,
                      RankPartition partition = {}, RankRange* range_out = nullptr,
                      DefinitionNames* names = nullptr);

/// The header's event count, bounded by the file size (a record takes >= 3
/// bytes), so that a corrupt count cannot make us reserve gigabytes.
uint64_t ExpectedEvents(const LocationTrace& rank, const std::string& event_file);

/// Reads one location's local definitions: libotf2 keeps its mapping tables
/// and clock offsets, `ids` learns where the tables are and counts the offsets.
OTF2_ErrorCode ReadLocalDefinitionsOf(OTF2_Reader* reader, OTF2_DefReader* def_reader, MappedIds* ids);

/// Reads each rank's local definitions (the id mapping tables); one MappedIds
/// per rank of `range`.
std::vector<MappedIds> ReadLocalDefinitions(OTF2_Reader* reader, const std::string& anchor,
                                            const std::vector<uint64_t>& ranks, RankRange range);

}  // namespace qnm::trace::otf2
