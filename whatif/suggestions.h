#pragma once
// `whatif --suggest`: hypotheses worth trying, from what the trace shows, each
// simulated and ranked by its gain at the traced process count.
#include <string>
#include <vector>

#include "trace/trace_events.h"
#include "whatif/whatif_hypothesis.h"

namespace qnm::trace {

struct Suggestion {
  Hypothesis hypothesis;
  std::string reason;  // why it was proposed
  double simulated_runtime_s = 0, gain_s = 0, gain_percent = 0;
};

struct SuggestionReport {
  double original_runtime_s = 0;
  std::vector<Suggestion> ranked;  // largest gain first (ties: proposal order)
};

/// Candidates: BALANCE REGION for each computation region (not MPI, not
/// measurement-off) entered by two or more ranks whose exclusive time is
/// imbalanced over ranks (max > mean; the `max_regions` with the largest
/// max - mean), and each computation region whose MPI calls the wait states
/// find waiting (Late Sender, Wait at Barrier / N×N, ...: the computation
/// before the wait is in the caller; the `max_regions` with the most waiting),
/// the regions the late senders were computing in (the parent of the call
/// completing a late send: the cause of Late Sender waiting, not where it
/// shows), and the regions the dissimilarity ranking puts first (SID_C, Calzarossa et
/// al. 2004, eq. 6; the `max_regions` first not proposed yet),
/// in global instance mode where every rank enters it equally often, else
/// scaled (Hermanns 2008, §3.4.2); CUT MESSAGE SIZE == 0 if the
/// trace has zero-byte messages (they only synchronise, §3.4.4). Each is
/// simulated alone (SimulateWhatif without wait states).
SuggestionReport SuggestHypotheses(const Trace& trace, std::size_t max_regions = 8);

std::string SuggestionTable(const SuggestionReport& report, const std::string& trace_path);
std::string SuggestionJson(const SuggestionReport& report, const std::string& trace_path);

}  // namespace qnm::trace
