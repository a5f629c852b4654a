#pragma once
// HPCToolkit databases of format 4 (HPCToolkit 2022.10 and later;
// docs/formats/hpctoolkit-database.md, "format 4"): hpcprof writes `meta.db`
// (the calling context tree, metrics, functions, identifier names), and
// `profile.db` (each measured thread's metric values, sparse: per context,
// metric-id/value pairs), beside `cct.db` and `trace.db`, which are not
// needed here. Binary, little-endian, documented field by field in the
// FORMATS.md hpcprof puts into every database; read by hpcviewer and by
// Hatchet (GraphFrame.from_hpctoolkit, its v4 reader).
//
// A database is one run; meta.db stands for it, like experiment.xml for the
// older format (hpctoolkit_database.h), which gives the record its shape:
// per rank (thread 0) the entry points' inclusive time and the outermost
// MPI_*/PMPI_* frames' inclusive time, time per MPI routine, threads, and
// nodes from the host ids.
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "hpctoolkit/hpctoolkit_database.h"

namespace qnm {

/// What meta.db says that the run needs.
struct HpctoolkitMeta {
  std::string title;             // the General section's title (the program, as hpcprof names it)
  std::string version;           // "4.<minor>"
  std::string time_metric;       // e.g. "CPUTIME (sec)"
  std::uint16_t time_metric_id = 0;  // propMetricId of its "execution" (inclusive) scope
  double seconds_per_unit = 1.0;
  std::vector<std::uint32_t> entry_points;  // context ids of the tree's entry points
  struct MpiFrame {
    std::uint32_t context = 0;
    std::string routine;  // without "MPI_"/"PMPI_"
  };
  std::vector<MpiFrame> mpi_frames;  // MPI function contexts with no MPI function above them
  std::vector<std::string> kind_names;  // identifier kinds: "NODE", "RANK", "THREAD", ...
};

/// True when `text` starts like a meta.db (`HPCTOOLKITmeta`, major version 4).
bool LooksLikeHpctoolkitMeta(std::string_view text);

/// meta.db's `bytes`; InputError(path, 0, why) for a damaged file or one of another major version.
HpctoolkitMeta ParseHpctoolkitMeta(std::string_view bytes, const std::string& path);

/// One measured thread of profile.db: its identifiers and, for CPU threads, the values the run needs.
struct HpctoolkitV4Profile {
  int rank = 0, thread = 0;   // RANK and THREAD logical ids (0 when the tuple has none)
  bool gpu = false;           // a GPU context or stream (GPUCONTEXT/GPUSTREAM/GPUDEVICE in the tuple)
  bool has_node = false;
  std::uint64_t node = 0;     // NODE physical id (the host id)
  std::uint64_t block = 0;    // offset of its value block header
};

/// Random access to profile.db: its header and profile list, then one profile's values at a time.
class HpctoolkitProfileDb {
 public:
  /// Opens `path` and reads its header, profile list and identifier tuples; InputError naming it.
  HpctoolkitProfileDb(const std::string& path, const HpctoolkitMeta& meta);
  const std::vector<HpctoolkitV4Profile>& Profiles() const { return profiles_; }
  /// The entry points' and MPI frames' inclusive time, in seconds, of `profile`.
  HpctoolkitRankTimes Times(const HpctoolkitV4Profile& profile) const;
  /// Bytes read from the file so far.
  double BytesRead() const { return bytes_read_; }
  /// A digest of the profiles' value blocks read (the measurement: two runs may share a meta.db).
  const std::string& Digests() const { return digests_; }

 private:
  std::string Read(std::uint64_t offset, std::uint64_t size, const char* what) const;

  std::string path_;
  const HpctoolkitMeta* meta_;
  mutable std::ifstream in_;  // opened once; every read seeks it
  std::uint64_t size_ = 0;
  std::vector<HpctoolkitV4Profile> profiles_;
  std::string infos_;              // the Profile Info section (the value block headers)
  std::uint64_t infos_offset_ = 0;
  mutable double bytes_read_ = 0;
  mutable std::string digests_;
};

}  // namespace qnm
