#pragma once
// The two files beside a Paraver trace X.prv that name what its numbers mean
// (docs/formats/paraver.md):
//  * X.pcf, the configuration: blocks STATES (<state> <name>) and EVENT_TYPE
//    (<gradient> <type> <name> lines, then VALUES: <value> <name>);
//  * X.row, the names of the rows: LEVEL NODE SIZE <n> then n host names
//    (also LEVEL CPU / TASK / THREAD blocks).
// Read as paraver-kernel's pcfparser and its row file reader read them; both
// files are optional for Paraver, and for qnm-predict: without the .pcf the
// MPI calls of Extrae's event types are named by number.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

struct ParaverEventType {
  std::string name;                               // "MPI Point-to-point"
  std::map<std::int64_t, std::string> values;     // 1 -> "MPI_Send"
};

struct ParaverNames {
  std::map<int, std::string> states;                   // 1 -> "Running"
  std::map<std::int64_t, ParaverEventType> event_types;  // 50000001 -> {...}
  std::vector<std::string> node_names;                 // .row LEVEL NODE, node 1 first

  /// The name of `value` of event type `type`, or empty.
  std::string ValueName(std::int64_t type, std::int64_t value) const;
};

/// Adds the STATES and EVENT_TYPE blocks of a .pcf file's `text` to `names`;
/// InputError(path, line, why) on a damaged block line.
void ParseParaverPcf(std::string_view text, const std::string& path, ParaverNames* names);

/// Adds the LEVEL NODE names of a .row file's `text` to `names`;
/// InputError(path, line, why) when a LEVEL line's size is not a count or fewer names follow.
void ParseParaverRow(std::string_view text, const std::string& path, ParaverNames* names);

}  // namespace qnm
