#pragma once
// Darshan logs (docs/formats/darshan.md): the record Darshan, the I/O characterisation tool that many
// HPC centres (NERSC, ALCF, OLCF and others) run with every MPI job, writes when the job ends. Only its
// job record is read: the processes, the run time between MPI_Init and MPI_Finalize, the command line and
// the job id; the I/O modules' records after it are not. Two forms:
//   - the binary log itself (`<user>_<exe>_id<jobid>_<date>-<hash>_<n>.darshan`): an uncompressed header
//     (darshan-log-format.h, struct darshan_header: the version string, the magic number 6567223 that also
//     tells the byte order, the compression, the regions' offsets), then the job region, compressed with
//     zlib or bzip2 (struct darshan_job, the command line after it). Log format versions 3.00 to 3.41,
//     as darshan-util 3.4/3.5 reads them (darshan-logutils.c): 3.41 keeps nanoseconds of the start and end
//     and a header of 64 modules, earlier ones whole seconds and 16 modules;
//   - what `darshan-parser` prints of it: "# darshan log version: 3.41", "# exe: ...", "# nprocs: 128",
//     "# run time: 780.0000", "# metadata: lib_ver = 3.4.0".
// The run time is darshan-parser's: end - start with nanoseconds from 3.41 on, else end - start + 1 (whole
// seconds, the + 1 darshan-util adds for a run that started and ended within one second).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// What a Darshan log's job record says (struct darshan_job and the command line after it).
struct DarshanJob {
  std::string log_version;  // "3.41"
  std::string compression;  // "ZLIB", "BZIP2", "NONE"
  long long uid = 0;
  long long jobid = 0;
  long long start_time_s = 0;  // seconds since the epoch
  long long end_time_s = 0;
  long long nprocs = 0;
  double run_time_s = 0;       // as darshan-parser prints it (above)
  bool whole_seconds = false;  // a log format before 3.41: the run time is end - start + 1
  std::string exe;  // the command line, as Darshan kept it (maybe obfuscated by darshan-convert), blanks trimmed;
                    // empty when Darshan cut it (darshan-parser prints none then)
  std::vector<std::pair<std::string, std::string>> metadata;  // "lib_ver" = "3.4.0", "h" = hints
  bool partial = false;  // some module ran out of memory for its records (the job record is whole)
  int line = 0;          // of the text form: the line of "# nprocs"; 0 for a binary log
};

/// True when `head` starts like a binary Darshan log: a version string "3.xx" (or "2.xx"), NUL-padded to 8
/// bytes, then the magic number in either byte order.
bool LooksLikeDarshanLog(std::string_view head);

/// True when `text` is darshan-parser's output: its first line is "# darshan log version: ...".
bool LooksLikeDarshanParserOutput(std::string_view text);

/// Reads a binary log's job record from its first bytes (the header and the job region; the modules' regions
/// after them are not needed). Throws InputError naming `path` for a version darshan-util does not read, a bad
/// magic number, a job region that does not unpack, or a record without processes or with its end before its
/// start.
DarshanJob ReadDarshanLogJob(std::string_view bytes, const std::string& path);

/// Reads the job summary at the top of darshan-parser's output; InputError(path, line, ...) as above.
DarshanJob ReadDarshanParserJob(std::string_view text, const std::string& path);

/// The run's record: processes, wall time, the program from the command line's first word and its arguments
/// (a setting: two inputs are two series), the job id and Darshan's version as details.
RunStats DarshanJobToRunStats(const DarshanJob& job, const std::string& path);

}  // namespace qnm
