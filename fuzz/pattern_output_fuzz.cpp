// libFuzzer target: any bytes read by the user's patterns (app_outputs/pattern_output.h; PENNANT's
// four, the ones docs/formats/output-patterns.md shows) become one run or an InputError
// (file:line), never a crash, a hang or anything else thrown. The line length limit keeps
// std::regex's recursion off the stack on long lines.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "app_outputs/pattern_output.h"
#include "reader/file_name_info.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const qnm::RunSelection selection = [] {
    qnm::RunSelection s;
    for (const char* spec : {R"(time=hydro cycle run time=\s*(\S+))", R"(procs=Running on (\d+) MPI PE)",
                             R"(threads=Running on (\d+) thread)", R"(class=^Zones:\s+(\d+))"})
      s.output_patterns.push_back(qnm::ParseOutputPattern(spec));
    return s;
  }();
  qnm::ReaderInput input;
  input.path = "fuzz-np4.out";
  input.text = std::string_view(reinterpret_cast<const char*>(data), size);
  input.name = qnm::ParseFileName(input.path);
  input.selection = &selection;
  try {
    (void)qnm::RunsToCsv(qnm::ReadByOutputPatterns(input).runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
