#pragma once
// The first line of a Paraver trace (.prv; BSC's Paraver, written by Extrae,
// and by converters such as otf2prv): the trace's end time and unit, the
// machine (nodes and their CPUs) and the process model (applications, their
// tasks = MPI ranks, each task's threads and node). docs/formats/paraver.md.
//
//   #Paraver (dd/mm/yyyy at hh:mm):<end time>[_ns|_us|_ms]:<resources>:<applications>[,<communicators>]
//   resources:    <nodes>(<cpus of node 1>,...,<cpus of node n>)  or 0 (none)
//   applications: <count>:<tasks>(<threads>:<node>,...):<tasks>(...)...
//
// Read as paraver-kernel reads it (utils/traceparser/traceheader.h,
// resourcemodel.cpp, processmodel.cpp): a time without a unit is in
// microseconds; a task's node is 1-based when there are resources. Where
// paraver-kernel prints an error and goes on, this refuses the file.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

struct ParaverTask {
  int threads = 1;
  int node = 0;  // 1-based; 0 when the header names no resources
};

struct ParaverHeader {
  std::string date;             // "09/10/2019 at 16:08", as written
  std::uint64_t end_time = 0;   // in `unit_s` units
  double unit_s = 1e-6;         // _ns 1e-9, _us (or none) 1e-6, _ms 1e-3
  std::vector<int> cpus_per_node;  // empty: no resource model
  std::vector<std::vector<ParaverTask>> applications;  // [application][task]
  int communicators = 0;        // lines `c:...`/`i:...` that follow the header
  int header_lines = 1;         // 2 when a "new format" line precedes it

  double EndTimeSeconds() const { return static_cast<double>(end_time) * unit_s; }
};

/// True when `text` starts like a Paraver trace ("#Paraver (", or "new format" then it).
bool LooksLikeParaverTrace(std::string_view text);

/// True when `line` is the "new format" line some writers put before the header.
bool StartsWithParaverNewFormat(std::string_view line);

/// What the header says, one fact a line, for `ingest --show`: when the trace
/// was written, its end time and unit, the nodes and their CPUs, the
/// application's tasks with their threads and nodes, the communicator lines.
std::string DescribeParaverHeader(const ParaverHeader& header);

/// Parses the header line(s) at the start of `text`; InputError(path, line,
/// why) where they are not Paraver's.
ParaverHeader ParseParaverHeader(std::string_view text, const std::string& path);

}  // namespace qnm
