#pragma once
// The files Extrae writes while a run is traced, before its merger (mpi2prv)
// makes the Paraver trace that qnm-predict reads (paraver_trace.h): the list
// X.mpits (and X.spawn) in the run's folder, and per thread
// X@<host>.<pid><task><thread>.mpit with its .sym (and .sample, .online, .cbk;
// .ttmp, .stmp, .otmp while the run writes them), in set-N/ folders (Extrae,
// src/common/common.h: the name template and extensions).
//
// Walking a traced run's folder meets them by the thousand. Beside the merged
// trace they are its raw material, not runs; without it they are one run that
// was never merged, said once (by its .mpits) with what to do, not thousands
// of "not a recognised format".
#include <string>

namespace qnm {

/// True for a file named as Extrae names its intermediate files: X.mpits or
/// X.spawn, or X@host.<22 digits>.<ext> with one of the per-thread extensions.
bool IsExtraeIntermediateFile(const std::string& path);

/// True for an intermediate file that is no run of its own: a merged Paraver
/// trace (a .prv, compressed or not) lies in its folder or the folder above,
/// or it is a per-thread file and the X.mpits that lists it does; and for
/// X.spawn and the run's symbols X.sym beside X.mpits. With `walk_root`, only
/// the folders within it count (a list the walk does not meet says nothing).
bool IsPartOfExtraeRun(const std::string& path, const std::string& walk_root = "");

/// Why an intermediate file is not read (one line, without the path).
std::string ExtraeIntermediateReason(const std::string& path);

}  // namespace qnm
