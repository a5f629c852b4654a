#pragma once
// What the training runs say of strong scaling itself. The models predict one
// problem at every process count; a series whose measured time does not fall
// while P grows severalfold is a weak-scaling campaign (the work per process
// fixed, e.g. LULESH's -s per rank) or a code past its scaling limit, and the
// user should know which question the prediction answers.
#include <string>
#include <utility>
#include <vector>

namespace qnm {

/// The smallest growth of P (largest / smallest training P) at which a time that does not fall is noted.
inline constexpr double kNoSpeedupMinProcsRatio = 4.0;
/// The time at the largest training P, as a fraction of the time at the smallest, from which on it
/// has not fallen (a strong-scaling series at 4x the processes runs in at most 1/4 of the time with
/// perfect scaling; 0.9 leaves room for noise only).
inline constexpr double kNoSpeedupTimeRatio = 0.9;

/// `points` (P, measured time s), sorted by P: a note when P grows at least kNoSpeedupMinProcsRatio-fold
/// and the time at the largest P is at least kNoSpeedupTimeRatio of the time at the smallest; else "".
std::string NoSpeedupNote(const std::vector<std::pair<int, double>>& points);

}  // namespace qnm
