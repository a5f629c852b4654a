// libFuzzer target: any bytes read by the user's patterns (app_outputs/pattern_output.h: PENNANT's
// four and miniAMR's measured values with reductions, as docs/formats/output-patterns.md shows
// them) become runs or an InputError (file:line), never a crash, a hang or anything else thrown; and the patterns
// the bytes suggest for themselves (reader/pattern_suggestion.h), parsed and read as ingest tries them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "app_outputs/pattern_output.h"
#include "reader/file_name_info.h"
#include "reader/pattern_suggestion.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const qnm::RunSelection selection = [] {
    qnm::RunSelection s;
    // One pattern a field (reader/output_patterns.h, AddOutputPattern): PENNANT's run time or miniAMR's.
    for (const char* spec : {R"(time:max=(?:hydro cycle run time=\s*|^Summary: .* time )(\S+))",
                             R"(procs=Running on (\d+) MPI PE)", R"(threads=Running on (\d+) thread)",
                             R"(class=^Zones:\s+(\d+))", R"(mpi_time:first=^\s+Wait time\s+:\s*(\S+))",
                             R"(messages:sum=^\s+Messages sent\s+:\s*(\S+))", R"(bytes:min=^\s+Bytes sent\s+:\s*(\S+))",
                             R"(app_time_ms:mean=^Total time for test: .*: (\S+))"})
      qnm::AddOutputPattern(qnm::ParseOutputPattern(spec), &s.output_patterns);
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
  const qnm::SuggestedPatterns suggested = qnm::SuggestOutputPatterns(input.text);
  qnm::RunSelection tried;
  for (const std::string* spec : {&suggested.procs, &suggested.time})
    if (!spec->empty()) qnm::AddOutputPattern(qnm::ParseOutputPattern(*spec), &tried.output_patterns);  // must parse
  input.selection = &tried;
  try {
    (void)qnm::RunsToCsv(qnm::ReadByOutputPatterns(input).runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
