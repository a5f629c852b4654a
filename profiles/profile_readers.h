#pragma once
// The readers of profilers, tracers and measurement tables (mpiP, TAU, CUBE, Extra-P, HPCToolkit, ...): the sniff and read functions
// ingest's table of readers (ingest/reader_table.cpp) offers each file to, in
// the contract of reader/reader.h. Each is defined in the file its comment names.
#include <string>
#include <string_view>

#include "reader/reader.h"

namespace qnm {

bool SniffCubeProfile(const std::string& path, std::string_view text);  // cube_reader.cpp
ReaderOutput ReadCubeProfile(const ReaderInput& input);
bool SniffExtrapExperiment(const std::string& path, std::string_view text);  // extrap_reader.cpp
ReaderOutput ReadExtrapExperiment(const ReaderInput& input);
bool SniffQnmExport(const std::string& path, std::string_view text);  // qnm_export_reader.cpp
ReaderOutput ReadQnmExport(const ReaderInput& input);
bool SniffArmPerformanceReport(const std::string& path, std::string_view text);  // arm_performance_report.cpp
ReaderOutput ReadArmPerformanceReport(const ReaderInput& input);
bool SniffMpitraceProfile(const std::string& path, std::string_view text);  // mpitrace_profile.cpp
ReaderOutput ReadMpitraceProfile(const ReaderInput& input);
bool SniffCrayPatReport(const std::string& path, std::string_view text);  // craypat_report.cpp
ReaderOutput ReadCrayPatReport(const ReaderInput& input);
bool SniffOtfCptReport(const std::string& path, std::string_view text);  // otf_cpt_report.cpp
ReaderOutput ReadOtfCptReport(const ReaderInput& input);
bool SniffTauProfile(const std::string& path, std::string_view text);  // tau_reader.cpp
ReaderOutput ReadTauProfile(const ReaderInput& input);
/// True for a TAU profile.<n>.<c>.<t> other than profile.0.0.0 with a profile.0.0.0 beside it:
/// a file its anchor reads, not a run of its own (tau_reader.cpp).
bool IsTauProfileOfAnchor(const std::string& path);
bool SniffHpctoolkitExperiment(const std::string& path, std::string_view text);  // hpctoolkit_reader.cpp
ReaderOutput ReadHpctoolkitExperiment(const ReaderInput& input);
/// True for a metric-db file, or a file under src/, of a folder holding experiment.xml, or for
/// profile.db, cct.db, trace.db, FORMATS.md, metrics/ and src/ beside a format-4 meta.db: a file of
/// an HPCToolkit database that its experiment.xml or meta.db reads or keeps, not a run of its own.
bool IsPartOfHpctoolkitDatabase(const std::string& path);
bool SniffHpctoolkitMeta(const std::string& path, std::string_view text);  // hpctoolkit_reader.cpp
ReaderOutput ReadHpctoolkitMeta(const ReaderInput& input);

}  // namespace qnm
