// What one file says about itself, for `ingest --show`: an mpiP report's sections, an NPB
// output's banner and timings, a Paraver trace's header. Empty for a format with no such
// description (its records say everything).
#pragma once

#include <string>

namespace qnm {

// Reads the file's head first: a file of another format (a trace of GBs) is never read whole
// here; an mpiP report or NPB output is read whole within its format's size limit. Throws
// InputError naming the file for a file of a described format that does not parse.
std::string DescribeFile(const std::string& path);

}  // namespace qnm
