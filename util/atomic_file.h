#pragma once
// Outputs are written atomically: to a temporary file beside the target, then
// renamed over it, so a failure never leaves a half-written output behind.
#include <string>
#include <string_view>

namespace qnm {

/// Writes `contents` to `path` atomically (temp file + fsync + rename).
/// Throws InputError naming `path` on failure; the target is untouched then.
void WriteFileAtomically(const std::string& path, std::string_view contents);

/// Writes a command's output: to standard output when `path` is empty or "-",
/// else atomically to `path` (WriteFileAtomically).
void WriteOutput(const std::string& path, std::string_view contents);

/// Reads a whole file into a string. Throws InputError naming `path` on failure.
std::string ReadFile(const std::string& path);

}  // namespace qnm
