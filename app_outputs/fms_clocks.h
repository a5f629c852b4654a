#pragma once
// FMS timing tables (docs/formats/fms-clocks.md): the mpp_clock statistics every model built on GFDL's
// Flexible Modeling System prints to its standard output when it ends (MOM5, MOM6, SIS2, GFDL's AM and CM
// models, SHiELD, UFS's FV3 atmosphere). FMS's mpp_exit tabulates each clock's time over the PEs of its
// pelist, the first clock being the whole run:
//   Tabulating mpp_clock statistics across     49 PEs...
//
//                                            tmin          tmax          tavg          tstd  tfrac grain pemin pemax
//   Total runtime                    16282.797785  16282.797792  16282.797789      0.000001  1.000     0     0    48
//   Ocean                            15969.542784  16000.704550  15986.765795      8.643639  0.982     1     0    48
// (FMS releases since 2019 add a `hits` column before tmin; older ones say "across PEs..." without the
// count, which pemin..pemax of the Total runtime row then gives).
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One clock's row.
struct FmsClock {
  std::string name;  // "Total runtime", "(Ocean initialization)"
  int line = 0;
  double hits = -1;  // -1: the table has no hits column
  double tmin_s = 0, tmax_s = 0, tavg_s = 0, tstd_s = 0;
  int pemin = 0, pemax = 0;
};

/// One table: one run of an FMS model.
struct FmsClockTable {
  int line = 0;  // "Tabulating mpp_clock statistics across ..."
  int npes = 0;  // the count that line says; 0: not said (older FMS)
  std::vector<FmsClock> clocks;
};

/// True when `text` holds an FMS timing table (a line beginning "Tabulating mpp_clock statistics across").
bool LooksLikeFmsClocks(std::string_view text);

/// Every table of a model's output (appended reruns each print one); throws InputError naming `path` and
/// the line of a header without tmin, tmax or tavg, a Total runtime row that does not read, or a table
/// without that row.
std::vector<FmsClockTable> ParseFmsClocks(std::string_view text, const std::string& path);

/// The record of one table: processes (its PE count), the run's time (Total runtime's slowest PE), the
/// program named by the file or its folder; the main loop's and initialisation's times as details.
RunStats FmsClockTableToRunStats(const FmsClockTable& table, const std::string& path);

}  // namespace qnm
