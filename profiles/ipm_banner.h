#pragma once
// IPM's banner (docs/formats/ipm-log.md, "The banner"): what IPM prints on the
// job's stdout at MPI_Finalize, a summary over the ranks of the XML log it
// writes beside (ipm_log.h). The XML log is often not kept (IPM_LOG=none, or
// only the job's output file survives), so a banner is a run of its own:
//
//   ##IPMv2.0.6########################################################
//   # command   : /path/to/ring
//   # start     : Sun Nov 29 05:55:20 2026   host      : vm
//   # stop      : Sun Nov 29 05:55:21 2026   wallclock : 1.02
//   # mpi_tasks : 4 on 1 nodes               %comm     : 37.32
//   #           :       [total]        <avg>          min          max
//   # wallclock :          4.08         1.02         1.01         1.02
//   # MPI       :          1.52         0.38         0.37         0.39
//   # #calls    :
//   #   MPI     :          1616          404          404          404
//   #                             [time]        [count]        <%wall>
//   # MPI_Sendrecv                  0.82            800          20.05
//
// Read: processes and nodes, per-rank wall clock and MPI time as mean and max
// (the banner has no per-rank rows), MPI calls per rank, and per MPI function
// its time and calls summed over the ranks. No bytes: IPM's banner counts none.
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

struct IpmBanner {
  std::string version;  // "2.0.6"
  std::string command, host, start;  // as printed
  int tasks = 0, nodes = 0;
  double wallclock_s = kUnknown;  // the header's: the job's
  // [total], <avg>, min, max over the ranks.
  double wall_total_s = kUnknown, wall_mean_s = kUnknown, wall_min_s = kUnknown, wall_max_s = kUnknown;
  double mpi_total_s = kUnknown, mpi_mean_s = kUnknown, mpi_min_s = kUnknown, mpi_max_s = kUnknown;
  double mpi_calls_mean = kUnknown;
  struct Call {
    std::string function;  // "MPI_Sendrecv"
    double time_s = 0, count = 0;  // summed over the ranks
  };
  std::vector<Call> calls;
};

/// The first banner of `text` (a job's stdout); InputError(path, line, why) where it is not IPM's.
IpmBanner ParseIpmBanner(std::string_view text, const std::string& path);

/// The banner's (or ipm_parse's report's) start as seconds since the epoch, read as UTC (IPM prints local time: a job's
/// XML log stamps UTC seconds, so the two differ by the zone's offset); -1 when unreadable.
long long IpmBannerStartUtc(const IpmBanner& banner);

/// The XML log of the banner's run beside `path` (the same folder, named *.ipm.xml): its <job>
/// has the banner's task count and a start that differs from the banner's by a time zone's offset
/// (a multiple of 15 minutes, at most 14 hours), and its command is the banner's. Empty when none.
std::string IpmLogOfBanner(const IpmBanner& banner, const std::string& path);

/// The origin (RunStats::origin, a measurement's own) of one IPM run, whichever of its files it is
/// read from: the job's banner, ipm_parse's report of its log, or the XML log (ipm_log.h). The same
/// command, host of rank 0 and task count, and a start within a time zone's offset: the banner and
/// the report print local time, maybe of different zones, the log UTC seconds, so the start counts
/// modulo 15 minutes (every zone's offset is a multiple of it).
std::string IpmRunOrigin(const std::string& command, const std::string& host, int tasks, long long start_s);

/// The run of a banner read from `path`.
RunStats IpmBannerToRunStats(const IpmBanner& banner, const std::string& path);

}  // namespace qnm
