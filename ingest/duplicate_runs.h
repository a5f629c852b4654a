#pragma once
// The same measurement read from several files counts once. Three cases:
//  1. Copies: two records of one origin (RunStats::origin: the digest of the
//     file's bytes and the place in the file, e.g. an Extra-P call path,
//     point and repetition index) in one series — one file read under two
//     folders (identical files side by side in one folder are that folder's
//     repetitions). Found by hashing origins (linear time); equal numbers
//     alone never merge runs.
//  2. Citations: a table row whose `source` names a file that was read (or
//     the same document another row cites) with equal app, class, procs and
//     time is that file's measurement; the file's record is kept and takes
//     from the row what it lacks (the machine).
//  3. Summaries: a table row whose `source` is a file-name pattern with <…>
//     placeholders ("llnl-cab_<b>-mz.C.np<P>.th<16P>.mpip.out") summarises
//     the read runs of equal app, class and procs whose file names match it.
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

struct DuplicateSummary {
  int copies = 0;      // records dropped as copies of another (case 1)
  int citations = 0;   // table rows folded into the file they cite (case 2)
  int summaries = 0;   // summary rows of runs also read (case 3)
  std::vector<std::string> files;  // files (tables: file names) that held the dropped records
  int Total() const { return copies + citations + summaries; }
  /// "N duplicate measurements of the same runs counted once (files a, b, …)", or "" when none.
  std::string Note() const;
};

/// Removes the repeated measurements from `runs` (order kept; the first
/// record of a measurement stays and lists every file in `sources`).
std::vector<RunStats> CountMeasurementsOnce(std::vector<RunStats> runs, DuplicateSummary* summary);

/// True for a record read from a statistics-table row (its first source is "table:line").
bool IsStatisticsTableRow(const RunStats& run);

/// True when two times are equal within the precision they are printed with
/// (cases 2 and 3: a table row and the file it cites).
bool SameTimeWithinPrintPrecision(double a_s, double b_s);

}  // namespace qnm
