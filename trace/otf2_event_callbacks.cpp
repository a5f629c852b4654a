#include "trace/otf2_event_callbacks.h"

#include <string>

namespace qnm::trace {

void AddQuirkWarnings(const QuirkCounts& quirks, std::vector<std::string>* warnings) {
  for (const auto& [what, per_rank] : quirks) {
    uint64_t total = 0;
    std::string ranks;
    for (std::size_t i = 0; i < per_rank.size(); ++i) {
      total += per_rank[i].second;
      std::size_t j = i;
      while (j + 1 < per_rank.size() && per_rank[j + 1].first == per_rank[j].first + 1) ++j;
      if (!ranks.empty()) ranks += ", ";
      ranks += std::to_string(per_rank[i].first);
      if (j > i) {
        for (std::size_t k = i + 1; k <= j; ++k) total += per_rank[k].second;
        ranks += "-" + std::to_string(per_rank[j].first);
      }
      i = j;
    }
    warnings->push_back(std::to_string(total) + " " + what + " (rank" +
                        (per_rank.size() > 1 ? "s " : " ") + ranks + ")");
  }
}

namespace otf2 {
namespace {

LocationReader& Loc(void* user) { return *static_cast<LocationReader*>(user); }

OTF2_CallbackCode EvEnter(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, OTF2_RegionRef region) {
  LocationReader& loc = Loc(user);
  region = loc.ids->Global(OTF2_MAPPING_REGION, region);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.trace->call_paths.HasRegion(region)) {
    ++loc.unknown_regions;
    return OTF2_CALLBACK_SUCCESS;
  }
  loc.Enter(ticks, region);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvLeave(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, OTF2_RegionRef region) {
  LocationReader& loc = Loc(user);
  region = loc.ids->Global(OTF2_MAPPING_REGION, region);
  loc.Leave(loc.Ticks(time), region);
  return OTF2_CALLBACK_SUCCESS;
}
// Measurement OFF..ON becomes an artificial region "MEASUREMENT OFF", as in
// Score-P profiles and Scalasca 2.6 reports (EPIK/PEARL called it "PAUSING").
OTF2_CallbackCode EvOnOff(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, OTF2_MeasurementMode mode) {
  LocationReader& loc = Loc(user);
  uint64_t ticks = loc.Ticks(time);
  if (mode == OTF2_MEASUREMENT_OFF && !loc.paused) {
    loc.Enter(ticks, loc.pausing_region);
    loc.paused = true;
  } else if (mode == OTF2_MEASUREMENT_ON && loc.paused) {
    loc.Leave(ticks, loc.pausing_region);
    loc.paused = false;
  }
  return OTF2_CALLBACK_SUCCESS;
}
uint32_t AddMessage(LocationReader& loc, uint32_t comm, uint32_t peer, uint32_t tag,
                    uint64_t bytes, uint32_t request_event) {
  loc.AppendMessage(comm, peer, tag, request_event, bytes);
  return loc.messages_added++;
}
OTF2_CallbackCode EvSend(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                         OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                         uint64_t bytes) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  loc.Add(ticks, EventKind::kSend, AddMessage(loc, comm, receiver, tag, bytes, kNone));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvIsend(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                          uint64_t bytes, uint64_t request) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  uint32_t message = AddMessage(loc, comm, receiver, tag, bytes, kNone);
  loc.pending_isend.Insert(request, message);
  loc.Add(ticks, EventKind::kIsend, message);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvIsendComplete(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                  OTF2_AttributeList*, uint64_t request) {
  LocationReader& loc = Loc(user);
  uint64_t ticks = loc.Ticks(time);
  uint32_t message = kNone;
  if (!loc.pending_isend.Take(request, &message)) {
    ++loc.unmatched_completions;
    return OTF2_CALLBACK_SUCCESS;
  }
  loc.Add(ticks, EventKind::kIsendComplete, message);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvIrecvRequest(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                 OTF2_AttributeList*, uint64_t request) {
  LocationReader& loc = Loc(user);
  loc.pending_irecv.Insert(request, loc.Add(loc.Ticks(time), EventKind::kIrecvRequest, kNone));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRequestCancelled(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                     OTF2_AttributeList*, uint64_t request) {
  LocationReader& loc = Loc(user);
  loc.Ticks(time);
  uint32_t ignored;
  loc.pending_isend.Take(request, &ignored);
  loc.pending_irecv.Take(request, &ignored);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRecv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                         OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                         uint64_t bytes) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  uint32_t self = loc.events_added;  // MPI_Recv is its own request
  loc.Add(ticks, EventKind::kRecv, AddMessage(loc, comm, sender, tag, bytes, self));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvIrecv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                          uint64_t bytes, uint64_t request) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  uint32_t request_event = loc.events_added;
  if (!loc.pending_irecv.Take(request, &request_event)) ++loc.unmatched_completions;
  loc.Add(ticks, EventKind::kIrecv, AddMessage(loc, comm, sender, tag, bytes, request_event));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvCollBegin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                              OTF2_AttributeList*) {
  LocationReader& loc = Loc(user);
  loc.Add(loc.Ticks(time), EventKind::kCollBegin, kNone);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvCollEnd(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                            OTF2_AttributeList*, OTF2_CollectiveOp op, OTF2_CommRef comm,
                            uint32_t root, uint64_t sent, uint64_t received) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  loc.Add(ticks, EventKind::kCollEnd,
          loc.Append(loc.out->collectives, CollectiveRecord{comm, root, op, sent, received}));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRmaCollBegin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                 OTF2_AttributeList*) {
  LocationReader& loc = Loc(user);
  loc.Add(loc.Ticks(time), EventKind::kRmaCollBegin, kNone);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRmaCollEnd(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                               OTF2_AttributeList*, OTF2_CollectiveOp op, OTF2_RmaSyncLevel,
                               OTF2_RmaWinRef win, uint32_t, uint64_t, uint64_t) {
  LocationReader& loc = Loc(user);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.WinOk(win)) return OTF2_CALLBACK_SUCCESS;
  loc.Add(ticks, EventKind::kRmaCollEnd, loc.Append(loc.out->rma_collectives, RmaCollectiveRecord{win, op}));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRmaGroupSync(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                 OTF2_AttributeList*, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
                                 OTF2_GroupRef group) {
  LocationReader& loc = Loc(user);
  group = loc.ids->Global(OTF2_MAPPING_GROUP, group);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.WinOk(win) || group >= loc.trace->groups.size()) {
    if (group >= loc.trace->groups.size()) ++loc.bad_refs;
    return OTF2_CALLBACK_SUCCESS;
  }
  loc.Add(ticks, EventKind::kRmaGroupSync,
          loc.Append(loc.out->rma_syncs, RmaSyncRecord{win, group, static_cast<uint8_t>(level)}));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode AddRmaOp(void* user, OTF2_TimeStamp time, OTF2_RmaWinRef win, uint32_t remote,
                           uint64_t bytes, uint64_t matching, RmaOpKind kind) {
  LocationReader& loc = Loc(user);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.WinOk(win)) return OTF2_CALLBACK_SUCCESS;
  uint32_t op = loc.Append(loc.out->rma_ops, RmaOpRecord{win, remote, bytes, matching, kind});
  loc.pending_rma.Insert((static_cast<uint64_t>(win) << 40) ^ matching, op);
  loc.Add(ticks, EventKind::kRmaOp, op);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRmaPut(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                           OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                           uint64_t bytes, uint64_t matching) {
  return AddRmaOp(user, time, win, remote, bytes, matching, RmaOpKind::kPut);
}
OTF2_CallbackCode EvRmaGet(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                           OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                           uint64_t bytes, uint64_t matching) {
  return AddRmaOp(user, time, win, remote, bytes, matching, RmaOpKind::kGet);
}
OTF2_CallbackCode EvRmaAtomic(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                              OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                              OTF2_RmaAtomicType, uint64_t sent, uint64_t, uint64_t matching) {
  return AddRmaOp(user, time, win, remote, sent, matching, RmaOpKind::kAtomic);
}
OTF2_CallbackCode EvRmaOpComplete(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                  OTF2_AttributeList*, OTF2_RmaWinRef win, uint64_t matching) {
  LocationReader& loc = Loc(user);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  uint32_t op = kNone;
  if (!loc.pending_rma.Take((static_cast<uint64_t>(win) << 40) ^ matching, &op)) {
    ++loc.unmatched_completions;
    return OTF2_CALLBACK_SUCCESS;
  }
  loc.Add(ticks, EventKind::kRmaOpComplete, op);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode AddLock(void* user, OTF2_TimeStamp time, OTF2_RmaWinRef win, uint32_t remote,
                          bool exclusive, LockEvent what) {
  LocationReader& loc = Loc(user);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.WinOk(win)) return OTF2_CALLBACK_SUCCESS;
  loc.Add(ticks, EventKind::kRmaLock,
          loc.Append(loc.out->rma_locks, RmaLockRecord{win, remote, exclusive, what}));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRequestLock(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote, uint64_t,
                                OTF2_LockType type) {
  return AddLock(user, time, win, remote, type == OTF2_LOCK_EXCLUSIVE, LockEvent::kRequest);
}
OTF2_CallbackCode EvAcquireLock(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote, uint64_t,
                                OTF2_LockType type) {
  return AddLock(user, time, win, remote, type == OTF2_LOCK_EXCLUSIVE, LockEvent::kAcquire);
}
OTF2_CallbackCode EvReleaseLock(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                                uint64_t) {
  return AddLock(user, time, win, remote, false, LockEvent::kRelease);
}
OTF2_CallbackCode EvMetric(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                           OTF2_AttributeList*, OTF2_MetricRef, uint8_t, const OTF2_Type*,
                           const OTF2_MetricValue*) {
  LocationReader& loc = Loc(user);
  loc.Ticks(time);
  ++loc.trace->metric_records;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvProgramBegin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                 OTF2_AttributeList*, OTF2_StringRef program, uint32_t,
                                 const OTF2_StringRef*) {
  LocationReader& loc = Loc(user);
  program = loc.ids->Global(OTF2_MAPPING_STRING, program);
  loc.Ticks(time);
  if (*loc.program_string == OTF2_UNDEFINED_STRING) *loc.program_string = program;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvProgramEnd(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                               OTF2_AttributeList*, int64_t) {
  Loc(user).Ticks(time);
  return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

OTF2_EvtReaderCallbacks* NewEventCallbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, EvEnter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, EvLeave);
  OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, EvOnOff);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, EvSend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, EvIsend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, EvIsendComplete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, EvIrecvRequest);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, EvRequestCancelled);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, EvRecv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, EvIrecv);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, EvCollBegin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, EvCollEnd);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, EvRmaCollBegin);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, EvRmaCollEnd);
  OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, EvRmaGroupSync);
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, EvRmaPut);
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, EvRmaGet);
  OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, EvRmaAtomic);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, EvRmaOpComplete);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, EvRmaOpComplete);
  OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, EvRequestLock);
  OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, EvAcquireLock);
  OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, EvReleaseLock);
  OTF2_EvtReaderCallbacks_SetMetricCallback(cb, EvMetric);
  OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, EvProgramBegin);
  OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, EvProgramEnd);
  return cb;
}

}  // namespace otf2
}  // namespace qnm::trace
