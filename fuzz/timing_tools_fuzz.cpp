// libFuzzer target: what timing tools recorded (timing_tools/) and the launch commands in it (launch/) —
// hyperfine's exports, reports of `time`, any command line — must turn any bytes into records or an
// InputError (file:line), never crash, hang or throw anything else. The first byte picks the reader:
// 0 hyperfine's JSON export, 1 its summary exports (CSV, Markdown, Org, AsciiDoc), 2 a report of time (named
// for 4 processes), 3 a command line.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "launch/launch_command.h"
#include "reader/file_name_info.h"
#include "record/run_stats_json.h"
#include "timing_tools/hyperfine_export.h"
#include "timing_tools/time_report.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const int kind = data[0] % 4;
  if (kind == 3) {
    const qnm::LaunchCommand launch = qnm::ParseLaunchCommand(text);
    (void)qnm::LaunchDerivation(launch, launch.procs_from);
    return 0;
  }
  qnm::ReaderInput input;
  input.path = kind == 0 ? "runs.json" : kind == 1 ? "fuzz-no-such-folder/runs.csv" : "app_np4.log";
  input.text = text;
  input.name = qnm::ParseFileName(input.path);
  try {
    if (kind == 2) {
      if (qnm::HasTimeReport(text)) (void)qnm::RunsToCsv(qnm::ReadTimeReport(input).runs);
    } else if (kind == 0 ? qnm::LooksLikeHyperfineJson(text)
                         : qnm::LooksLikeHyperfineCsv(text) || qnm::LooksLikeHyperfineMarkup(text)) {
      (void)qnm::RunsToCsv(qnm::ReadHyperfineExport(input).runs);
    }
  } catch (const qnm::InputError&) {
  }
  return 0;
}
