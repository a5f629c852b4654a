#pragma once
// predict/validate/plot with --target: fit the source series (machine A),
// move the model to the target machine B (transfer/machine_transfer.h) and
// predict B, or score it at B's measured process counts.
#include <string>
#include <vector>

#include "models/validation.h"
#include "pipeline/prediction_runner.h"
#include "transfer/machine_transfer.h"

namespace qnm {

/// What is known of the target machine.
struct TransferTarget {
  std::vector<Series> series;    // B's runs (empty: profile only)
  bool has_profile = false;      // B's machine profile (--machine with --target, or --target-machine)
  MachineProfile profile;
  std::vector<int> calibrate_procs;  // validate: B's process counts that calibrate (empty: the smallest)
};

/// One prediction per source series: the source's model moved to B, at `procs`
/// and at every measured P of B. The model's notes say what was transferred and
/// calibrated. Throws InputError when the series cannot be paired or fitted.
std::vector<SeriesPrediction> RunTransferPredict(const std::vector<Series>& source, const TransferTarget& target,
                                                 const std::vector<int>& procs, const PredictionOptions& options,
                                                 const TransferOptions& transfer);
/// Calibrates on B's `calibrate_procs` (default: its smallest P) and compares
/// with B's other measured process counts. Throws InputError like RunTransferPredict.
std::vector<ValidationResult> RunTransferValidate(const std::vector<Series>& source, const TransferTarget& target,
                                                  const PredictionOptions& options, const TransferOptions& transfer);

}  // namespace qnm
