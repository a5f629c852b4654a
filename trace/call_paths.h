#pragma once
// Regions and the call tree (Scalasca/Cube "cnodes") of a trace. MPI regions
// are classified by name, as Scalasca's PEARL does (classify_mpi), because
// Score-P's region roles differ between versions.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace qnm::trace {

/// What an MPI call does for the wait-state analysis (PEARL classify_mpi).
enum class CallClass : uint8_t {
  kUser,          // not an MPI region
  kPausing,       // artificial region for measurement OFF..ON
  kInit,          // MPI_Init, MPI_Init_thread
  kFinalize,
  kBlockingSend,  // MPI_Send, MPI_Ssend: the only sends Late Receiver looks at
  kOtherSend,     // Bsend, Rsend, Isend*, Send_init, Start
  kRecv,          // MPI_Recv, MPI_Irecv, Recv_init
  kSendrecv,
  kWaitSingle,    // MPI_Wait, MPI_Waitany
  kWaitMulti,     // MPI_Waitall, MPI_Waitsome
  kTest,          // MPI_Test*
  kCollective,    // barrier and the blocking/non-blocking collectives
  kWinPost,
  kWinStart,
  kWinComplete,
  kWinWait,       // also MPI_Win_test
  kWinFence,
  kWinLock,       // lock, lock_all, unlock, unlock_all
  kRmaComm,       // Put, Get, Accumulate, atomics
  kMpiOther,      // any other MPI function
};

/// Time category of a region (scout.spec masks, Scalasca metric tree).
enum class TimeCategory : uint8_t {
  kComputation,
  kPaused,        // the artificial "MEASUREMENT OFF" region (measurement OFF..ON)
  kInitExit,      // mpi_init_exit
  kMgmtComm,      // mpi_mgmt_comm
  kMgmtFile,      // mpi_mgmt_file
  kMgmtWin,       // mpi_mgmt_win
  kSyncCollective,  // mpi_sync_collective
  kRmaSyncActive,   // mpi_rma_sync_active
  kRmaSyncPassive,  // mpi_rma_sync_passive
  kP2p,           // mpi_point2point
  kCollective,    // mpi_collective
  kRmaComm,       // mpi_rma_communication
  kIo,            // mpi_io
  kMpiOther,      // MPI time in no finer category (Scalasca counts it in "MPI" only)
  kCount
};
const char* MetricIdOf(TimeCategory category);

struct Region {
  std::string name;
  uint8_t role = 0;      // OTF2_RegionRole
  uint8_t paradigm = 0;  // OTF2_Paradigm
  bool is_mpi = false;
  CallClass call_class = CallClass::kUser;
  TimeCategory category = TimeCategory::kComputation;
};

/// Classifies an MPI function name ("MPI_Waitall") for the analysis.
CallClass ClassifyCall(const std::string& mpi_name);
/// Time category of an MPI function, by name and OTF2 role (scout.spec masks).
TimeCategory CategoryOf(const std::string& mpi_name, uint8_t otf2_role);
/// A region as the analysis sees it: MPI when its paradigm is MPI, or when a writer
/// left the paradigm unknown and the name starts with "MPI_"; MPI regions classified.
Region DescribeRegion(std::string name, uint8_t otf2_role, uint8_t otf2_paradigm);

struct CNode {
  uint32_t parent;  // kNoParent for roots
  uint32_t region;
  uint32_t depth;
};

/// Region table plus the call tree built from Enter events.
class CallPaths {
 public:
  static constexpr uint32_t kNoParent = 0xFFFFFFFFu;

  /// Adds a region definition with OTF2 id `id` (ids may be sparse).
  void SetRegion(uint32_t id, Region region);
  /// Adds the artificial "MEASUREMENT OFF" region and returns its id.
  uint32_t AddPausingRegion();
  bool HasRegion(uint32_t id) const { return id < regions_.size() && defined_[id]; }
  const Region& region(uint32_t id) const { return regions_[id]; }
  std::size_t region_count() const { return regions_.size(); }

  /// The call path `parent`/`region`, created on first use.
  uint32_t Child(uint32_t parent, uint32_t region);
  const CNode& node(uint32_t cnode) const { return nodes_[cnode]; }
  const Region& RegionOf(uint32_t cnode) const { return regions_[nodes_[cnode].region]; }
  std::size_t size() const { return nodes_.size(); }
  /// "main/foo/MPI_Recv".
  std::string PathString(uint32_t cnode) const;
  /// Call path ids in depth-first pre-order (children in creation order).
  std::vector<uint32_t> PreOrder() const;
  /// Nearest ancestor-or-self that is not an MPI region (kNoParent if none).
  uint32_t CodeRegionOf(uint32_t cnode) const;

 private:
  std::vector<Region> regions_;
  std::vector<bool> defined_;
  std::vector<CNode> nodes_;
  std::unordered_map<uint64_t, uint32_t> child_index_;
  // Per parent (index parent + 1; 0 = roots): the children looked up last.
  // Loops enter the same few children (compute, MPI_Irecv, MPI_Isend,
  // MPI_Waitall, ...) again and again, so this skips most hashing.
  struct RecentChildren {
    static constexpr std::size_t kSize = 8;
    uint32_t region[kSize];
    uint32_t child[kSize];
    uint32_t next = 0;  // the entry replaced on the next miss
  };
  std::vector<RecentChildren> recent_;
};

}  // namespace qnm::trace
