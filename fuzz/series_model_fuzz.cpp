// libFuzzer target: the prediction models on any series a statistics table can hold. The bytes
// become a table of one series (process counts, times spanning 1e-16..1e16 s, repetitions, and
// with the second byte's low bit an MPI profile per run: MPI time, messages, bytes, so the
// queueing model is fitted too), read as a user's table is (tables/statistics_table.h), fitted
// (FitSeriesModel) and predicted at the training counts and far beyond. Whatever the input, a
// predicted point is a positive finite time inside a positive finite interval, or it says why
// not (termination and message); anything else traps, so libFuzzer reports it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "models/prediction.h"
#include "record/run_stats.h"
#include "tables/statistics_table.h"
#include "util/input_error.h"

namespace {

/// The fuzzer's bytes read front to back; zeros once they run out.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t Byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::uint16_t Word() { return static_cast<std::uint16_t>(Byte() | (Byte() << 8)); }
  bool Empty() const { return at_ >= size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

/// A predicted point must be a positive finite time in a positive finite interval around it.
void CheckPoint(const qnm::ProcsPrediction& p) {
  if (p.termination != qnm::PredictionTermination::kPredicted) {
    if (p.message.empty()) __builtin_trap();  // every refusal says why
    return;
  }
  const qnm::Interval& t = p.total;
  if (!(std::isfinite(t.value_s) && t.value_s > 0)) __builtin_trap();
  if (!(t.lower_s > 0 && t.lower_s <= t.value_s * (1 + 1e-12))) __builtin_trap();
  if (!(std::isfinite(t.upper_s) && t.upper_s >= t.value_s * (1 - 1e-12))) __builtin_trap();
  for (const qnm::Interval* part : {&p.compute, &p.imbalance, &p.switch_delay, &p.mpi_active, &p.contention})
    if (qnm::Known(part->value_s) && !(part->value_s >= 0 && std::isfinite(part->value_s))) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  ByteReader bytes(data, size);
  const int points = 1 + bytes.Byte() % 24;
  const std::uint8_t flags = bytes.Byte();
  const bool profiled = flags & 1;
  const int ranks_per_node = (flags & 2) ? 1 << (bytes.Byte() % 9) : 0;
  const int work_units = (flags & 4) ? 1 + bytes.Word() : 0;
  std::string csv = profiled ? "series,procs,time_s,ranks_per_node,mpi_time_s,app_time_s,messages,bytes\n"
                             : "series,procs,time_s,ranks_per_node\n";
  char row[256];
  for (int k = 0; k < points && !bytes.Empty(); ++k) {
    // P from 1 to 65536, or a power of two up to 2^22; a time 10^(-16..16) s.
    const std::uint16_t word = bytes.Word();
    const long procs = (word & 0x8000) ? 1L << (word % 23) : 1 + (word & 0x7fff);
    const double time_s = std::pow(10.0, (static_cast<int>(bytes.Word()) - 32768) / 2048.0);
    int n = std::snprintf(row, sizeof row, "s,%ld,%.17g,%d", procs, time_s, ranks_per_node);
    if (profiled) {
      const double mpi_share = bytes.Byte() / 255.0;
      n += std::snprintf(row + n, sizeof row - n, ",%.17g,%.17g,%u,%u", time_s * mpi_share, time_s,
                         static_cast<unsigned>(bytes.Word()) * 16u, static_cast<unsigned>(bytes.Word()) * 64u);
    }
    csv.append(row, n).push_back('\n');
  }
  std::vector<qnm::RunStats> runs;
  try {
    runs = qnm::ReadStatisticsCsv(csv, "fuzz.csv");
  } catch (const qnm::InputError&) {
    return 0;  // a table the reader refuses is the reader's fuzz target's concern
  }
  for (qnm::RunStats& run : runs) {
    run.work_units = work_units;
    run.work_units_equal = (flags & 8) != 0;
  }
  qnm::PredictionOptions options;
  options.runtime.error.noise = static_cast<qnm::ExtrapolationErrorOptions::Noise>((flags >> 4) % 3);
  options.hold_after_unevidenced_turn = (flags & 64) == 0;
  for (const qnm::Series& series : qnm::GroupIntoSeries(std::move(runs))) {
    qnm::SeriesModel model;
    std::string error;
    if (!qnm::FitSeriesModel(series, {}, options, &model, &error)) {
      if (error.empty()) __builtin_trap();
      continue;
    }
    for (const qnm::RunGroup& group : series.groups) CheckPoint(model.Predict(group.procs));
    for (long procs = 1; procs <= (1L << 22); procs *= 4) CheckPoint(model.Predict(static_cast<int>(procs)));
    if (work_units > 0) CheckPoint(model.Predict(work_units + 1));
  }
  return 0;
}
