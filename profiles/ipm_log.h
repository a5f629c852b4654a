#pragma once
// IPM (Integrated Performance Monitoring, NERSC) XML logs
// (docs/formats/ipm-log.md): `<ipm_job_profile>` with one `<task>` per MPI
// rank, written at MPI_Finalize to `<user>.<stamp>.ipm.xml` (IPM_LOG=terse or
// full). Read as IPM's own ipm_parse reads it: per rank the wall clock and MPI
// time of `<perf>`, per MPI call the `<hent>` hash entries (call, bytes per
// call, partner rank, count, total time).
//
// IPM's banner on the job's stdout (`##IPMv2.0.6###...`) summarises the same
// log over the ranks: read as a run when its log is not beside it (ipm_banner.h).
#include <string>
#include <string_view>

#include "record/run_stats.h"

namespace qnm {

/// True when `text` is an IPM XML log (its root element `ipm_job_profile`).
bool LooksLikeIpmXml(std::string_view text);

/// True when `text` holds IPM's banner (a line starting "##IPMv").
bool HasIpmBanner(std::string_view text);

/// The run of one IPM XML log; InputError(path, line, why) where it is
/// damaged: not XML, no tasks, a rank missing or twice, a negative or
/// non-finite time, MPI time above a rank's wall clock.
RunStats ReadIpmXml(std::string_view text, const std::string& path);

}  // namespace qnm
