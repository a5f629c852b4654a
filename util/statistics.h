#pragma once
// Order statistics over measurements in which unknown values are NaN.
#include <vector>

namespace qnm {

/// Median of the known (non-NaN) values; NaN when there are none.
double MedianOfKnown(std::vector<double> values);

}  // namespace qnm
