#include "trace/call_paths.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cctype>
#include <regex>

#include "util/text_format.h"

namespace qnm::trace {
namespace {

bool StartsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

const char* MetricIdOf(TimeCategory category) {
  switch (category) {
    case TimeCategory::kComputation: return "comp";
    case TimeCategory::kPaused: return "measurement_off";
    case TimeCategory::kInitExit: return "mpi_init_exit";
    case TimeCategory::kMgmtComm: return "mpi_mgmt_comm";
    case TimeCategory::kMgmtFile: return "mpi_mgmt_file";
    case TimeCategory::kMgmtWin: return "mpi_mgmt_win";
    case TimeCategory::kSyncCollective: return "mpi_sync_collective";
    case TimeCategory::kRmaSyncActive: return "mpi_rma_sync_active";
    case TimeCategory::kRmaSyncPassive: return "mpi_rma_sync_passive";
    case TimeCategory::kP2p: return "mpi_point2point";
    case TimeCategory::kCollective: return "mpi_collective";
    case TimeCategory::kRmaComm: return "mpi_rma_communication";
    case TimeCategory::kIo: return "mpi_io";
    case TimeCategory::kMpiOther: return "mpi_other";
    case TimeCategory::kCount: break;
  }
  return "unknown";
}

// Scalasca PEARL classify_mpi: strip "MPI_", lower-case, decide by name.
CallClass ClassifyCall(const std::string& mpi_name) {
  std::string name = ToLower(StartsWith(mpi_name, "MPI_") ? mpi_name.substr(4) : mpi_name);
  if (name == "init" || name == "init_thread") return CallClass::kInit;
  if (name == "finalize") return CallClass::kFinalize;
  if (StartsWith(name, "sendrecv")) return CallClass::kSendrecv;
  if (name == "send" || name == "ssend") return CallClass::kBlockingSend;  // is_mpi_block_send
  if (name.find("send") != std::string::npos || name == "start" || name == "startall")
    return CallClass::kOtherSend;
  if (name == "recv" || name == "irecv" || name == "recv_init" || name == "mrecv" ||
      name == "imrecv")
    return CallClass::kRecv;
  if (name == "wait" || name == "waitany") return CallClass::kWaitSingle;
  if (name == "waitall" || name == "waitsome") return CallClass::kWaitMulti;
  if (name == "test" || name == "testany" || name == "testall" || name == "testsome")
    return CallClass::kTest;
  if (name == "win_post") return CallClass::kWinPost;
  if (name == "win_start") return CallClass::kWinStart;
  if (name == "win_complete") return CallClass::kWinComplete;
  if (name == "win_wait" || name == "win_test") return CallClass::kWinWait;
  if (name == "win_fence") return CallClass::kWinFence;
  if (name == "win_lock" || name == "win_unlock" || name == "win_lock_all" ||
      name == "win_unlock_all")
    return CallClass::kWinLock;
  if (name == "put" || name == "rput" || name == "get" || name == "rget" ||
      StartsWith(name, "accumulate") || StartsWith(name, "raccumulate") ||
      StartsWith(name, "get_accumulate") || StartsWith(name, "rget_accumulate") ||
      name == "fetch_and_op" || name == "compare_and_swap")
    return CallClass::kRmaComm;
  static const char* const kCollectives[] = {
      "barrier", "bcast", "scatter", "scatterv", "reduce", "gather", "gatherv", "allgather",
      "allgatherv", "allreduce", "alltoall", "alltoallv", "alltoallw", "reduce_scatter",
      "reduce_scatter_block", "scan", "exscan"};
  std::string blocking = name.size() > 1 && name[0] == 'i' ? name.substr(1) : name;
  for (const char* collective : kCollectives)
    if (name == collective || blocking == collective) return CallClass::kCollective;
  return CallClass::kMpiOther;
}

// scout.spec.in call-path masks (docs/formats/scalasca-patterns.md section 2).
TimeCategory CategoryOf(const std::string& mpi_name, uint8_t otf2_role) {
  static const std::regex kStartup("^MPI_(Init(_thread|ialized)?|Finalize(d)?)$");
  static const std::regex kComm(
      "^MPI_(Comm_.*|Cart_.*|Graph.*|Dist_graph_.*|Intercomm_.*|Dims_create|Topo_test|"
      "Open_port|Close_port|Publish_name|Unpublish_name|Lookup_name)$");
  static const std::regex kFileMgmt(
      "^MPI_File_(close|delete|get_.*|open|preallocate|seek.*|set_.*|sync)$");
  static const std::regex kWinMgmt(
      "^MPI_Win_(allocate(_shared)?|attach|create(_dynamic|_keyval)?|delete_attr|detach|"
      "free(_keyval)?|get_(attr|group|info|name)|set_(attr|info|name)|shared_query)$");
  static const std::regex kActive("^MPI_Win_(complete|fence|post|start|test|wait)$");
  static const std::regex kPassive("^MPI_Win_((flush(_local)?|lock|unlock)(_all)?|sync)$");
  static const std::regex kWaitTest("^MPI_(Test|Wait)(all|any|some)?$");
  if (std::regex_match(mpi_name, kStartup)) return TimeCategory::kInitExit;
  if (std::regex_match(mpi_name, kComm)) return TimeCategory::kMgmtComm;
  if (std::regex_match(mpi_name, kFileMgmt)) return TimeCategory::kMgmtFile;
  if (std::regex_match(mpi_name, kWinMgmt)) return TimeCategory::kMgmtWin;
  if (otf2_role == OTF2_REGION_ROLE_BARRIER || mpi_name == "MPI_Barrier" ||
      mpi_name == "MPI_Ibarrier")
    return TimeCategory::kSyncCollective;
  if (std::regex_match(mpi_name, kActive)) return TimeCategory::kRmaSyncActive;
  if (std::regex_match(mpi_name, kPassive)) return TimeCategory::kRmaSyncPassive;
  if (otf2_role == OTF2_REGION_ROLE_POINT2POINT || std::regex_match(mpi_name, kWaitTest))
    return TimeCategory::kP2p;
  if (otf2_role == OTF2_REGION_ROLE_COLL_ONE2ALL || otf2_role == OTF2_REGION_ROLE_COLL_ALL2ONE ||
      otf2_role == OTF2_REGION_ROLE_COLL_ALL2ALL || otf2_role == OTF2_REGION_ROLE_COLL_OTHER)
    return TimeCategory::kCollective;
  if (otf2_role == OTF2_REGION_ROLE_RMA || otf2_role == OTF2_REGION_ROLE_ATOMIC)
    return TimeCategory::kRmaComm;
  if (StartsWith(mpi_name, "MPI_File_")) return TimeCategory::kIo;
  // Traces whose writer set no specific role: fall back to the name.
  switch (ClassifyCall(mpi_name)) {
    case CallClass::kBlockingSend:
    case CallClass::kOtherSend:
    case CallClass::kRecv:
    case CallClass::kSendrecv: return TimeCategory::kP2p;
    case CallClass::kCollective: return TimeCategory::kCollective;
    case CallClass::kRmaComm: return TimeCategory::kRmaComm;
    default: return TimeCategory::kMpiOther;
  }
}

void CallPaths::SetRegion(uint32_t id, Region region) {
  if (id >= regions_.size()) {
    regions_.resize(id + 1);
    defined_.resize(id + 1, false);
  }
  regions_[id] = std::move(region);
  defined_[id] = true;
}

uint32_t CallPaths::AddPausingRegion() {
  Region pausing;
  pausing.name = "MEASUREMENT OFF";  // as Score-P and Scalasca 2.6 name it
  pausing.role = OTF2_REGION_ROLE_ARTIFICIAL;
  pausing.paradigm = OTF2_PARADIGM_MEASUREMENT_SYSTEM;
  pausing.call_class = CallClass::kPausing;
  pausing.category = TimeCategory::kPaused;
  uint32_t id = static_cast<uint32_t>(regions_.size());
  SetRegion(id, std::move(pausing));
  return id;
}

uint32_t CallPaths::Child(uint32_t parent, uint32_t region) {
  std::size_t slot = parent == kNoParent ? 0 : static_cast<std::size_t>(parent) + 1;
  if (slot < recent_.size()) {
    const RecentChildren& recent = recent_[slot];
    for (std::size_t i = 0; i < RecentChildren::kSize; ++i)
      if (recent.region[i] == region) return recent.child[i];
  }
  uint64_t key = (static_cast<uint64_t>(parent) << 32) | region;
  auto it = child_index_.find(key);
  uint32_t id;
  if (it != child_index_.end()) {
    id = it->second;
  } else {
    id = static_cast<uint32_t>(nodes_.size());
    uint32_t depth = parent == kNoParent ? 0 : nodes_[parent].depth + 1;
    nodes_.push_back(CNode{parent, region, depth});
    child_index_.emplace(key, id);
  }
  if (slot >= recent_.size()) {
    RecentChildren none;
    std::fill(std::begin(none.region), std::end(none.region), kNoParent);  // no region has this id
    recent_.resize(slot + 1, none);
  }
  RecentChildren& recent = recent_[slot];
  recent.region[recent.next] = region;
  recent.child[recent.next] = id;
  recent.next = (recent.next + 1) % RecentChildren::kSize;
  return id;
}

std::string CallPaths::PathString(uint32_t cnode) const {
  std::vector<uint32_t> chain;
  for (uint32_t c = cnode; c != kNoParent; c = nodes_[c].parent) chain.push_back(c);
  std::string path;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!path.empty()) path += '/';
    path += regions_[nodes_[*it].region].name;
  }
  return path;
}

