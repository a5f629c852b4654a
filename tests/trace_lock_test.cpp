// Lock Contention (Scalasca 2.x passive-target synchronisation) on a trace
// built in memory: no real or synthetic OTF2 trace holds two lock epochs on
// the same target.
#include <catch2/catch.hpp>

#include <otf2/otf2.h>

#include "trace/wait_states.h"

using namespace qnm::trace;

namespace {

Region MpiRegion(const std::string& name, uint8_t role) {
  return DescribeRegion(name, role, OTF2_PARADIGM_MPI);
}

/// Rank `rank` locks target 2 exclusively: Win_lock [lock_enter, acquired+10],
/// Win_unlock [release-10, release+10], inside main [0, 1000] (ns ticks).
void LockEpoch(Trace* trace, uint32_t rank, uint64_t lock_enter, uint64_t acquired, uint64_t release) {
  LocationTrace& out = trace->ranks[rank];
  CallPaths& paths = trace->call_paths;
  uint32_t main = paths.Child(CallPaths::kNoParent, 0);
  uint32_t lock = paths.Child(main, 1), unlock = paths.Child(main, 2);
  out.rma_locks = {{0, 2, 1, LockEvent::kRequest}, {0, 2, 1, LockEvent::kAcquire}, {0, 2, 0, LockEvent::kRelease}};
  out.events = {{0, main, EventKind::kEnter},
                {lock_enter, lock, EventKind::kEnter},
                {lock_enter, 0, EventKind::kRmaLock},
                {acquired, 1, EventKind::kRmaLock},
                {acquired + 10, lock, EventKind::kLeave},
                {release - 10, unlock, EventKind::kEnter},
                {release, 2, EventKind::kRmaLock},
                {release + 10, unlock, EventKind::kLeave},
                {1000, main, EventKind::kLeave}};
}

}  // namespace

TEST_CASE("wait states: lock contention after an exclusive epoch", "[trace]") {
  Trace trace;
  trace.timer_resolution = 1000000000;
  Region main;
  main.name = "main";
  trace.call_paths.SetRegion(0, main);
  trace.call_paths.SetRegion(1, MpiRegion("MPI_Win_lock", OTF2_REGION_ROLE_FUNCTION));
  trace.call_paths.SetRegion(2, MpiRegion("MPI_Win_unlock", OTF2_REGION_ROLE_FUNCTION));
  trace.comms = {Communicator{"MPI_COMM_WORLD", {0, 1, 2}, false}};
  trace.windows = {RmaWindow{"win", 0}};
  trace.ranks.resize(3);
  LockEpoch(&trace, 0, 100, 110, 510);  // holds the lock until 510 ns
  LockEpoch(&trace, 1, 200, 515, 610);  // asked at 200 ns: waits 310 ns
  trace.ranks[2].events = {{0, trace.call_paths.Child(CallPaths::kNoParent, 0), EventKind::kEnter},
                           {1000, 0, EventKind::kLeave}};
  WaitStateResult result = AnalyzeWaitStates(trace);
  uint32_t lock_path = trace.call_paths.Child(trace.call_paths.Child(CallPaths::kNoParent, 0), 1);
  CHECK(result.At(Pattern::kRmaSyncLockCompetition, lock_path, 1) == Approx(310e-9).epsilon(1e-12));
  CHECK(result.TotalOnRank(Pattern::kRmaSyncLockCompetition, 0) == 0.0);
  CHECK(result.Total(Pattern::kRmaSyncLockCompetition) == Approx(310e-9).epsilon(1e-12));
  // The lock and unlock time is passive-target synchronisation in the profile.
  CHECK(trace.call_paths.RegionOf(lock_path).category == TimeCategory::kRmaSyncPassive);
  CHECK(result.ExclusiveTime(lock_path, 1) == Approx(325e-9).epsilon(1e-12));
}
