#pragma once
// What a run killed by SIGKILL leaves behind, and who may remove it. A signal
// handler cannot run on SIGKILL (or a power cut), so the temporary of an
// interrupted write stays beside the output. The journal records every
// temporary this tool creates, in a private state folder, as an entry that
// names the temporary's path, device, inode and creation time (statx) and that the creating process
// holds locked (flock) while the temporary lives. The next run that writes an
// output sweeps the journal: an entry nobody holds belongs to a dead run, and
// its temporary is removed only when the path still names the very file or
// folder that run created (same device, inode, type and creation time). A
// user's file is never removed: it is not in the journal, and a file the user
// puts at a recorded path later has a later creation time even when it gets
// the freed inode number (README.md on outputs). A file system without
// creation times leaves the journal off for its temporaries.
//
// The state folder is $QNM_STATE_DIR, else $XDG_STATE_HOME/qnm-predict/temporaries,
// else $HOME/.local/state/qnm-predict/temporaries (created 0700). When none can
// be created the journal is off: a killed run's temporary then stays behind,
// named "<output>.tmp.<pid>.<token>", for the user to delete.
#include <string>

#include "util/temp_registry.h"

namespace qnm {

/// An entry of the journal, held (locked) by this process until Forget.
struct TempJournalEntry {
  int fd = -1;             // the open, locked entry file; -1 = not recorded
  std::string entry_path;  // the entry file in the state folder
};

/// Records `path` (a temporary just created by this process, of `kind`).
/// Returns an entry with fd -1 when the journal is off or the path cannot be
/// stat'ed; the write goes on then, only unrecorded.
TempJournalEntry RecordTemp(const std::string& path, TempKind kind);

/// Removes the entry (after the temporary was renamed into place or removed).
void ForgetTemp(TempJournalEntry* entry);

/// What one sweep did (for tests and the summary in docs).
struct TempSweepSummary {
  int entries_seen = 0;       // entries of dead runs examined
  int temporaries_removed = 0;
  int entries_of_live_runs = 0;  // held by a running process: left alone
  int not_ours_anymore = 0;      // path gone, or now another file: entry dropped, path untouched
};

/// Sweeps the journal once (see above). Never throws; errors leave things as they are.
TempSweepSummary SweepTempsOfKilledRuns();

/// The journal's folder, or "" when the journal is off (no usable state folder).
std::string TempJournalDirectory();

}  // namespace qnm
