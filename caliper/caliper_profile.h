#pragma once
// A Caliper region profile (.cali, caliper_stream.h) as one run-statistics
// record (docs/formats/caliper.md). Caliper's profiling configurations write
// one of two shapes, and both are read:
//  - statistics over the ranks (CALI_CONFIG=spot; Thicket's and Spot's input):
//    per region the min/max/avg/sum over the ranks of its inclusive time
//    (`avg#inclusive#sum#time.duration`, ...). The record takes the mean and
//    max application time, the mean MPI time, and each MPI routine's time
//    summed over the ranks.
//  - one row per region and rank (CALI_CONFIG=runtime-profile, alias
//    hatchet-region-profile, output.format=cali; `mpi.rank`, exclusive
//    `sum#time.duration`), or a one-process profile: the record takes the
//    application and MPI time of every rank and each MPI routine's time per rank.
// Caliper's json-split output of the same records is read as well (ReadCaliperJsonSplit).
// The application time is the time of the profile's top-level regions and of
// the time outside any region; the MPI time is that of the outermost regions
// of attribute mpi.function (Caliper's profile.mpi), with what runs under them.
#include <cstddef>
#include <string>
#include <string_view>

#include "record/run_stats.h"
#include "textio/line_reader.h"

namespace qnm {

/// True when `text` starts as a .cali stream does ("__rec=").
bool LooksLikeCaliperStream(std::string_view text);

/// Reads the .cali profile `text` of file `path`. Throws InputError naming the
/// file and line when it is damaged or holds no region times of a known shape.
RunStats ReadCaliperProfile(std::string_view text, const std::string& path);
/// The same for the lines of a .cali file as they stream by.
RunStats ReadCaliperProfile(LineReader& lines, const std::string& path);
/// The same for the .cali file at `path` (plain or compressed) read as it streams
/// from disk: memory is the reduction's sums and Caliper's metadata tree, not the
/// file. `max_bytes` > 0 refuses a larger content; `digest` (optional) gets the
/// ContentDigest of the whole unpacked file.
RunStats ReadCaliperProfileFile(const std::string& path, long long max_bytes, std::string* digest);

/// The longest .cali line read (a record of many attributes is a few KB).
inline constexpr std::size_t kCaliperMaxLineBytes = 64u << 20;

/// True when `text` starts as Caliper's json-split output does: an object whose first key is
/// "data", an array of rows (`output.format=json-split`, `cali-query -q "... format json-split"`).
bool LooksLikeCaliperJsonSplit(std::string_view text);

/// Reads Caliper's json-split `text` of file `path`: the same records as a .cali file (rows of
/// "columns", regions as indices into "nodes", the run's metadata as top-level keys), reduced the
/// same way. Its columns carry their aliases ("time", "Calls", "Avg time/rank", ...); an MPI region
/// is a path node whose label starts with MPI_ (json-split keeps no attribute per node label).
RunStats ReadCaliperJsonSplit(std::string_view text, const std::string& path);

}  // namespace qnm
