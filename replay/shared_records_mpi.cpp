#include "replay/shared_records_mpi.h"

#include <unordered_map>

#include "replay/mpi_exchange_mpi.h"

namespace qnm::trace {
namespace {

/// The call instances the RMA records point to, renumbered densely.
class InstanceSubset {
 public:
  explicit InstanceSubset(const ReplayRecords& local) : local_(local) {}
  uint32_t operator()(uint32_t instance) {
    if (instance == kNone) return kNone;
    auto [it, added] = index_.emplace(instance, static_cast<uint32_t>(kept_.size()));
    if (added) kept_.push_back(local_.instances[instance]);
    return it->second;
  }
  const std::vector<CallInstance>& kept() const { return kept_; }

 private:
  const ReplayRecords& local_;
  std::unordered_map<uint32_t, uint32_t> index_;
  std::vector<CallInstance> kept_;
};

uint32_t Shift(uint32_t index, std::size_t offset) {
  return index == kNone ? kNone : static_cast<uint32_t>(index + offset);
}

}  // namespace

std::vector<char> PackSharedRecords(const ReplayRecords& local, RankRange owned) {
  mpi::Packer out;
  out.Put(owned);
  for (uint32_t r = owned.first; r < owned.end; ++r) {
    out.Put(local.init[r]);
    out.Put(local.finalize[r]);
  }
  out.PutVector(local.collectives);
  out.PutVector(local.window_calls);
  InstanceSubset subset(local);
  std::vector<RmaOpCall> ops = local.rma_ops;
  for (RmaOpCall& op : ops) op.instance = subset(op.instance);
  out.PutVector(ops);
  out.Put<uint64_t>(local.access_epochs.size());
  for (const AccessEpoch& epoch : local.access_epochs) {
    out.Put(epoch.rank);
    out.Put(epoch.win);
    out.Put(subset(epoch.start));
    out.Put(subset(epoch.complete));
    out.PutVector(epoch.targets);
    out.PutVector(epoch.ops);
  }
  out.Put<uint64_t>(local.exposure_epochs.size());
  for (const ExposureEpoch& epoch : local.exposure_epochs) {
    out.Put(epoch.rank);
    out.Put(epoch.win);
    out.PutVector(epoch.origins);
    out.Put(subset(epoch.post));
    out.Put(subset(epoch.wait));
  }
  std::vector<LockEpoch> locks = local.lock_epochs;
  for (LockEpoch& epoch : locks) epoch.lock_call = subset(epoch.lock_call);
  out.PutVector(locks);
  out.PutVector(subset.kept());
  return std::move(out.bytes());
}

void UnpackSharedRecords(const std::vector<char>& bytes, ReplayRecords* all) {
  mpi::Unpacker in(bytes);
  RankRange owned = in.Get<RankRange>();
  for (uint32_t r = owned.first; r < owned.end; ++r) {
    InitFinalize init = in.Get<InitFinalize>();
    InitFinalize finalize = in.Get<InitFinalize>();
    if (r < all->init.size()) {
      all->init[r] = init;
      all->finalize[r] = finalize;
    }
  }
  for (const CollectiveCall& call : in.GetVector<std::vector<CollectiveCall>>()) all->collectives.push_back(call);
  for (const WindowCall& call : in.GetVector<std::vector<WindowCall>>()) all->window_calls.push_back(call);
  // Indices in this block are local to the sender; shift them past what is already in `all`.
  const std::size_t instance_offset = all->instances.size();
  const std::size_t op_offset = all->rma_ops.size();
  const std::size_t access_offset = all->access_epochs.size();
  const std::size_t lock_offset = all->lock_epochs.size();
  for (RmaOpCall op : in.GetVector<std::vector<RmaOpCall>>()) {
    op.instance = Shift(op.instance, instance_offset);
    op.access_epoch = Shift(op.access_epoch, access_offset);
    op.lock_epoch = Shift(op.lock_epoch, lock_offset);
    all->rma_ops.push_back(op);
  }
  for (uint64_t n = in.Get<uint64_t>(); n > 0; --n) {
    AccessEpoch epoch;
    epoch.rank = in.Get<uint32_t>();
    epoch.win = in.Get<uint32_t>();
    epoch.start = Shift(in.Get<uint32_t>(), instance_offset);
    epoch.complete = Shift(in.Get<uint32_t>(), instance_offset);
    epoch.targets = in.GetVector<std::vector<uint32_t>>();
    epoch.ops = in.GetVector<std::vector<uint32_t>>();
    for (uint32_t& op : epoch.ops) op = Shift(op, op_offset);
    all->access_epochs.push_back(std::move(epoch));
  }
  for (uint64_t n = in.Get<uint64_t>(); n > 0; --n) {
    ExposureEpoch epoch;
    epoch.rank = in.Get<uint32_t>();
    epoch.win = in.Get<uint32_t>();
    epoch.origins = in.GetVector<std::vector<uint32_t>>();
    epoch.post = Shift(in.Get<uint32_t>(), instance_offset);
    epoch.wait = Shift(in.Get<uint32_t>(), instance_offset);
    all->exposure_epochs.push_back(std::move(epoch));
  }
  for (LockEpoch epoch : in.GetVector<std::vector<LockEpoch>>()) {
    epoch.lock_call = Shift(epoch.lock_call, instance_offset);
    all->lock_epochs.push_back(epoch);
  }
  for (const CallInstance& instance : in.GetVector<std::vector<CallInstance>>())
    all->instances.push_back(instance);
}

}  // namespace qnm::trace
