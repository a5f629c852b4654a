#pragma once
// A job's output that is no run of its own but carries the job's Flux record (job_records/
// flux_job_record.h): miniFE's standard output beside the YAML document that is the run, left
// unread by every reader. Its jobspec still says where the run ran: the nodes are given to the runs
// of its folder whose process count is the jobspec's tasks, when every such record of the folder
// agrees on them (five repetitions of one size in one folder).
#include <vector>

#include "ingest/ingest.h"
#include "record/run_stats.h"

namespace qnm {

/// For each file no reader took (skipped as not a recognised format), on disk, of at most 4 MB (it
/// is read again) and holding a Flux job record: the records' nodes go to the runs of the same folder
/// with the records' task count and no nodes of their own. Records of one folder and task count that
/// disagree give nothing (a note says so).
void ApplyJobRecordsBeside(const std::vector<SkippedFile>& skipped, std::vector<RunStats>* runs,
                           IngestSummary* summary);

}  // namespace qnm
