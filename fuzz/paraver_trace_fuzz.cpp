// libFuzzer target: the Paraver trace reader (paraver/paraver_trace.h with its header, .pcf and .row
// parsers) must turn any bytes into a record or an InputError (file:line), never crash, hang or throw
// anything else. The input is the trace, then optionally "\n%%\n" and its .pcf, then "\n%%\n" and its
// .row, so the three files are fuzzed together. The trace is read whole and again in pieces of a few
// bytes, as it streams from disk: both must say the same.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/record_outcome.h"
#include "paraver/paraver_trace.h"

namespace {

std::string_view TakePart(std::string_view* rest) {
  const std::size_t at = rest->find("\n%%\n");
  const std::string_view part = rest->substr(0, at);
  *rest = at == std::string_view::npos ? std::string_view{} : rest->substr(at + 4);
  return part;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  const std::string_view trace = TakePart(&rest);
  qnm::ParaverCompanions companions;
  if (!rest.empty()) {
    companions.pcf_path = "trace.pcf";
    companions.pcf_text = std::string(TakePart(&rest));
  }
  if (!rest.empty()) {
    companions.row_path = "trace.row";
    companions.row_text = std::string(rest);
  }
  const std::string whole =
      qnm::fuzz::RecordOutcome([&] { return qnm::ReadParaverTrace(trace, "trace_4.prv", companions); });
  // The same trace in pieces of a few bytes, as it streams from disk (line_reader.h): the same
  // record, or the same error on the same line.
  qnm::LineReader lines(qnm::LineReader::PiecesOf(trace, 1 + size % 17), "trace_4.prv", qnm::kParaverMaxLineBytes);
  const std::string pieces =
      qnm::fuzz::RecordOutcome([&] { return qnm::ReadParaverTrace(lines, "trace_4.prv", companions); });
  if (pieces != whole) __builtin_trap();
  return 0;
}
