#pragma once
// Columns of a statistics table that say which problem a run solved. A study's own table often
// holds several inputs in one file, each at many process counts: a PETSc campaign's
// `scale,m,n,unknowns,nodes,ppn,threads,mpi_ranks,...,runtime_seconds` (five grids, 1..128 ranks)
// was read, before these columns were, as one series whose "repetitions" at P = 1 ran from 246 s
// to 15,420 s. Such a column is read as a run setting (`setting.<name>`, reader/experiment_factors.h):
// where it takes several values at one process count, each value at several counts, the runs are
// kept apart as one series per value, as a `size` column's are (docs/statistics-table.md).
//
// Only names that say "the problem" are read so: the input (`input`, `case`, `dataset`), its size
// (`grid`, `mesh`, `n`, `unknowns`, `atoms`, `cells`, any `<word>_size`), its level of detail
// (`resolution`, `refinement`, `scale`). A column derived from the process count (`unknowns_per_core`)
// never is: its values recur along the weak-scaling diagonals and would cut a series into them. Any
// other column (a measurement, a job id, a status) stays ignored, with the reader's note.
#include <string>
#include <string_view>

namespace qnm {

/// True when the table's header `name` (as written) names the problem a run solved (above).
bool IsProblemSettingColumn(std::string_view name);

/// The detail key a problem column's values are kept under: "setting.grid_size" for "Grid size".
std::string ProblemSettingKey(std::string_view name);

}  // namespace qnm
