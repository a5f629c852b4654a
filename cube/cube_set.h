#pragma once
// Extra-P cube sets: a directory of folders "<app>.<parameters>.r<repetition>"
// each holding CUBE4 profiles (*.cubex, usually profile.cubex), as Score-P
// writes them for Extra-P (docs/formats/extrap.md, "Cube sets"). The folder
// name carries the parameters: the text between the first '.' and ".r" split
// into names and numbers ("x20,5.y20,5.z1,5" -> x=20.5, y=20.5, z=1.5; ',' is
// a decimal point); a folder without '.' is all parameters ("x10y1z1").
// Parameters constant over the set are dropped, as Extra-P does.
#include <string>
#include <utility>
#include <vector>

#include "extrap/extrap_data.h"
#include "reader/run_selection.h"
#include "record/run_stats.h"

namespace qnm {

/// The parameters a cube-set folder name gives, in order; false when it names none.
bool ParseCubeSetFolder(const std::string& folder, std::vector<std::pair<std::string, double>>* parameters);

/// What Extra-P 4.2 reads from a cube set with weak scaling: per call path
/// ("main", "main->foo") and metric (time, visits, bytes_sent) every
/// location's exclusive value of every profile at a point, as repetitions.
/// Throws InputError naming the directory or folder where Extra-P refuses the
/// set (parameters named differently or in another order, no profiles).
ExtrapData ReadCubeSetData(const std::string& directory);

/// For ingest: the process count and identity a cube-set folder gives a
/// profile's record under --parameter/--where. Returns false (the record is
/// not one of the selected runs) when a --where value does not match.
bool ApplyCubeSetSelection(const std::string& profile_path, const RunSelection& selection, RunStats* run);

}  // namespace qnm
