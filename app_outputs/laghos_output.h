#pragma once
// Laghos outputs (docs/formats/laghos-output.md): the CEED high-order Lagrangian hydrodynamics
// proxy application (CEED/Laghos, built on MFEM) prints to standard output the options it ran with
// (MFEM's "Options used:", one "--name value" a line), the mesh's zones and degrees of freedom, a
// line every few time steps, and at the end rank 0's summary of its timed kernels, each the
// maximum over the ranks: CG (H1), CG (L2), Forces, UpdateQuadData and "Major kernels total time".
// With --fom it adds a table whose "Ranks" column is the only place Laghos prints its process
// count. Laghos times no MPI call apart (its CG solvers' times include their reductions): the
// records are runtime-only.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One run of Laghos in an output.
struct LaghosRun {
  int line = 0;                                 // its "Options used:" line
  std::map<std::string, std::string> options;   // "--refine-serial" -> "4", "--partial-assembly" -> ""
  std::string device;                           // "Device configuration: cpu"
  long long kinematic_dofs = 0;                 // "Number of kinematic (position, velocity) dofs"
  int last_step = 0;                            // the last "step N," line
  std::map<std::string, double> kernel_times_s; // "CG (H1)", "CG (L2)", "Forces", "UpdateQuadData"
  double major_kernels_s = -1;                  // "Major kernels total time (seconds)"
  int major_kernels_line = 0;                   // 0: the run did not finish
  int ranks = 0;                                // the FOM table's "Ranks" (--fom); 0: not printed
  long long zones = 0;                          // the FOM table's "Zones"
  std::string fom;                              // "Major kernels total rate (megadofs x time steps / second)"
};

/// True when `text` is Laghos's output (its dof lines).
bool LooksLikeLaghosOutput(std::string_view text);

/// Every run of an output; throws InputError naming `path` and the line when a value is
/// malformed or the file holds no run.
std::vector<LaghosRun> ParseLaghosOutput(std::string_view text, const std::string& path);

/// The record of a finished run: the ranks of its FOM table (else the file name's), the major
/// kernels' time, the mesh, refinements, orders, problem and end time as the class, the other
/// options as declared settings, each kernel's time as a detail.
/// `procs_from_name`: the process count the file's name gives (0: none), used without --fom.
RunStats LaghosRunToRunStats(const LaghosRun& run, const std::string& path, int procs_from_name = 0);

}  // namespace qnm
