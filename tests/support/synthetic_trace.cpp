#include "tests/support/synthetic_trace.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace qnm::trace {
namespace {

enum RegionId : uint32_t { kMain, kCompute, kIrecv, kIsend, kWaitall, kAllreduce, kRegions };
constexpr uint64_t kLatencyTicks = 2000;  // 2 us at 1 GHz

OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }

struct Lcg {
  uint64_t state;
  uint64_t Next(uint64_t range) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % range;
  }
};

void Check(OTF2_ErrorCode status, const char* what) {
  if (status != OTF2_SUCCESS) throw std::runtime_error(std::string("OTF2 writer: ") + what);
}

}  // namespace

uint64_t WriteStencilTrace(const std::string& directory, const StencilTraceOptions& options) {
  const int P = options.ranks;
  if (P < 2 || options.iterations < 1) throw std::runtime_error("stencil trace needs >= 2 ranks, >= 1 iteration");
  OTF2_Archive* archive = OTF2_Archive_Open(directory.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20,
                                            4 << 20, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive) throw std::runtime_error("cannot create OTF2 archive in " + directory);
  OTF2_FlushCallbacks flush = {PreFlush, nullptr};
  Check(OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr), "flush callbacks");
  Check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "collective callbacks");
  Check(OTF2_Archive_OpenEvtFiles(archive), "open event files");
  std::vector<OTF2_EvtWriter*> writers(P);
  for (int r = 0; r < P; ++r) writers[r] = OTF2_Archive_GetEvtWriter(archive, static_cast<OTF2_LocationRef>(r));

  std::vector<uint64_t> now(P, 0), events(P, 0), send_ticks(2 * P), wait_enter(P);
  std::vector<uint64_t> request(P, 0);
  Lcg lcg{options.seed};
  auto enter = [&](int r, uint64_t t, uint32_t region) {
    OTF2_EvtWriter_Enter(writers[r], nullptr, t, region);
    ++events[r];
  };
  auto leave = [&](int r, uint64_t t, uint32_t region) {
    OTF2_EvtWriter_Leave(writers[r], nullptr, t, region);
    ++events[r];
  };
  for (int r = 0; r < P; ++r) enter(r, 0, kMain);
  int allreduces = options.allreduce_every > 0 ? options.iterations / options.allreduce_every : 0;
  int allreduce_index = 0;
  bool dropped = false;
  for (int it = 0; it < options.iterations; ++it) {
    for (int r = 0; r < P; ++r) {
      uint64_t t = now[r] + 100;
      enter(r, t, kCompute);
      // Load imbalance: higher ranks compute a little longer, plus jitter.
      t += 40000 + 500 * static_cast<uint64_t>(r) + lcg.Next(20000);
      leave(r, t, kCompute);
      for (int side = 0; side < 2; ++side) {
        enter(r, t += 100, kIrecv);
        OTF2_EvtWriter_MpiIrecvRequest(writers[r], nullptr, t += 50, 2 * request[r] + side);
        leave(r, t += 50, kIrecv);
        events[r] += 1;
      }
      for (int side = 0; side < 2; ++side) {
        int peer = side == 0 ? (r + 1) % P : (r + P - 1) % P;
        enter(r, t += 100, kIsend);
        OTF2_EvtWriter_MpiIsend(writers[r], nullptr, t += 50, peer, 0, side, 8192, 2 * request[r] + side + (1ull << 40));
        send_ticks[2 * r + side] = t;
        leave(r, t += 100, kIsend);
        events[r] += 1;
      }
      enter(r, wait_enter[r] = t += 100, kWaitall);
      now[r] = t;
    }
    for (int r = 0; r < P; ++r) {
      uint64_t t = wait_enter[r];
      for (int side = 0; side < 2; ++side) {
        OTF2_EvtWriter_MpiIsendComplete(writers[r], nullptr, t += 50, 2 * request[r] + side + (1ull << 40));
        ++events[r];
      }
      // From the left neighbour (its tag-0 send to the right), then from the right (tag 1).
      int left = (r + P - 1) % P, right = (r + 1) % P;
      uint64_t arrivals[2] = {send_ticks[2 * left] + kLatencyTicks, send_ticks[2 * right + 1] + kLatencyTicks};
      int sources[2] = {left, right};
      for (int side = 0; side < 2; ++side) {
        t = std::max(t + 50, arrivals[side]);
        if (options.drop_first_receive && r == 0 && !dropped) {
          dropped = true;
          continue;
        }
        OTF2_EvtWriter_MpiIrecv(writers[r], nullptr, t, sources[side], 0, side, 8192, 2 * request[r] + side);
        ++events[r];
      }
      leave(r, now[r] = t + 300, kWaitall);
      ++request[r];
    }
    if (options.allreduce_every > 0 && (it + 1) % options.allreduce_every == 0) {
      ++allreduce_index;
      bool last = allreduce_index == allreduces;
      uint64_t latest = 0;
      for (int r = 0; r < P; ++r) latest = std::max(latest, now[r] + 100);
      for (int r = 0; r < P; ++r) {
        if (last && r == options.skip_last_allreduce_on) continue;
        enter(r, now[r] + 100, kAllreduce);
        OTF2_EvtWriter_MpiCollectiveBegin(writers[r], nullptr, now[r] + 100);
        uint64_t end = latest + 5000 + 10 * static_cast<uint64_t>(r);
        OTF2_EvtWriter_MpiCollectiveEnd(writers[r], nullptr, end, OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                                        OTF2_COLLECTIVE_ROOT_NONE, 8, 8);
        leave(r, now[r] = end, kAllreduce);
        events[r] += 2;
      }
    }
  }
  uint64_t trace_end = 0;
  for (int r = 0; r < P; ++r) {
    leave(r, now[r] + 100, kMain);
    trace_end = std::max(trace_end, now[r] + 100);
    Check(OTF2_Archive_CloseEvtWriter(archive, writers[r]), "close event writer");
  }
  Check(OTF2_Archive_CloseEvtFiles(archive), "close event files");
  Check(OTF2_Archive_OpenDefFiles(archive), "open definition files");
  for (int r = 0; r < P; ++r)
    Check(OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, static_cast<OTF2_LocationRef>(r))),
          "local definitions");
  Check(OTF2_Archive_CloseDefFiles(archive), "close definition files");

  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive);
  OTF2_GlobalDefWriter_WriteClockProperties(defs, 1000000000, 0, trace_end + 1, 0);
  const char* strings[] = {"",          "main",      "compute",        "MPI_Irecv", "MPI_Isend",
                           "MPI_Waitall", "MPI_Allreduce", "machine",   "node",      "node0",
                           "Master thread", "MPI_COMM_WORLD", "MPI", "stencil.c"};
  for (uint32_t s = 0; s < sizeof strings / sizeof *strings; ++s) OTF2_GlobalDefWriter_WriteString(defs, s, strings[s]);
  const OTF2_RegionRole roles[kRegions] = {OTF2_REGION_ROLE_FUNCTION, OTF2_REGION_ROLE_FUNCTION,
                                           OTF2_REGION_ROLE_POINT2POINT, OTF2_REGION_ROLE_POINT2POINT,
                                           OTF2_REGION_ROLE_FUNCTION, OTF2_REGION_ROLE_COLL_ALL2ALL};
  for (uint32_t region = 0; region < kRegions; ++region) {
    bool mpi = region >= kIrecv;
    OTF2_GlobalDefWriter_WriteRegion(defs, region, region + 1, region + 1, 0, roles[region],
                                     mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
                                     mpi ? 12 : 13, 0, 0);
  }
  OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, 7, 7, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 1, 9, 8, 0);
  std::vector<uint64_t> members(P);
  for (int r = 0; r < P; ++r) {
    uint32_t name = 14 + r;
    OTF2_GlobalDefWriter_WriteString(defs, name, ("MPI Rank " + std::to_string(r)).c_str());
    OTF2_GlobalDefWriter_WriteLocationGroup(defs, r, name, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(defs, r, 10, OTF2_LOCATION_TYPE_CPU_THREAD, events[r], r);
    members[r] = static_cast<uint64_t>(r);
  }
  OTF2_GlobalDefWriter_WriteGroup(defs, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, P, members.data());
  OTF2_GlobalDefWriter_WriteGroup(defs, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, P, members.data());
  OTF2_GlobalDefWriter_WriteComm(defs, 0, 11, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  Check(OTF2_Archive_Close(archive), "close archive");
  uint64_t total = 0;
  for (uint64_t n : events) total += n;
  return total;
}

}  // namespace qnm::trace
