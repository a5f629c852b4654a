// libFuzzer target: files compressed as a whole (textio/compressed_file.h,
// gzip_member.h) and tar and zip archives of runs (run_archive.h) must unpack to their
// bytes or throw an InputError naming the file, within the limit, never crash,
// hang or throw anything else; a gzip stream is unpacked by both zlib (Unpack)
// and libarchive (UnpackedHead), and by zlib again fed a few bytes at a time.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/run_archive.h"
#include "textio/compressed_file.h"
#include "textio/gzip_member.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string head = qnm::UnpackedHead(bytes, 4096);
  if (head.size() > 4096) __builtin_trap();
  const bool compressed = !qnm::CompressionOf(bytes).empty();
  const std::string name = qnm::IsZipHead(bytes) ? "fuzz.zip" : "fuzz.tar";
  if (qnm::IsArchiveOfRuns(name, compressed ? std::string_view(head) : bytes.substr(0, 512))) {
    try {
      qnm::ForEachArchivedFile(bytes, name, 1 << 20, [](qnm::ArchivedFile member) {
        if (member.bytes.size() > (1 << 20)) __builtin_trap();
      }, nullptr);  // no trace unpacked to disk: members only
    } catch (const qnm::InputError&) {
    }
    return 0;
  }
  if (!compressed) return 0;
  std::string whole, whole_error;
  try {
    whole = qnm::Unpack(bytes, "fuzz.mpiP.gz", 1 << 20);
    if (whole.size() > (1 << 20)) __builtin_trap();
  } catch (const qnm::InputError& error) {
    whole_error = error.what();
  }
  if (!qnm::IsGzip(bytes)) return 0;
  // The same gzip stream fed to the inflater a few bytes at a time, as a file streams from disk
  // (streamed_file.h): the same bytes, or the same error.
  std::string pieces, pieces_error;
  try {
    qnm::GzipInflater inflater(qnm::BytesInSteps(bytes, 1 + size % 13), "fuzz.mpiP.gz", "the file", 1 << 20);
    std::string_view piece;
    while (inflater.Next(&piece)) pieces.append(piece);
  } catch (const qnm::InputError& error) {
    pieces_error = error.what();
  }
  if (pieces_error != whole_error || (whole_error.empty() && pieces != whole)) __builtin_trap();
  return 0;
}
