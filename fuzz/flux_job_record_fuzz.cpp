// libFuzzer target: the Flux job record readers (job_records/flux_job_record.h: a jobspec and an
// eventlog in a job's output; flux_jobs_listing.h: `flux jobs --json`) must turn any bytes into
// records or an InputError (file:line), never crash, hang or throw anything else. The first byte's
// bit 0 picks the listing; otherwise the record is read alone and applied to an application's run.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "job_records/flux_job_record.h"
#include "job_records/job_record_readers.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (data[0] & 1) {
      qnm::ReaderInput input{"flux-jobs.json", text};
      if (qnm::SniffFluxJobsListing(input.path, text)) (void)qnm::RunsToCsv(qnm::ReadFluxJobsListing(input).runs);
    } else if (qnm::HasFluxJobRecord(text)) {
      const qnm::FluxJobRecord record = qnm::ReadFluxJobRecord(text, "job.out");
      qnm::RunStats app;
      app.procs = 3072;
      app.wall_time_s = 73.2;
      (void)qnm::ApplyFluxJobRecord(record, "job.out", &app);
      (void)qnm::RunsToCsv({qnm::FluxJobRecordToRunStats(record, "job.out")});
    }
  } catch (const qnm::InputError&) {
  }
  return 0;
}
