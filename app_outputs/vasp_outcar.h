#pragma once
// VASP OUTCAR files (docs/formats/vasp-outcar.md). An OUTCAR is one job: the
// banner ("vasp.6.4.2 20Jul23 (build ...) gamma-only"), the parallel layout
// ("running on 192 total cores" in VASP 5, "running 1024 mpi-ranks, with 1
// threads/rank, on 16 nodes" in VASP 6; "distrk: each k-point on C cores, G
// groups" for KPAR; "distr: one band on NCORE= C cores, G groups"), the input
// as VASP parsed it (SYSTEM, POSCAR, NKPTS, NIONS, ENCUT, NELM, NSW, IBRION),
// one "LOOP:" line per electronic step and one "LOOP+:" line per ionic step,
// and at the end "General timing and accounting informations for this job"
// with "Elapsed time (sec)". VASP prints no communication timing: the record
// is runtime only.
#include <string>
#include <string_view>

#include "record/run_stats.h"

namespace qnm {

struct VaspOutcar {
  std::string version;      // "6.4.2" or "5.4.4.18Apr17-6-g9f103f2a35", from the banner
  std::string release;      // its dotted whole numbers: "5.4.4"
  std::string build;        // the banner's last word: "gamma-only", "complex", ...; empty when none
  std::string platform;     // "executed on <arch> date ...": the build's arch name; empty when none
  int mpi_ranks = 0;        // "running N mpi-ranks" / "running on N total cores"
  int threads_per_rank = 0; // "with T threads/rank"; 0 = not printed (VASP 5)
  int nodes = 0;            // "on K nodes"; 0 = not printed
  int kpoint_groups = 0;    // KPAR: "distrk: ... G groups"; 0 = not printed
  int ncore = 0;            // "distr: one band on NCORE= C cores" (NCORES_PER_BAND in VASP 5); 0 = not printed
  std::string system;       // " SYSTEM =  TiO2" as VASP parsed it
  std::string poscar;       // " POSCAR =  <the structure's title>", blanks folded
  long long kpoints = 0, ions = 0, bands = 0;  // NKPTS, NIONS, NBANDS (VASP rounds NBANDS with the layout)
  std::string encut_ev;     // "750" (%g of the first ENCUT, the INCAR's echo or VASP's parse)
  long long max_electronic_steps = -1, ionic_steps = -1, ibrion = -99;  // NELM, NSW, IBRION as parsed
  int electronic_loops = 0; // "LOOP:" lines
  int ionic_loops = 0;      // "LOOP+:" lines
  double loop_plus_real_s = 0;  // the ionic steps' "real time", summed
  double elapsed_s = kUnknown;      // "Elapsed time (sec)"
  double total_cpu_s = kUnknown;    // "Total CPU time used (sec)"
  double max_memory_kb = kUnknown;  // "Maximum memory used (kb)"
};

/// True when one of the first lines is VASP's banner ("vasp.<version> ...") and a "running"
/// line of the parallel layout follows it.
bool LooksLikeVaspOutcar(std::string_view text);

/// Parses an OUTCAR; throws InputError naming `path` (and the line) when the job did not finish
/// (no "LOOP+" line, or no "General timing and accounting" block), a layout line is missing, or a
/// number is malformed.
VaspOutcar ParseVaspOutcar(std::string_view text, const std::string& path);

/// The run-statistics record of an OUTCAR: app "vasp", the problem from the parsed input, procs,
/// threads and nodes, the ionic steps' summed real time as the run's time (the timed region the
/// benchmark suites report; the job's elapsed time is in details), NCORE and KPAR as settings of
/// the run (reader/experiment_factors.h).
RunStats VaspOutcarToRunStats(const VaspOutcar& outcar, const std::string& path);

}  // namespace qnm
