#pragma once
// Presenting a Result: JSON under the keys of the mva-vector schema's `expected`
// (X, R, Q, Rk, U, Ubusy) and a plain-text table.
#include <string>

#include <nlohmann/json.hpp>

#include "mva/network.h"
#include "mva/solver.h"

namespace qnm::mva {

/// {"X": [c], "R": [c], "Q": [k][c], "Rk": [k][c], "U": [k][c], "Ubusy": {"k": ..}
/// (load-dependent stations only), "classes", "stations", "summary"}; NaN -> null.
nlohmann::ordered_json ResultToJson(const Network& network, const Result& result);

/// A human-readable table: per class X and R, per station Q/Rk/U per class and Ubusy.
std::string ResultTable(const Network& network, const Result& result);

}  // namespace qnm::mva
