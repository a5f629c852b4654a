#pragma once
// miniFE outputs (docs/formats/minife-output.md): the Mantevo/ECP finite-element proxy application
// (Mantevo/miniFE) assembles a sparse linear system on an nx x ny x nz box of hexahedra split
// among the ranks and solves it with conjugate gradients. Rank 0 writes the run as a YAML-like
// document to `miniFE.<nx>x<ny>x<nz>.P<ranks>[.T<threads>][.<name>].<date>.yaml`:
// "Mini-Application Name: miniFE", the global run parameters (the box, the rank count, the
// OpenMP builds' thread count), the platform and build, the CG solve's kernel times and flops,
// and last "Total Program Time" (rank 0, MPI_Init to the end of the solve). Batch jobs often
// print that document into their output (`cat miniFE.*.yaml`); a job log of several runs holds
// several. The standard output itself prints only the set-up phases and the residuals.
//
// miniFE times no MPI call apart (its DOT and MATVEC kernels include their allreduce and halo
// exchange), so the records are runtime-only.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"
#include "textio/keyed_values.h"

namespace qnm {

/// One run of miniFE: every key of its document by path ("Global Run Parameters/dimensions/nx",
/// "CG solve/Total/Total CG Time").
struct MinifeRun : KeyedValues {
  int line = 0;      // its "Mini-Application Name: miniFE" line
  int end_line = 0;  // its "Total Program Time" line; 0: the document is cut (the run did not finish)
};

/// True when `text` holds a miniFE document ("Mini-Application Name: miniFE").
bool LooksLikeMinifeOutput(std::string_view text);

/// True when `text` is miniFE's standard output without its document: the set-up phases
/// ("creating/filling mesh...") and the CG residuals.
bool LooksLikeMinifeProgress(std::string_view text);

/// True for miniFE's standard output with a `miniFE.*.yaml` document beside it (in the folder of
/// `path`): the run is the document's, and the output is left unread, by every reader.
bool IsMinifeOutputBesideItsDocument(const std::string& path, std::string_view text);

/// Every run of a file; throws InputError naming `path` and the line when the document is
/// malformed or the file holds none.
std::vector<MinifeRun> ParseMinifeOutput(std::string_view text, const std::string& path);

/// The record of a finished run: the ranks, threads, Total Program Time, the box as the class,
/// the CG iterations, the kernels' times and the build as details and settings.
RunStats MinifeRunToRunStats(const MinifeRun& run, const std::string& path);

}  // namespace qnm
