#include "models/granularity.h"

namespace qnm {

long Granularity::BusiestUnits(int procs) const {
  if (!Known() || procs < 1) return 0;
  return (static_cast<long>(units) + procs - 1) / procs;
}

double Granularity::BusiestOverMean(int procs) const {
  if (!Known() || procs < 1 || procs > units) return 1.0;
  return static_cast<double>(BusiestUnits(procs)) * procs / units;
}

double Granularity::EffectiveProcs(int procs) const {
  if (!Known() || procs < 1 || procs > units) return procs;
  return static_cast<double>(units) / static_cast<double>(BusiestUnits(procs));
}

}  // namespace qnm
