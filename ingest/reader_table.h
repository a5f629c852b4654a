#pragma once
// The readers of ingest/ as a table: every input format is one row
// {name, sniff, read} (reader/reader.h) in reader_table.cpp, and every reader
// produces the same run-statistics record (record/run_stats.h). IngestPaths()
// offers each file to the rows in order; the first whose sniff() accepts it reads it.
#include <string>
#include <vector>

#include "reader/reader.h"

namespace qnm {

/// Every reader, in the order they are offered a file.
const std::vector<Reader>& ReaderTable();

/// The formats of ReaderTable(), "mpiP report, ..., NPB output", for help
/// texts, so every command that ingests lists every format it reads.
std::string ReadableFormatList();

}  // namespace qnm
