#pragma once
// Optimization hypotheses for the what-if simulation, after SILAS (Hermanns 2008,
// section 3.4 and the configuration grammar of Table 4.1): balance or scale a
// region, scale all computation or all MPI time, cut messages by size or tag.
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
};

enum class MessageField : uint8_t { kSize, kTag };
enum class Relation : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

struct Hypothesis {
  HypothesisKind kind = HypothesisKind::kScaleRegion;
  std::string region;  // balance / scale region
  double factor = 1.0;  // scale
  MessageField field = MessageField::kSize;  // cut
  Relation relation = Relation::kEq;
  uint64_t value = 0;
  // Where it was written, for errors that surface later (unknown region).
  std::string source;  // config file, or "" for the command line
  int line = 0;

  /// "balance region \"solve\"", "cut message size >= 1024", ...
  std::string Describe() const;
  /// True if a message with `bytes` and `tag` is cut by this hypothesis.
  bool CutsMessage(uint64_t bytes, uint32_t tag) const;
};

/// Parses one config line ("SCALE REGION \"foo\" 0.5"); keywords are
/// case-insensitive, names may be quoted. Returns false for blank, comment or
/// MODEL/OPTION lines. Throws InputError(file, line, ...) on anything else.
bool ParseHypothesisLine(const std::string& text, const std::string& file, int line,
                         Hypothesis* out);
/// Reads every hypothesis of a config file (one per line, `#` comments).
std::vector<Hypothesis> ReadHypothesisFile(const std::string& path);

// Command-line spellings (errors name the option).
Hypothesis BalanceFromArg(const std::string& region);
Hypothesis ScaleFromArg(const std::string& region_eq_factor);  // "solve=0.5"
Hypothesis CutFromArg(const std::string& condition);           // "size>=1024", "tag==7"

}  // namespace qnm::trace
