#pragma once
// A ChartSet built from real NPB-MZ LU-MZ class C runs on LLNL cab (16 OpenMP
// threads per MPI process, one process per node), for the plots tests.
//
// Measured run times: NPB "Time in seconds", read by hand from
//   /work/shared/data/mpip/npb-stdout/tpatki-npbmz__lu-mz.C.<P>.<P>.<pid>.1.out.dat
//   P=1 pid 15433: 37.28   (a second P=1 run, /work/shared/data/npb/
//                           llnl-cab_lu-mz.C.np1.th16.omp.out: 37.00)
//   P=2 pid 15831: 18.82   P=4 pid 16254: 9.54   P=8 pid 16706: 4.73
//   P=16 pid 17216: 2.37   (all with "Total threads = 16 P")
// Measured components: the "*" row of "MPI Time (seconds)" (AppTime and
// MPITime summed over ranks) in the matching tpatki-npbmz__lu-mz.C.*.mpiP:
//   P=1: 38 / 0.000623   P=2: 38.3 / 0.485   P=4: 38.9 / 0.904
//   P=8: 38.6 / 0.977    P=16: 38.8 / 1.97
// Messages and bytes: sums of Count and Total over "Aggregate Sent Message
// Size" in the same reports: P=2: 336 msgs, 2.96e8 B; P=4: 1276, 4.92e8;
// P=8: 3760, 7.88e8; P=16: 9936, 9.84e8 (P=1 sends only 17 self-collectives).
//
// The "model" here is a deliberately simple stand-in fitted to the training
// runs (P <= 8; P = 16 is held out) — Amdahl for compute with the
// Karp-Flatt serial fraction, power laws for MPI
// and the inputs — so the charts have realistic shapes. The real
// model lives in models/; these tests only check the drawing.
#include <cmath>
#include <cstdio>
#include <vector>

#include "plots/charts.h"

namespace qnm::plots::testdata {

/// Least-squares fit of y = a + b x; returns {a, b}.
inline std::pair<double, double> FitLine(const std::vector<double>& x, const std::vector<double>& y) {
  double n = x.size(), sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {(sy - b * sx) / n, b};
}

/// A power law value = c P^e fitted in log-log space, sampled on a dense grid.
inline ModelInputCurve PowerLawInput(const char* name, const char* unit,
                                     std::vector<std::pair<int, double>> measured) {
  std::vector<double> x, y;
  for (const auto& [p, value] : measured) {
    x.push_back(std::log(p));
    y.push_back(std::log(value));
  }
  const auto [log_c, exponent] = FitLine(x, y);
  ModelInputCurve curve;
  curve.name = name;
  curve.unit = unit;
  curve.measured = std::move(measured);
  for (int p = 1; p <= 128; p *= 2) curve.fitted.push_back({p, std::exp(log_c) * std::pow(p, exponent)});
  char formula[96];
  std::snprintf(formula, sizeof formula, "%.3g * P^%.2f", std::exp(log_c), exponent);
  curve.formula = formula;
  return curve;
}

inline ChartSet LuMzClassC() {
  ChartSet set;
  set.context = {"lu-mz.C th=16", "LLNL cab", "lu-mz.C.th16"};
  const int procs[] = {1, 2, 4, 8, 16};
  const double time_s[] = {37.14, 18.82, 9.54, 4.73, 2.37};  // P=1: median of 37.00 and 37.28
  const double app_total_s[] = {38.0, 38.3, 38.9, 38.6, 38.8};
  const double mpi_total_s[] = {0.000623, 0.485, 0.904, 0.977, 1.97};
  const double messages[] = {0, 336, 1276, 3760, 9936};
  const double bytes[] = {0, 2.96000400e8, 4.92000864e8, 7.88001984e8, 9.84004984e8};

  std::vector<double> log_p, log_mpi_s;
  std::vector<std::pair<int, double>> messages_per_rank, bytes_per_message, service_s, compute_in;
  for (int i = 0; i < 5; ++i) {
    const int p = procs[i];
    MeasuredPoint point;
    point.procs = p;
    point.time_s = time_s[i];
    point.min_s = p == 1 ? 37.00 : time_s[i];
    point.max_s = p == 1 ? 37.28 : time_s[i];
    point.training = p <= 8;
    set.measured.push_back(point);

    const double compute_per_rank = (app_total_s[i] - mpi_total_s[i]) / p;
    const double mpi_per_rank = mpi_total_s[i] / p;
    set.measured_components.push_back({p, compute_per_rank, mpi_per_rank});
    compute_in.push_back({p, compute_per_rank});
    if (p > 1) {
      messages_per_rank.push_back({p, messages[i] / p});
      bytes_per_message.push_back({p, bytes[i] / messages[i]});
      service_s.push_back({p, mpi_total_s[i] / messages[i]});
    }
    if (point.training) {
      if (p > 1) {
        log_p.push_back(std::log(p));
        log_mpi_s.push_back(std::log(mpi_per_rank));
      }
    }
  }
  // Serial fraction: mean Karp-Flatt metric e = (1/S - 1/P) / (1 - 1/P) over
  // the training runs with P > 1 (Karp & Flatt, CACM 33(5), 1990).
  double karp_flatt_sum = 0;
  int karp_flatt_count = 0;
  for (const MeasuredPoint& point : set.measured) {
    if (!point.training || point.procs == 1) continue;
    const double speedup = set.measured.front().time_s / point.time_s;
    karp_flatt_sum += (1.0 / speedup - 1.0 / point.procs) / (1.0 - 1.0 / point.procs);
    ++karp_flatt_count;
  }
  const double f = karp_flatt_sum / karp_flatt_count;
  const double compute_1_s = set.measured_components.front().compute_s;
  const auto [log_mpi_c, mpi_exponent] = FitLine(log_p, log_mpi_s);
  set.serial_fraction = f;
  set.interval_level = 0.9;
  for (int p = 1; p <= 128; p *= 2) {
    PredictedPoint point;
    point.procs = p;
    point.compute_s = compute_1_s * (f + (1.0 - f) / p);  // Amdahl
    const double mpi = p == 1 ? 0.0 : std::exp(log_mpi_c) * std::pow(p, mpi_exponent);
    point.switch_delay_s = 0.10 * mpi;
    point.mpi_active_s = 0.55 * mpi;
    point.contention_s = 0.35 * mpi;
    point.time_s = point.compute_s + mpi;
    const double half_width = 0.04 * (1.0 + std::log2(p) / 2.0);  // widens with extrapolation
    point.lower_s = point.time_s * (1.0 - half_width);
    point.upper_s = point.time_s * (1.0 + half_width);
    set.predicted.push_back(point);
  }
  set.inputs.push_back(PowerLawInput("messages per rank", "messages", messages_per_rank));
  set.inputs.push_back(PowerLawInput("bytes per message", "bytes", bytes_per_message));
  set.inputs.push_back(PowerLawInput("service time per message", "s", service_s));
  set.inputs.push_back(PowerLawInput("compute time per rank", "s", compute_in));
  return set;
}

}  // namespace qnm::plots::testdata
