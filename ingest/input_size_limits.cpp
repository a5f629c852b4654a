#include "ingest/input_size_limits.h"

#include <algorithm>
#include <cstring>

#include "ingest/reader_table.h"
#include "paraver/paraver_trace.h"
#include "textio/compressed_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// Per format, by the reader-table row's name (reader_table.h). A CUBE profile is
// binary and mostly skipped member by member; the text formats cost several
// times their size in records, so their limit is lower.
long long LimitOf(const char* reader_name) {
  if (std::strncmp(reader_name, "CUBE4", 5) == 0) return 512LL << 20;
  // A large code's calling context tree: hundreds of thousands of nodes (the metric-db files are
  // read by the reader under their own limit).
  if (std::strncmp(reader_name, "HPCToolkit", 10) == 0) return 256LL << 20;
  // A .cali profile or a Paraver trace on disk streams through its reader (Reader::streams) and
  // meets no limit here; these are for one held whole: a member of an archive of runs not named
  // as a trace (docs/formats/caliper.md, paraver.md). Caliper's json-split twin is parsed whole
  // (a JSON tree of several times its size): the text formats' limit.
  if (std::strncmp(reader_name, "Caliper region profile (.cali", 29) == 0) return 256LL << 20;
  if (std::strncmp(reader_name, "Paraver trace", 13) == 0) return kParaverMaxBytes;
  return 64LL << 20;
}

}  // namespace

long long InputReadLimitBytes(const std::string& path, long long size_bytes, std::string_view head,
                              long long override_bytes, long long unrecognised_bytes) {
  long long limit = 0;
  std::string formats;
  for (const Reader& reader : ReaderTable())
    if (reader.sniff(path, head)) {
      limit = std::max(limit, LimitOf(reader.name));
      if (formats.empty()) formats = reader.name;
    }
  // A compressed file or a tar archive of runs is read whole before it is
  // unpacked; what it holds meets its own format's limit as it unpacks
  // (compressed_file.h, run_archive.h), as large as a CUBE4 profile may be.
  const std::string compression = CompressionOf(head);
  if ((!compression.empty() || IsTarHead(head) || IsZipHead(head)) && limit < (512LL << 20)) {
    limit = 512LL << 20;
    formats = !compression.empty() ? compression + "-compressed file" : IsZipHead(head) ? "zip archive" : "tar archive";
  }
  const bool recognised = limit > 0;
  if (!recognised) limit = unrecognised_bytes;
  if (override_bytes > 0) limit = override_bytes;
  if (size_bytes > limit)
    throw InputError(path, 0,
                     "not read: " + FormatByteSize(static_cast<double>(size_bytes)) + ", larger than the " + FormatByteSize(static_cast<double>(limit)) + " limit for " +
                         (override_bytes > 0 ? "any file (--max-file-size)"
                          : recognised       ? "a file that looks like " + formats
                                             : "a file whose first " + std::to_string(kSniffHeadBytes / 1024) +
                                                   " KB no reader recognises" +
                                                   (unrecognised_bytes > kUnrecognisedMaxBytes ? " (--pattern)" : "")));
  return limit;
}

}  // namespace qnm
