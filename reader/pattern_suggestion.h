#pragma once
// Patterns a program's output suggests for itself (docs/formats/output-patterns.md, "Suggested patterns"): most
// course codes and in-house solvers print their process count and run time in a line of their own ("Doing 3000
// power iterations ... over 8 processes", "... in 147.305769 second(s) time.", "No. of processors: 2", "Total
// Runtime = 1.378e+01 seconds"), and no reader of ours knows them. From such lines the `--pattern`s that read them
// are written out, so a user of an unknown output is told what to try instead of how patterns work. A suggestion
// is only offered after the pattern reader has read a run with it (ingest/ingest.cpp).
//
// A process count: a word that names processes (processes, processors, procs, ranks, tasks, nprocs, np, "MPI
// processes") next to a whole number, after it ("processes = 8", "No. of processors: 2") or before it ("over 8
// processes", "with 40 MPI processes"). A run time: a phrase that names one (elapsed time, wall time, wall clock,
// run time, runtime, total time, execution time, time taken, took, time) followed by a number and, maybe, its unit
// ("Elapsed time: 1.28", "Took 0.70s", "Total   Runtime = 1.378e+01 seconds"), or a number followed by seconds
// ("in 147.3 second(s)"). The first line of each kind is the one a pattern is written from; a run time phrase
// ranks above the bare word "time". The pattern is the line's text from the phrase to the number, its blanks
// written as \s+ and its other characters escaped, and the number's group.
#include <string>
#include <string_view>

namespace qnm {

struct SuggestedPatterns {
  std::string procs;  // "procs=over\s+(\d+)\s+processes"; empty when no line names a process count
  std::string time;   // "time=in\s+([0-9.]+(?:[eE][-+]?[0-9]+)?)\s+second", or time_ms=...; empty when none
  int procs_line = 0, time_line = 0;  // 1-based lines they were written from

  bool Complete() const { return !procs.empty() && !time.empty(); }
  /// "--pattern 'procs=...' --pattern 'time=...'" (the parts there are).
  std::string Options() const;
};

/// The patterns `text`'s lines suggest (its first 2 MB; lines longer than 400 characters are passed over).
SuggestedPatterns SuggestOutputPatterns(std::string_view text);

}  // namespace qnm
