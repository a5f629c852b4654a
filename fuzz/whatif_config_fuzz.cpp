// libFuzzer target: a what-if config (SILAS-like hypothesis lines) applied to
// the synthetic 4-rank trace. Parsing and re-timing must end in a result with
// finite, non-negative times or an InputError, nothing else.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "trace/otf2_reader.h"
#include "util/input_error.h"
#include "whatif/whatif_simulation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const qnm::trace::Trace trace =
      qnm::trace::ReadOtf2Trace(std::string(QNM_SOURCE_DIR) + "/tests/data/otf2/synthetic-patterns-4rank");
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  qnm::trace::WhatifOptions options;
  options.analyze_wait_states = false;
  std::string text;
  int line = 0;
  try {
    while (std::getline(lines, text)) {
      qnm::trace::Hypothesis hypothesis;
      if (qnm::trace::ParseHypothesisLine(text, "fuzz.cfg", ++line, &hypothesis))
        options.hypotheses.push_back(hypothesis);
    }
    const qnm::trace::WhatifResult result = qnm::trace::SimulateWhatif(trace, options);
    const double simulated = result.summary.simulated_runtime_s;
    if (!std::isfinite(simulated) || simulated < 0) std::abort();
  } catch (const qnm::InputError&) {
  }
  return 0;
}
