#pragma once
// The numbers an application's log prints (LAMMPS, VASP): read strictly, or an InputError that
// names the file, the line and what was expected there.
#include <string>
#include <string_view>

namespace qnm {

/// `token` as a finite number >= 0; throws InputError(path, line, "<what> needs a non-negative
/// number, got '<token>'") otherwise. Blanks around the number are allowed.
double NonNegativeNumber(std::string_view token, const std::string& path, int line, const char* what);

/// `token` as a whole number in [least, 2^40]; throws InputError naming `what` otherwise.
long long WholeNumber(std::string_view token, const std::string& path, int line, const char* what, long long least);

}  // namespace qnm
