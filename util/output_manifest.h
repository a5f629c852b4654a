#pragma once
// A folder output lists what it wrote: "<folder>/<name>" holds one relative
// path per line (folders end in '/'). A later run may replace the folder only
// when everything in it is listed, so a file the user put inside (notes.txt
// in whatif's traces/) is never deleted with it (issue 19).
#include <string>

namespace qnm {

/// Writes the manifest `name` into `folder`, listing every file and folder
/// below it (the manifest itself included). Throws InputError on failure.
void WriteFolderManifest(const std::string& folder, const std::string& name);

/// The first entry below `folder` that its manifest `name` does not list
/// (relative path), "" when all are listed. Without a manifest, the first
/// entry found (or "(no manifest)" when the folder cannot be read).
std::string FirstUnlistedEntry(const std::string& folder, const std::string& name);

}  // namespace qnm
