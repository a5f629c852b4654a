#pragma once
// The trace a trace command reads (`trace analyze`, `trace stats`, `whatif`):
// an OTF2 anchor or the folder holding it, as it is; or a tar or .zip archive
// holding one trace (a Score-P experiment folder kept as traces.tar.gz), whose
// trace is unpacked into a private temporary folder for the OTF2 library,
// which reads a trace's several files from disk, and removed with this
// object. What the commands print names the archive member, never that folder.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ingest/run_archive.h"

namespace qnm {

class TraceInput {
 public:
  /// Throws InputError naming `path` when it is an archive holding no OTF2
  /// trace or more than one, or a damaged or over-large archive.
  explicit TraceInput(const std::string& path);

  /// What the OTF2 reader opens: `path` itself, or the unpacked anchor.
  const std::string& ReadPath() const { return read_path_; }
  /// What the user is told: `path` itself, or "<archive>/<member>.otf2".
  const std::string& ShownPath() const { return shown_path_; }
  /// `text` with every unpacked path told as the archive member it was.
  std::string Told(const std::string& text) const;

 private:
  std::string read_path_, shown_path_;
  std::unique_ptr<ArchivedTraces> traces_;  // set for an archive
};

/// `text` told by every input in turn (TraceInput::Told).
std::string ToldByAll(const std::vector<const TraceInput*>& inputs, std::string text);

/// Runs `run`; an error it throws is thrown again (an InputError as an InputError) with the
/// unpacked paths of `inputs` told as the archive members they were.
void RunTellingArchiveMembers(const std::vector<const TraceInput*>& inputs, const std::function<void()>& run);

}  // namespace qnm
