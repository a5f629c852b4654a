#pragma once
// ESMF's profile summaries (docs/formats/esmf-profile.md): ESMF_Profile.summary, which the Earth System
// Modeling Framework writes when a run sets ESMF_RUNTIME_PROFILE=ON and ESMF_RUNTIME_PROFILE_OUTPUT to
// SUMMARY (UFS's coupled and weather models, CESM's and NorESM's NUOPC builds, ACCESS-OM3, ...). One row
// per timed region, nested by indentation, each reduced over the PETs (MPI processes) that ran it; the
// first row, [ESMF], is the whole run from ESMF_Initialize to ESMF_Finalize:
//   Region                         PETs   PEs    Count    Mean (s)    Min (s)     Min PET Max (s)     Max PET
//     [ESMF]                       1664   1664   1        2558.5684   2555.1450   279     2559.5801   817
//       [ICE] RunPhase1            364    364    960      155.8202    154.7637    94      160.2443    0
// (ESMF before 8.1 prints no PEs column; PEs counts a PET's threads too).
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One region's row.
struct EsmfRegion {
  std::string name;  // "[ESMF]", "[ICE] RunPhase1", "cice_run_total"
  int depth = 0;     // its indentation in steps of two blanks, [ESMF] at 1
  int line = 0;
  int pets = 0, pes = 0;  // pes 0: the summary has no PEs column
  double count = 0, mean_s = 0, min_s = 0, max_s = 0;
};

/// True when `text` is an ESMF profile summary: its header line (Region, PETs, Count, Mean (s), ...).
bool LooksLikeEsmfProfileSummary(std::string_view text);

/// The regions of a summary; throws InputError naming `path` and the line of a header without PETs,
/// Mean (s) or Max (s), a row of the wrong shape, or when it has no [ESMF] row.
std::vector<EsmfRegion> ParseEsmfProfileSummary(std::string_view text, const std::string& path);

/// The record of a summary: processes (the [ESMF] row's PETs), OpenMP threads (its PEs per PET), the run's
/// time (its slowest PET), the application "esmf" (the summary names no model).
RunStats EsmfProfileToRunStats(const std::vector<EsmfRegion>& regions, const std::string& path);

}  // namespace qnm
