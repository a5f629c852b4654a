#pragma once
// Temporary outputs that a killed run must not leave behind. Every temporary
// file or directory the program creates is registered in a fixed table; a
// SIGINT/SIGTERM/SIGHUP handler removes what is registered (with system calls
// only: it is async-signal-safe) and re-raises the signal. Temporary names
// carry the creating process id and a random token; nothing is ever removed
// because of its name alone: a user's "out.csv.tmp.99999" is never taken for
// one (issue 19). A run killed by SIGKILL cannot clean up; every temporary is
// therefore also recorded in a journal (util/temp_journal.h) from which the
// next run removes exactly the files and folders that dead runs created.
#include <string>

namespace qnm {

enum class TempKind { kFile, kDirectory };

/// Registers `path` for removal on a fatal signal; installs the handlers on
/// first use (only where the signal is not ignored). Returns a slot id for
/// UnregisterTemp, or -1 when the table is full or the path too long (the
/// path is then simply not cleaned up on a signal).
int RegisterTemp(const std::string& path, TempKind kind);

/// Installs the cleanup handler for SIGINT, SIGTERM and SIGHUP where their
/// action is the default (an ignored signal or a caller's handler is left
/// alone). RegisterTemp calls it once; calling it again is harmless.
void InstallTempCleanupHandlers();

/// Forgets the slot (after the temporary was renamed into place or removed).
void UnregisterTemp(int slot);

/// "<path>.tmp.<pid>.<token>": a fresh name for a temporary of `path`, with a
/// random 12-character token (create it with O_EXCL; retry on EEXIST).
std::string TempFileFor(const std::string& path);

/// Removes what is registered now (used by the signal handler; for tests).
void RemoveRegisteredTemps();

}  // namespace qnm
