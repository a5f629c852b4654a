#pragma once
// How much memory the CUBE4 reader may spend on one profile, and why. The
// reader holds the anchor's XML tree and, per metric it needs, a table
// [call node x location] of doubles (five tables at most). Both are bounded
// by what the file really stores, never by what it declares: a 268 KB file
// declaring 1,000 call paths x 100,000 locations and storing no value would
// otherwise take 3 GB (issue 19).
#include <cstddef>
#include <cstdint>

namespace qnm {

// anchor.xml unpacked: real anchors are a few MB (100,000 call paths with
// their regions); the XML tree costs about 64 bytes per element on top.
inline constexpr std::size_t kCubeAnchorMaxBytes = std::size_t{64} << 20;
// Elements of anchor.xml ('<' counted before parsing): 2 million elements
// are a 128 MB tree, 20 times the largest real anchor we know.
inline constexpr std::size_t kCubeAnchorMaxElements = 2'000'000;
// One dense table of every call path (CubeValues::kEveryCallPath, cube sets
// that model each call path): 2^24 values (128 MB) - e.g. 1,000 call paths x
// 16,384 locations; five of them stay well under a 2 GB address-space limit.
inline constexpr std::uint64_t kCubeMaxTableValues = std::uint64_t{1} << 24;
// The record of one profile (CubeValues::kRecordRows) keeps only the rows it
// needs - call-tree roots and MPI call paths - per metric (time, visits,
// bytes sent/received, roots' inclusive time), decoded value by value as
// stored: 2^23 values (64 MB) per metric, e.g. 64 MPI call paths x 131,072
// locations, whatever the number of other call paths. Five such tables and
// the record's per-rank copies stay under 1 GB.
inline constexpr std::uint64_t kCubeMaxKeptValues = std::uint64_t{1} << 23;
// A table may also hold at most this many values per byte of the .cubex file
// (above a floor of 2^22 values = 32 MB, which any file may use): Cube stores
// every value it lists as at least one compressed byte, so a table much
// larger than the file lists almost nothing and is a declared size, not data.
inline constexpr std::uint64_t kCubeTableValuesPerFileByte = 16;
inline constexpr std::uint64_t kCubeTableValuesFloor = std::uint64_t{1} << 22;
// A call path in a record names at most this many regions (the innermost):
// a 50,000-deep chain must not cost depth^2 bytes of path strings.
inline constexpr std::size_t kCubeCallPathMaxRegions = 24;

}  // namespace qnm