std::vector<uint32_t> CallPaths::PreOrder() const {
  std::vector<std::vector<uint32_t>> children(nodes_.size());
  std::vector<uint32_t> roots;
  for (uint32_t c = 0; c < nodes_.size(); ++c)
    (nodes_[c].parent == kNoParent ? roots : children[nodes_[c].parent]).push_back(c);
  std::vector<uint32_t> order;
  order.reserve(nodes_.size());
  std::vector<uint32_t> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    uint32_t c = stack.back();
    stack.pop_back();
    order.push_back(c);
    stack.insert(stack.end(), children[c].rbegin(), children[c].rend());
  }
  return order;
}

uint32_t CallPaths::CodeRegionOf(uint32_t cnode) const {
  for (uint32_t c = cnode; c != kNoParent; c = nodes_[c].parent)
    if (!regions_[nodes_[c].region].is_mpi) return c;
  return kNoParent;
}

Region DescribeRegion(std::string name, uint8_t otf2_role, uint8_t otf2_paradigm) {
  Region region;
  region.name = std::move(name);
  region.role = otf2_role;
  region.paradigm = otf2_paradigm;
  // Score-P marks MPI regions with the MPI paradigm; writers without one
  // (paradigm UNKNOWN) are recognised by the name.
  region.is_mpi = otf2_paradigm == OTF2_PARADIGM_MPI ||
                  (otf2_paradigm == OTF2_PARADIGM_UNKNOWN && region.name.rfind("MPI_", 0) == 0);
  if (region.is_mpi) {
    region.call_class = ClassifyCall(region.name);
    region.category = CategoryOf(region.name, otf2_role);
  }
  return region;
}

}  // namespace qnm::trace
