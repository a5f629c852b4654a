// Checks an OTF2 anchor file before libotf2 trusts it.
//
// libotf2 3.0 believes the counts in an anchor file. A damaged anchor whose
// property count reads 3.4e9 makes OTF2_AnchorFile_Load allocate a table for
// them (28 GB for one such count) and read 6.8e9 empty strings past the end
// of the file, duplicating each (minutes, gigabytes: the robustness
// campaign's OTF2 hangs, round 3). The anchor is a few hundred bytes, so we
// read it first: the layout (docs/formats/otf2-anchor.md) is OTF2's anchor
// format 1-3, every count must fit in the bytes that follow it, and chunk
// sizes must lie within OTF2's own limits.
#pragma once

#include <string>

namespace qnm::trace {

/// Throws InputError naming `anchor` (and the field) when the anchor cannot be
/// what it claims, given the archive's global definition file `definitions`;
/// returns quietly for anything libotf2 can be trusted with.
void CheckAnchorFile(const std::string& anchor, const std::string& definitions);

}  // namespace qnm::trace
