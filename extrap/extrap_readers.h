#pragma once
// The Extra-P readers' entry points in ingest's table of readers (ingest/reader_table.cpp), in
// the contract of reader/reader.h. Each is defined in the file its comment names.
#include <string>
#include <string_view>

#include "reader/reader.h"

namespace qnm {

bool SniffExtrapExperiment(const std::string& path, std::string_view text);  // extrap_reader.cpp
ReaderOutput ReadExtrapExperiment(const ReaderInput& input);
/// An Extra-P experiment written by `qnm-predict export`, read back with the identity it keeps.
bool SniffQnmExport(const std::string& path, std::string_view text);  // qnm_export_reader.cpp
ReaderOutput ReadQnmExport(const ReaderInput& input);

}  // namespace qnm
