#include "ingest/file_description.h"

#include "app_outputs/npb_output.h"
#include "ingest/input_size_limits.h"
#include "paraver/paraver_header.h"
#include "profiles/mpip_report.h"
#include "textio/compressed_file.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"

namespace qnm {

std::string DescribeFile(const std::string& path) {
  const std::string head = ReadFileHead(path, kSniffHeadBytes);
  auto whole = [&] {
    return head.size() < kSniffHeadBytes ? head
                                         : ReadFile(path, InputReadLimitBytes(path, FileSizeBytes(path), head, 0));
  };
  if (LooksLikeMpipReport(head)) return DescribeMpipReport(ParseMpipReport(whole(), path));
  if (LooksLikeNpbOutput(head)) return DescribeNpbOutput(ParseNpbOutput(whole(), path));
  // A trace's header is its first line(s), in the head (unpacked when the trace is compressed).
  const std::string plain = CompressionOf(head).empty() ? head : UnpackedHead(head, kSniffHeadBytes);
  if (LooksLikeParaverTrace(plain) && plain.find('\n') != std::string::npos)
    return "Paraver trace " + path + "\n" + DescribeParaverHeader(ParseParaverHeader(plain, path));
  return "";
}

}  // namespace qnm
