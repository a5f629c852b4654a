#pragma once
// How large a file ingest reads whole, per format. Walking a folder meets
// whatever is there (a 3 GB core dump, a 1 TB sparse file, a log that keeps
// growing): ingest reads the head of each file first, asks the readers which
// formats it looks like, and refuses (one line) a file larger than the limit
// of those formats before reading it; a file that grows past the limit while
// it is read is refused too. Defaults (README "Input size limits"):
//   CUBE4 profile 512 MiB; HPCToolkit experiment.xml / meta.db 256 MiB;
//   mpiP, NPB, Extra-P, tables 64 MiB each;
//   OTF2 anchors are opened by their own reader (64 MiB for the anchor text);
//   a Caliper .cali profile or a Paraver trace on disk streams through its
//   reader, whatever its size (held whole, in an archive of runs: 256 MiB and
//   1 GiB);
//   a file whose head no reader recognises: 16 MiB (read whole only so that a
//   reader looking past the head can still claim it), 64 MiB with --pattern;
//   a compressed file (compressed_file.h) or tar archive of runs
//   (run_archive.h): 512 MiB as it is, and what it unpacks to the limit of the
//   format that looks like.
// `--max-file-size MB` (ingest) replaces every limit.
#include <cstddef>
#include <string>
#include <string_view>

namespace qnm {

/// Bytes of a file's head that the readers are asked to sniff.
inline constexpr std::size_t kSniffHeadBytes = 256 * 1024;
/// The limit for a file no reader recognises from its head.
inline constexpr long long kUnrecognisedMaxBytes = 16LL << 20;
/// ... when the user's --pattern may read it (app_outputs/pattern_output.h): a program's log, as
/// large as an NPB output or an mpiP report may be.
inline constexpr long long kPatternMaxBytes = 64LL << 20;

/// The most bytes to read of `path` (`size_bytes` long, starting with
/// `head`): the largest limit of the formats whose sniff accepts the head,
/// or `override_bytes` when > 0; `unrecognised_bytes` for a head no reader recognises. Throws
/// InputError naming `path` when the file is already larger.
long long InputReadLimitBytes(const std::string& path, long long size_bytes, std::string_view head,
                              long long override_bytes, long long unrecognised_bytes = kUnrecognisedMaxBytes);

}  // namespace qnm
