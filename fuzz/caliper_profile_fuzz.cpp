// libFuzzer target: the .cali stream reader and the record built from it
// (caliper/caliper_stream.h, caliper/caliper_profile.h) must turn any bytes into
// a record or an InputError (file:line), never crash, hang or throw anything else.
// The text is read whole and again in pieces of a few bytes, as a file streams
// from disk (line_reader.h): both must say the same.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "caliper/caliper_profile.h"
#include "fuzz/record_outcome.h"
#include "textio/line_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string whole =
      qnm::fuzz::RecordOutcome([&] { return qnm::ReadCaliperProfile(text, "profile.cali"); });
  qnm::LineReader lines(qnm::LineReader::PiecesOf(text, 1 + size % 17), "profile.cali", qnm::kCaliperMaxLineBytes);
  const std::string pieces =
      qnm::fuzz::RecordOutcome([&] { return qnm::ReadCaliperProfile(lines, "profile.cali"); });
  if (pieces != whole) __builtin_trap();
  return 0;
}
