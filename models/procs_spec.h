#pragma once
// Process-count lists given on the command line (`--procs`, `--train`).
#include <string>
#include <vector>

namespace qnm {

/// Parses a comma-separated list of items, each `n`, `a..b` (every integer),
/// `a..b:x<k>` (geometric: a, a*k, ... <= b) or `a..b:+<k>` (a, a+k, ... <= b).
/// Returns the process counts sorted and unique. Throws InputError naming
/// `option` (e.g. "--procs") and the offending item on a bad spec.
std::vector<int> ParseProcsSpec(const std::string& spec, const std::string& option = "--procs");

/// Upper bound on a process count and on the length of a list (guards
/// against typos such as 1..1e9 that would run for hours).
constexpr int kMaxProcs = 1 << 22;
constexpr int kMaxProcsListLength = 100000;

}  // namespace qnm
