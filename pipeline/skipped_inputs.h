#pragma once
// What a command says about the input files it could not use (issue 13):
// never silent, never two lines for one file.
#include <string>
#include <vector>

#include "ingest/ingest.h"

namespace qnm {

/// Damaged files found by walking a folder are said on stderr one line each, up to this many per
/// kind of failure (SkippedFile::Kind); the rest of a kind in one line with their count (a
/// campaign's 194 crashed logs).
inline constexpr int kSkippedLinesPerReason = 5;

/// Throws InputError with the reader's one-line reason when a file named on
/// the command line (`named`) was skipped. A damaged file found by walking a
/// folder is said on stderr, one line each up to kSkippedLinesPerReason per
/// reason, then one line for the rest; files of no known format there are only
/// counted (IngestSummary::skipped, shown in the command's summary).
void ReportSkippedInputs(const std::vector<std::string>& named, const IngestSummary& summary);

/// Only the first half: throws when a file named on the command line was
/// skipped, says nothing about the others (for `ingest`, whose summary lists them).
void RefuseSkippedNamedInputs(const std::vector<std::string>& named, const IngestSummary& summary);

}  // namespace qnm
