#pragma once
// What a reader made of a fuzz input, as text to compare: the record as CSV, or
// the one-line error. Differential targets read an input two ways (whole, and in
// pieces as a file streams from disk) and require the same outcome.
#include <functional>
#include <string>

#include "record/run_stats_json.h"
#include "util/input_error.h"

namespace qnm::fuzz {

inline std::string RecordOutcome(const std::function<RunStats()>& read) {
  try {
    return RunsToCsv({read()});
  } catch (const InputError& error) {
    return std::string("error: ") + error.what();
  }
}

}  // namespace qnm::fuzz
