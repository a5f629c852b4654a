#pragma once
// The readers of batch systems and test harnesses (Slurm, PBS, Flux, LSF, ReFrame): the sniff and read functions
// ingest's table of readers (ingest/reader_table.cpp) offers each file to, in
// the contract of reader/reader.h. Each is defined in the file its comment names.
#include <string>
#include <string_view>

#include "reader/reader.h"

namespace qnm {

bool SniffSacctTable(const std::string& path, std::string_view text);  // slurm_accounting.cpp
ReaderOutput ReadSacctTable(const ReaderInput& input);
bool SniffSacctJson(const std::string& path, std::string_view text);  // slurm_accounting.cpp
ReaderOutput ReadSacctJson(const ReaderInput& input);
bool SniffPbsJobStatus(const std::string& path, std::string_view text);  // pbs_job_status.cpp
ReaderOutput ReadPbsJobStatus(const ReaderInput& input);
bool SniffFluxJobsListing(const std::string& path, std::string_view text);  // flux_jobs_listing.cpp
ReaderOutput ReadFluxJobsListing(const ReaderInput& input);
bool SniffFluxJobRecord(const std::string& path, std::string_view text);  // flux_job_record.cpp
ReaderOutput ReadFluxJobOutput(const ReaderInput& input);
bool SniffLsfJobOutput(const std::string& path, std::string_view text);  // lsf_job_output.cpp
ReaderOutput ReadLsfJobOutput(const ReaderInput& input);
bool SniffReframePerflog(const std::string& path, std::string_view text);  // reframe_perflog.cpp
ReaderOutput ReadReframePerflog(const ReaderInput& input);
bool SniffReframeRunReport(const std::string& path, std::string_view text);  // reframe_perflog.cpp
ReaderOutput ReadReframeRunReport(const ReaderInput& input);

}  // namespace qnm
