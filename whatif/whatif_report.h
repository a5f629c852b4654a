#pragma once
// Text and JSON renderings of a what-if simulation: original vs predicted run
// time, gain, per-rank end times, region times and the biggest wait changes.
#include <string>

#include "whatif/whatif_simulation.h"

namespace qnm::trace {

std::string WhatifTable(const WhatifResult& result, int top = 10);
std::string WhatifJson(const WhatifResult& result, int top = 10);

}  // namespace qnm::trace
