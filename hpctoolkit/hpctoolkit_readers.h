#pragma once
// The HPCToolkit readers' entry points in ingest's table of readers (ingest/reader_table.cpp), in
// the contract of reader/reader.h, all defined in hpctoolkit_reader.cpp.
#include <string>
#include <string_view>

#include "reader/reader.h"

namespace qnm {

/// A database of format 3 (the folder of experiment.xml).
bool SniffHpctoolkitExperiment(const std::string& path, std::string_view text);
ReaderOutput ReadHpctoolkitExperiment(const ReaderInput& input);
/// True for a metric-db file, or a file under src/, of a folder holding experiment.xml, or for
/// profile.db, cct.db, trace.db, FORMATS.md, metrics/ and src/ beside a format-4 meta.db: a file of
/// an HPCToolkit database that its experiment.xml or meta.db reads or keeps, not a run of its own.
bool IsPartOfHpctoolkitDatabase(const std::string& path);
/// A database of format 4 (the folder of meta.db and profile.db).
bool SniffHpctoolkitMeta(const std::string& path, std::string_view text);
ReaderOutput ReadHpctoolkitMeta(const ReaderInput& input);

}  // namespace qnm
