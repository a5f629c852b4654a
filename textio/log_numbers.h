#pragma once
// The numbers an application's log prints (LAMMPS, VASP): read strictly, or an InputError that
// names the file, the line and what was expected there.
#include <string>
#include <string_view>

namespace qnm {

/// `token` as a finite number >= 0; throws InputError(path, line, "<what> needs a non-negative
/// number, got '<token>'") otherwise. Blanks around the number are allowed.
double NonNegativeNumber(std::string_view token, const std::string& path, int line, const char* what);

/// `token` as a whole number in [least, most]; throws InputError naming `what` otherwise.
long long WholeNumber(std::string_view token, const std::string& path, int line, const char* what, long long least,
                      long long most = 1LL << 40);

/// `value` as a record's details keep a number a log printed: %.10g ("1771.723", "8.3e-05").
std::string NumberText(double value);

/// The same for a count of ranks, threads or nodes, which the record keeps as an int: at most 2^24.
int WholeCount(std::string_view token, const std::string& path, int line, const char* what, int least);

}  // namespace qnm
