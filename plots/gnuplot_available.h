#pragma once
// Finding the gnuplot executable and asking it which terminals it was built with.
#include <string>

namespace qnm::plots {

/// Full path of the first executable `gnuplot` on PATH; empty when there is none.
std::string FindGnuplot();

/// Gnuplot's GPVAL_TERMINALS (space-separated terminal names); empty on failure.
std::string GnuplotTerminals(const std::string& gnuplot_path);

/// True when `terminals` (as from GnuplotTerminals) lists `name` as a whole word.
bool HasTerminal(const std::string& terminals, const std::string& name);

}  // namespace qnm::plots
