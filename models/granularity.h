#pragma once
// Granularity: a problem split into U indivisible units of work (the zones of
// an NPB-MZ benchmark, the domains of a decomposition, `--work-units`) cannot
// be shared evenly by P ranks unless P divides U. The busiest rank holds
// ceil(U/P) units while the mean is U/P, so the compute time of the run (the
// slowest rank's) is the mean's times ceil(U/P) / (U/P), and a run at P is
// never faster than a perfectly divisible one at P_eff = U / ceil(U/P) <= P:
// BT-MZ class C's 256 zones give the same busiest share, 3 zones, from P = 86
// to 127. This is the bin-packing bound of the zone balancing the NPB-MZ
// codes do (van der Wijngaart & Jin 2003, "NAS Parallel Benchmarks, Multi-Zone
// Versions", §3: zones are assigned to processes by size, so with equal zones
// the busiest process holds ceil(zones / P)); with unequal zones it is a floor.
namespace qnm {

struct Granularity {
  int units = 0;  // 0 = unknown: no granularity bound

  bool Known() const { return units > 0; }
  /// ceil(U/P), the units the busiest of `procs` ranks holds (0 when unknown or P < 1).
  long BusiestUnits(int procs) const;
  /// ceil(U/P) / (U/P) >= 1: the busiest rank's compute over the mean's (1 when unknown
  /// or P > U, where the run is impossible and not predicted).
  double BusiestOverMean(int procs) const;
  /// U / ceil(U/P) <= P: the process count at which perfectly divisible work gives every
  /// rank the busiest rank's share (P when unknown).
  double EffectiveProcs(int procs) const;
};

}  // namespace qnm
