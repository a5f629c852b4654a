#pragma once
// The readers of per-rank profiles (Arm Performance Reports, Intel APS, mpitrace, CrayPat, OTF-CPT, Darshan, TAU): the sniff and read functions
// ingest's table of readers (ingest/reader_table.cpp) offers each file to, in
// the contract of reader/reader.h. Each is defined in the file its comment names.
#include <string>
#include <string_view>

#include "reader/reader.h"

namespace qnm {

bool SniffArmPerformanceReport(const std::string& path, std::string_view text);  // arm_performance_report.cpp
ReaderOutput ReadArmPerformanceReport(const ReaderInput& input);
bool SniffIntelApsReport(const std::string& path, std::string_view text);  // intel_aps_report.cpp
ReaderOutput ReadIntelApsReport(const ReaderInput& input);
bool SniffMpitraceProfile(const std::string& path, std::string_view text);  // mpitrace_profile.cpp
ReaderOutput ReadMpitraceProfile(const ReaderInput& input);
bool SniffCrayPatReport(const std::string& path, std::string_view text);  // craypat_report.cpp
ReaderOutput ReadCrayPatReport(const ReaderInput& input);
bool SniffOtfCptReport(const std::string& path, std::string_view text);  // otf_cpt_report.cpp
ReaderOutput ReadOtfCptReport(const ReaderInput& input);
bool SniffDarshanLog(const std::string& path, std::string_view text);  // darshan_log.cpp
ReaderOutput ReadDarshanLog(const ReaderInput& input);
bool SniffTauProfile(const std::string& path, std::string_view text);  // tau_reader.cpp
ReaderOutput ReadTauProfile(const ReaderInput& input);
/// True for a TAU profile.<n>.<c>.<t> other than profile.0.0.0 with a profile.0.0.0 beside it:
/// a file its anchor reads, not a run of its own (tau_reader.cpp).
bool IsTauProfileOfAnchor(const std::string& path);

}  // namespace qnm
