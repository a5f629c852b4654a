#pragma once
// What-if on a profile without a trace (mpiP, CUBE, statistics tables): the
// hypotheses a profile can express, applied to the run-statistics record so
// that the series can be fitted and predicted as it would run with them.
// A profile holds per-rank totals only: MPI time per call site and rank, and
// app time per rank (compute = app - MPI). It can express
//  - SCALE COMPUTATION F: every rank's compute time times F;
//  - SCALE MPI F: every rank's MPI time times F (waiting included: a profile
//    cannot tell waiting from service; a trace can);
//  - SCALE TRANSFER F: the MPI time of the call sites that move data
//    (point-to-point sends and receives, collectives; not Wait/Test, Barrier,
//    Init/Finalize) times F — the call's overhead and waiting go with it;
//  - SCALE REGION "R" F: the call sites of MPI function R (with or without
//    "MPI_"), or with source location / call path R, times F;
//  - BALANCE REGION "R": per-rank imbalance removed, max -> mean over ranks,
//    for R's call sites, or for "computation" (kProfileComputation) the
//    bulk-synchronous estimate: every rank's compute becomes the mean, and the
//    time each rank waited for the slowest one (max - its own compute) leaves
//    its MPI time (at most all of it), so every rank ends max - mean earlier —
//    the "load balance" loss of the POP metrics (mean / max of useful time).
// CUT REGION and CUT MESSAGE need the events of a trace (which messages, which
// instances): ApplyProfileWhatif refuses them naming the run's file.
#include <string>
#include <vector>

#include "record/run_stats.h"
#include "whatif/whatif_hypothesis.h"

namespace qnm {

/// The region name that stands for a profile's computation (all non-MPI time).
inline constexpr const char* kProfileComputation = "computation";

/// "" when a profile can express `hypothesis`, else why it needs a trace.
std::string WhyTraceNeeded(const trace::Hypothesis& hypothesis);

/// The what-if record of `run` under `hypotheses` (applied in order): per-rank
/// app and MPI times, call-site times, their means and maxima and the wall
/// time (scaled with the slowest rank's app time) changed, everything else
/// kept. `notes` (may be null) receives what a hypothesis could not show.
/// Throws InputError naming the run's file when a hypothesis needs a trace,
/// names no call site of the run, or the run lacks the times it changes.
/// With `absent_region_is_noop`, a region hypothesis naming no call site of
/// this run changes nothing in it (a P = 1 run has no Waitall) instead.
RunStats ApplyProfileWhatif(const RunStats& run, const std::vector<trace::Hypothesis>& hypotheses,
                            std::vector<std::string>* notes, bool absent_region_is_noop = false);

/// True when `region` names a call site of `run` (MPI function or location) or is "computation".
bool ProfileHasRegion(const RunStats& run, const std::string& region);

}  // namespace qnm
