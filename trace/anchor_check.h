// Checks an OTF2 anchor file before libotf2 trusts it.
//
// libotf2 3.0 believes the counts in an anchor file. A damaged anchor whose
// property count reads 3.4e9 makes OTF2_AnchorFile_Load read 6.8e9 empty
// strings past the end of the file, allocating each (minutes, gigabytes:
// the robustness campaign's OTF2 hangs, round 3), and a chunk size of 28 GB
// is allocated as asked. The anchor is a few hundred bytes, so we read it
// first: the layout (docs/formats/otf2-anchor.md) is OTF2's anchor format 1-3,
// and every count must fit in the bytes that follow it.
#pragma once

#include <string>

namespace qnm::trace {

/// Throws InputError naming `anchor` (and the field) when the anchor cannot be
/// what it claims; returns quietly for anything libotf2 can be trusted with.
void CheckAnchorFile(const std::string& anchor);

}  // namespace qnm::trace
