#pragma once
// Point-to-point wait states while the trace is read, so that the replay
// records of a message live only until both its halves have been read and
// analysed, not until the whole trace has (docs/streaming-analysis.md,
// "Matching while reading"). The ranks are read in lock-step windows, each
// thread reading its block of ranks (trace/window_gate.h); after each window
// (steps 1-2 once every thread has read its window, steps 3-4 once every
// block is through step 2, each thread then reading on):
//
//  1. per receiving block of ranks (one thread each): the window's new sends
//     to the block's ranks and the block's new receives meet in their
//     channels (comm, source, destination, tag), the k-th send with the k-th
//     receive; a receive whose send is not read yet waits in its channel;
//  2. per receiving rank, in completion order: Late Sender and Wrong Order
//     (LateSenderScan) for every receive whose send, completing calls and
//     own call are complete; the receive's request Enter goes to its send;
//  3. per sending rank, in send order: Late Receiver for every send whose
//     receive went through step 2 and whose completing call is complete;
//  4. each rank drops the receives, sends and call instances no later step
//     can need from the front of its tables (ReplayRecords::*_base), so that
//     the next window refills the same memory.
//
// Each rank's records are thus analysed in the order of the whole-trace
// analysis (trace/wait_states_p2p.cpp), only later: every severity share is
// the same, and merging the ranks' shares in rank order (call paths
// renumbered once the call trees are unified) gives the same hash maps with
// the same keys in the same order — the reports are byte-identical.
// Geimer et al. 2009, §3.3.1 (the point-to-point replay), with windows.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "trace/replay_records.h"
#include "trace/wait_states.h"

namespace qnm::trace {

class MatchWhileReading {
 public:
  /// `ranks[r]`: rank r's replay records, filled by its reader between steps.
  /// `threads`: blocks of ranks worked on in parallel. `keep_instances`: never
  /// drop call instances (the RMA records name them until the end).
  MatchWhileReading(std::vector<ReplayRecords*> ranks, int threads, const WaitStateOptions& options,
                    bool keep_instances);
  ~MatchWhileReading();

  /// Never drop call instances: the RMA records name them until the end
  /// (call before the first step).
  void KeepInstances() { keep_instances_ = true; }

  /// One step after each window, in four parts: RouteSends for every block
  /// by the thread that read its ranks, right after reading them (in
  /// parallel); BeginStep on one thread once every rank's window is read
  /// and routed; MatchAndLateSender for every block (in parallel);
  /// LateReceiverAndDrop for every block once every block is through
  /// MatchAndLateSender (in parallel; a block's call may overlap the next
  /// window's reading of the other blocks' ranks: it touches only its own
  /// ranks' records).
  /// `finished[r]`: rank r has been read; `final`: every rank has been read,
  /// so partners still missing are missing for good; after a final step
  /// every record has been analysed. `open_instance[r]`: the oldest call
  /// instance rank r's pass holds open (kNone: none).
  void RouteSends(std::size_t block);
  void BeginStep();
  void MatchAndLateSender(std::size_t block, const std::vector<char>& finished, bool final);
  void LateReceiverAndDrop(std::size_t block, const std::vector<uint32_t>& open_instance,
                           const std::vector<char>& finished, bool final);
  /// The blocks of ranks worked on in parallel (RankPartition{b, blocks()}).
  std::size_t blocks() const { return blocks_.size(); }

  /// After the final step: the point-to-point part of the result, with call
  /// paths renumbered through `cnode_maps[r]` (rank r's call paths -> the trace's).
  WaitStateResult Result(const std::vector<std::vector<uint32_t>>& cnode_maps) const;

  /// The most bytes the ranks' record tables held after a window was read.
  std::size_t PeakRecordBytes() const { return peak_bytes_; }

 private:
  struct RankState;
  struct BlockState;
  void MatchBlock(std::size_t block, bool final);
  void LateSenderOf(uint32_t rank, const std::vector<char>& finished, bool final);
  void LateReceiverOf(uint32_t rank, const std::vector<char>& finished, bool final);
  void Drop(uint32_t rank, uint32_t open_instance);

  std::vector<ReplayRecords*> records_;
  WaitStateOptions options_;
  bool keep_instances_;
  std::vector<std::unique_ptr<RankState>> ranks_;
  std::vector<std::unique_ptr<BlockState>> blocks_;
  std::vector<uint32_t> sends_routed_;            // per sender: its sends before this one are in outbox_ or matched
  std::vector<uint32_t> block_of_;                // rank -> the block it belongs to
  /// [sender][receiving block]: the sender's sends of this window to that
  /// block's ranks, in send order. Written by the sender's thread while it
  /// reads (RouteSends), read by the receiving block's thread in step 1: so
  /// a thread matching its block visits only the sends to it, instead of
  /// every rank's sends (each thread reading the other threads' records).
  std::vector<std::vector<std::vector<uint32_t>>> outbox_;
  std::size_t peak_bytes_ = 0;
};

}  // namespace qnm::trace
