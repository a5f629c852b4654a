#pragma once
// A Paraver trace (.prv; docs/formats/paraver.md) as one run: Extrae's traces
// of MPI codes, the format of BSC's Paraver and of the POP Centre of
// Excellence's efficiency metrics. The body's records (paraver-kernel,
// utils/traceparser/tracebodyio_v1.cpp):
//
//   1:cpu:appl:task:thread:begin:end:state                     a state
//   2:cpu:appl:task:thread:time:type:value[:type:value...]     events
//   3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag   a message
//
// What the record takes:
//  * per task (MPI rank): the time of its first thread without "Tracing
//    disabled" (state 14), as POP's Total Runtime counts it; the time inside
//    MPI calls, from Extrae's MPI event types 50000001-50000005 (a call's value
//    at its start, 0 at its end), one call site per MPI routine with its time
//    and calls per rank;
//  * messages and bytes sent from the communication records, bytes sent by
//    collectives from "Send Size in MPI Global OP" (50100001);
//  * the run's duration from the header; hosts and nodes from the header and
//    the .row file;
//  * POP's efficiencies (load balance, communication and parallel efficiency,
//    from the time in state Running, "useful computation") as details.
//
// A trace on disk is read as it streams by (ReadParaverTraceFile): memory is
// the sums, not the trace, whatever its size.
#include <cstddef>
#include <string>
#include <string_view>

#include "record/run_stats.h"
#include "textio/line_reader.h"

namespace qnm {

/// A trace on disk streams through its reader whatever its size (its sums are
/// the memory); this limit is for a trace held whole: one not named .prv in
/// an archive of runs, whose members are also limited to 512 MiB each
/// (README "Input size limits"; `ingest --max-file-size` sets another).
inline constexpr long long kParaverMaxBytes = 1024LL << 20;
/// The longest line read (the header names every task: 8 bytes or so each).
inline constexpr std::size_t kParaverMaxLineBytes = 256u << 20;

/// The .pcf and .row files beside a trace (empty paths where there are none).
struct ParaverCompanions {
  std::string pcf_path, pcf_text;
  std::string row_path, row_text;
};

/// The run of the Paraver trace `text` (read from `path`); InputError(path,
/// line, why) where it is damaged: a header or record that is not Paraver's,
/// a task or thread the header does not have, a time past the trace's end, an
/// MPI call that ends another call's kind, several applications in one trace.
RunStats ReadParaverTrace(std::string_view text, const std::string& path, const ParaverCompanions& companions);
/// The same, for the lines of a trace as they stream by.
RunStats ReadParaverTrace(LineReader& lines, const std::string& path, const ParaverCompanions& companions);
/// The same for the trace file at `path` (plain or compressed), read piece by
/// piece: memory is the reader's sums, not the file. `max_bytes` > 0 refuses
/// a trace larger than that; `digest` (optional) gets ContentDigest of the
/// whole unpacked trace.
RunStats ReadParaverTraceFile(const std::string& path, long long max_bytes, const ParaverCompanions& companions,
                              std::string* digest);

/// The .pcf and .row files beside the trace at `path` (X.prv, or X.prv.gz and
/// other compressions: X.pcf, X.row), read from disk where they exist.
ParaverCompanions FindParaverCompanions(const std::string& path, double* bytes_read);

/// True for X.pcf or X.row with a trace X.prv (or compressed) beside it: a
/// file the trace's reader reads, not a run of its own.
bool IsPartOfParaverTrace(const std::string& path);

}  // namespace qnm
