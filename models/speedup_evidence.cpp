// What the training runs say of strong scaling itself (speedup_evidence.h).
#include "models/speedup_evidence.h"

#include <cmath>

#include "util/text_format.h"

namespace qnm {

std::string NoSpeedupNote(const std::vector<std::pair<int, double>>& points) {
  if (points.size() < 2) return "";
  const auto& [first_procs, first_s] = points.front();
  const auto& [last_procs, last_s] = points.back();
  if (!(first_procs > 0 && first_s > 0 && std::isfinite(last_s))) return "";
  if (last_procs < kNoSpeedupMinProcsRatio * first_procs || last_s < kNoSpeedupTimeRatio * first_s) return "";
  return "the measured time does not fall with P (" + FormatDouble("%.4g", first_s) + " s at P=" +
         std::to_string(first_procs) + ", " + FormatDouble("%.4g", last_s) + " s at P=" + std::to_string(last_procs) +
         "): a weak-scaling campaign (work per process fixed) or a code past its scaling limit; the predictions "
         "assume one problem size at every P";
}

}  // namespace qnm
