#include "models/plausible_envelope.h"

#include <algorithm>
#include <cmath>

namespace qnm {

bool PlausibleEnvelopeOptions::IsValid(std::string* error) const {
  if (!(slower_factor >= 1)) {
    *error = "envelope slower_factor must be >= 1";
    return false;
  }
  return true;
}

double PlausibleEnvelope::Lower(double procs) const {
  return fastest_time_s * fastest_procs / procs;
}

double PlausibleEnvelope::Upper(double procs) const {
  double trend = procs > last_procs ? last_time_s * std::pow(procs / last_procs, growth_exponent) : 0.0;
  return slower_factor * std::max(slowest_time_s, trend);
}

PlausibleEnvelope BuildPlausibleEnvelope(const std::vector<std::pair<int, double>>& times,
                                         const PlausibleEnvelopeOptions& options) {
  PlausibleEnvelope e;
  e.slower_factor = options.slower_factor;
  for (std::size_t k = 0; k < times.size(); ++k) {
    auto [procs, time] = times[k];
    if (!(time > 0) || procs < 1) continue;
    if (!e.known || time < e.fastest_time_s) {
      e.fastest_time_s = time;
      e.fastest_procs = procs;
    }
    e.slowest_time_s = e.known ? std::max(e.slowest_time_s, time) : time;
    if (e.known && procs > e.last_procs)
      e.growth_exponent = std::max(e.growth_exponent, std::log(time / e.last_time_s) /
                                                          std::log(procs / e.last_procs));
    e.last_time_s = time;
    e.last_procs = procs;
    e.known = true;
  }
  return e;
}

}  // namespace qnm
