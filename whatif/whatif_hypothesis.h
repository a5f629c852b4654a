#pragma once
// Optimization hypotheses for the what-if simulation, after SILAS (Hermanns 2008,
// section 3.4 and the configuration grammar of Table 4.1): balance or scale a
// region, scale all computation or all MPI time, cut a region with everything
// inside it, cut messages by size, tag or the region they occur in.
// They come from the command line or from a SILAS-like config file.
#include <cstdint>
#include <string>
#include <vector>

namespace qnm::trace {

enum class HypothesisKind : uint8_t {
  kBalanceRegion,     // every k-th instance of R gets the average over ranks (Hermanns 2008, §3.4.2)
  kScaleRegion,       // exclusive time in R times `factor` (Hermanns 2008, §3.4.1)
  kScaleComputation,  // exclusive time of every non-MPI region (and outside regions) times `factor`
  kScaleMpi,          // MPI time that is not waiting (except Init/Finalize) times `factor`
  kScaleTransfer,     // message transfer (send to receive completion, after waiting) times `factor`
  kCutMessages,       // matching point-to-point messages are removed (Hermanns 2008, §3.4.4)
  kCutRegion,         // R, all inside it, its messages and its collectives on every rank (§3.4.3)
};

/// How BALANCE REGION averages (Hermanns 2008, §3.4.2, Figure 3.3 (b)-(e)).
enum class BalanceMode : uint8_t {
  kGlobalInstance,  // k-th instance on every rank: mean of the k-th instances over ranks
  kProcessLocal,    // every instance on a rank: mean of that rank's instances
  kGlobal,          // every instance everywhere: mean of all instances on all ranks
  kScaled,          // per-rank total -> mean total over ranks, split in the rank's proportions
};
/// "global instance", "process-local", "global", "scaled".
const char* BalanceModeName(BalanceMode mode);
/// Accepts the names above, also with '-', '_' or ' ' between words; false if unknown.
bool ParseBalanceMode(const std::string& text, BalanceMode* out);

enum class MessageField : uint8_t { kSize, kTag, kRegion };
enum class Relation : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

struct Hypothesis {
  HypothesisKind kind = HypothesisKind::kScaleRegion;
  std::string region;  // balance / scale / cut region; cut message by region
  BalanceMode balance_mode = BalanceMode::kGlobalInstance;
  double factor = 1.0;  // scale
  MessageField field = MessageField::kSize;  // cut
  Relation relation = Relation::kEq;
  uint64_t value = 0;
  // Where it was written, for errors that surface later (unknown region).
  std::string source;  // config file, or "" for the command line
  int line = 0;

  /// "balance region \"solve\"", "cut message size >= 1024", ...
  std::string Describe() const;
  /// True if a message with `bytes` and `tag` is cut by this hypothesis
  /// (always false for a cut by region: that needs the call stack).
  bool CutsMessage(uint64_t bytes, uint32_t tag) const;
};

/// Parses one config line ("SCALE REGION \"foo\" 0.5"); keywords are
/// case-insensitive, names may be quoted. Returns false for blank, comment or
/// MODEL/OPTION lines. Throws InputError(file, line, ...) on anything else.
/// A BALANCE line may end with its options: OPTION "mode" "scaled".
bool ParseHypothesisLine(const std::string& text, const std::string& file, int line,
                         Hypothesis* out);
/// Reads every hypothesis of a config file (one per line, `#` comments). An
/// OPTION line after a hypothesis is that hypothesis' option (Table 4.1:
/// <Balance> ::= BALANCE <Region> <Options>); after MODEL, a model option (ignored).
std::vector<Hypothesis> ReadHypothesisFile(const std::string& path);

// Command-line spellings (errors name the option).
/// "REGION" or "REGION:MODE" (MODE as ParseBalanceMode; a suffix that is no
/// mode stays part of the name, so "ns::solve" works).
Hypothesis BalanceFromArg(const std::string& region_mode);
Hypothesis CutRegionFromArg(const std::string& region);
Hypothesis ScaleFromArg(const std::string& region_eq_factor);  // "solve=0.5"
/// --scale-computation/-mpi/-transfer FACTOR: finite, 0 to 1000 (util/plausible_range.h).
Hypothesis GlobalScaleFromArg(HypothesisKind kind, double factor, const std::string& option);
Hypothesis CutFromArg(const std::string& condition);  // "size>=1024", "tag==7", "region==R"

}  // namespace qnm::trace
