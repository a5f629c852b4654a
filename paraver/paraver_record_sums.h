#pragma once
// The body of a Paraver trace (paraver_trace.h) summed as it streams by: per
// thread its time in each state (Running, "Tracing disabled"), per task the
// time inside MPI calls (Extrae's event types 50000001-50000005, a call's
// value at its start, 0 at its end), messages and bytes from the
// communication records and collective bytes (50100001), per MPI routine its
// time and calls per task. Memory is a few numbers per thread and per routine
// and task, whatever the trace's length; records are checked as they are met
// (objects the header has, times within the trace, calls that end the call
// they began, states that do not overlap, a body that reaches the header's
// end time).
#include <memory>
#include <string>

#include "paraver/paraver_header.h"
#include "paraver/paraver_names.h"
#include "record/run_stats.h"
#include "textio/line_reader.h"

namespace qnm {

class ParaverRecordSums {
 public:
  /// The sums of a trace of `header`'s tasks and threads, read from `path` (named in errors; both must outlive this).
  ParaverRecordSums(const ParaverHeader& header, const std::string& path);
  ~ParaverRecordSums();
  ParaverRecordSums(const ParaverRecordSums&) = delete;
  ParaverRecordSums& operator=(const ParaverRecordSums&) = delete;

  /// Sums every record of `lines`, the body after the header and the
  /// communicator lines; InputError(path, line, why) where it is damaged.
  void Read(LineReader& lines);
  /// The run the sums make, the MPI routines named by `names` (the .pcf) and
  /// the hosts from them (the .row).
  RunStats ToRun(const ParaverNames& names) const;

 private:
  class Impl;  // paraver_record_sums.cpp
  std::unique_ptr<Impl> impl_;
};

}  // namespace qnm
