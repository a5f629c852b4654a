#include "whatif/whatif_hypothesis.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/text_format.h"

namespace qnm::trace {
namespace {

/// Splits a config line into words; "quoted names" stay one word, `#` starts a comment.
std::vector<std::string> Tokenize(const std::string& text, const std::string& file, int line) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '#') {
      break;
    } else if (c == '"') {
      std::size_t end = text.find('"', i + 1);
      if (end == std::string::npos) throw InputError(file, line, "unterminated quoted name");
      words.push_back(text.substr(i + 1, end - i - 1));
      i = end + 1;
    } else {
      std::size_t end = i;
      while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
             text[end] != '#' && text[end] != '"')
        ++end;
      words.push_back(text.substr(i, end - i));
      i = end;
    }
  }
  return words;
}

double ParseFactor(const std::string& word, const std::string& file, int line) {
  std::size_t used = 0;
  double factor = 0;
  try {
    factor = std::stod(word, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  // Decimal only: stod would read "0x10" as 16 (issue 19).
  const bool decimal = word.find_first_not_of("0123456789+-.eE") == std::string::npos;
  if (!decimal || used != word.size() || word.empty() || !std::isfinite(factor) || factor < 0)
    throw InputError(file, line, "scale factor must be a number >= 0, not '" + word + "'");
  RequirePlausible(factor, kScaleFactor, "scale factor", file, line);
  return factor;
}

bool ParseRelation(const std::string& word, Relation* out) {
  static const std::pair<const char*, Relation> kRelations[] = {
      {"==", Relation::kEq}, {"!=", Relation::kNe}, {"<=", Relation::kLe},
      {">=", Relation::kGe}, {"<", Relation::kLt},  {">", Relation::kGt}};
  for (const auto& [text, relation] : kRelations)
    if (word == text) {
      *out = relation;
      return true;
    }
  return false;
}

uint64_t ParseUnsigned(const std::string& word, const std::string& file, int line) {
  if (word.empty() || !std::all_of(word.begin(), word.end(),
                                   [](unsigned char c) { return std::isdigit(c); }) ||
      word.size() > 19)
    throw InputError(file, line, "message size/tag must be an unsigned integer, not '" + word + "'");
  return std::stoull(word);
}

/// `words` = {SIZE|TAG, REL, N}, {REGION, "name"} or {REGION, ==, name}.
void ParseCutCondition(const std::vector<std::string>& words, const std::string& file, int line,
                       Hypothesis* out) {
  std::string field = words.empty() ? "" : ToLower(words[0]);
  if (field == "region") {
    // Hermanns 2008, §3.4.4: "Messages can be specified for deletion by size,
    // tag or its occurring region."
    bool two = words.size() == 2, three = words.size() == 3 && words[1] == "==";
    if (!(two || three) || words.back().empty())
      throw InputError(file, line, "expected CUT MESSAGE REGION \"name\"");
    out->field = MessageField::kRegion;
    out->region = words.back();
    out->kind = HypothesisKind::kCutMessages;
    return;
  }
  if (words.size() != 3)
    throw InputError(file, line, "expected 'size|tag <rel> N' or 'region \"name\"' (rel: == != < <= > >=)");
  if (field == "size")
    out->field = MessageField::kSize;
  else if (field == "tag")
    out->field = MessageField::kTag;
  else
    throw InputError(file, line, "messages are cut by size, tag or region, not '" + words[0] + "'");
  if (!ParseRelation(words[1], &out->relation))
    throw InputError(file, line, "unknown relation '" + words[1] + "' (use == != < <= > >=)");
  out->value = ParseUnsigned(words[2], file, line);
  out->kind = HypothesisKind::kCutMessages;
}

/// Applies one hypothesis option (Table 4.1: OPTION <String> <String>); only
/// BALANCE takes one, "mode" (Hermanns 2008, §4.5).
void ApplyOption(const std::vector<std::string>& words, const std::string& file, int line,
                 Hypothesis* h) {
  if (words.size() != 3 || ToLower(words[0]) != "option")
    throw InputError(file, line, "expected OPTION \"key\" \"value\"");
  if (h->kind != HypothesisKind::kBalanceRegion || ToLower(words[1]) != "mode")
    throw InputError(file, line, "unknown option '" + words[1] + "' for " + h->Describe() +
                                     " (only BALANCE REGION takes OPTION \"mode\")");
  if (!ParseBalanceMode(words[2], &h->balance_mode))
    throw InputError(file, line, "unknown balance mode '" + words[2] +
                                     "' (global instance, process-local, global, scaled)");
}

const char* RelationText(Relation relation) {
  switch (relation) {
    case Relation::kEq: return "==";
    case Relation::kNe: return "!=";
    case Relation::kLt: return "<";
    case Relation::kLe: return "<=";
    case Relation::kGt: return ">";
    case Relation::kGe: return ">=";
  }
  return "?";
}

std::string FormatFactor(double factor) {
  std::ostringstream out;
  out << factor;
  return out.str();
}

}  // namespace

const char* BalanceModeName(BalanceMode mode) {
  switch (mode) {
    case BalanceMode::kGlobalInstance: return "global instance";
    case BalanceMode::kProcessLocal: return "process-local";
    case BalanceMode::kGlobal: return "global";
    case BalanceMode::kScaled: return "scaled";
  }
  return "?";
}

bool ParseBalanceMode(const std::string& text, BalanceMode* out) {
  std::string key = ToLower(text);
  for (char& c : key)
    if (c == '_' || c == ' ') c = '-';
  static const std::pair<const char*, BalanceMode> kModes[] = {
      {"global-instance", BalanceMode::kGlobalInstance},
      {"process-local", BalanceMode::kProcessLocal},
      {"global", BalanceMode::kGlobal},
      {"scaled", BalanceMode::kScaled}};
  for (const auto& [name, mode] : kModes)
    if (key == name) {
      *out = mode;
      return true;
    }
  return false;
}

std::string Hypothesis::Describe() const {
  switch (kind) {
    case HypothesisKind::kBalanceRegion:
      return "balance region \"" + region + "\"" +
             (balance_mode == BalanceMode::kGlobalInstance
                  ? std::string()
                  : std::string(" mode ") + BalanceModeName(balance_mode));
    case HypothesisKind::kCutRegion: return "cut region \"" + region + "\"";
    case HypothesisKind::kScaleRegion:
      return "scale region \"" + region + "\" " + FormatFactor(factor);
    case HypothesisKind::kScaleComputation: return "scale computation " + FormatFactor(factor);
    case HypothesisKind::kScaleMpi: return "scale mpi " + FormatFactor(factor);
    case HypothesisKind::kScaleTransfer: return "scale transfer " + FormatFactor(factor);
    case HypothesisKind::kCutMessages:
      if (field == MessageField::kRegion) return "cut message region \"" + region + "\"";
      return std::string("cut message ") + (field == MessageField::kSize ? "size " : "tag ") +
             RelationText(relation) + " " + std::to_string(value);
  }
  return "";
}

bool Hypothesis::CutsMessage(uint64_t bytes, uint32_t tag) const {
  if (kind != HypothesisKind::kCutMessages || field == MessageField::kRegion) return false;
  uint64_t x = field == MessageField::kSize ? bytes : tag;
  switch (relation) {
    case Relation::kEq: return x == value;
    case Relation::kNe: return x != value;
    case Relation::kLt: return x < value;
    case Relation::kLe: return x <= value;
    case Relation::kGt: return x > value;
    case Relation::kGe: return x >= value;
  }
  return false;
}

bool ParseHypothesisLine(const std::string& text, const std::string& file, int line,
                         Hypothesis* out) {
  std::vector<std::string> words = Tokenize(text, file, line);
  if (words.empty()) return false;
  std::string verb = ToLower(words[0]);
  // MODEL "Reenact" and its OPTION lines (Hermanns 2008, Listing 4.4): our replay
  // computes timestamps instead of idling, so SILAS' timing options do not apply.
  if (verb == "model") {
    if (words.size() != 2 || ToLower(words[1]) != "reenact")
      throw InputError(file, line, "only MODEL \"Reenact\" is supported");
    return false;
  }
  if (verb == "option") return false;
  Hypothesis h;
  h.source = file;
  h.line = line;
  std::string object = words.size() > 1 ? ToLower(words[1]) : "";
  if (verb == "balance") {
    if (words.size() < 3 || object != "region" || (words.size() != 3 && words.size() != 6))
      throw InputError(file, line, "expected BALANCE REGION \"name\" [OPTION \"mode\" \"m\"]");
    h.kind = HypothesisKind::kBalanceRegion;
    h.region = words[2];
    if (words.size() == 6) ApplyOption({words.begin() + 3, words.end()}, file, line, &h);
  } else if (verb == "scale") {
    if (object == "region" && words.size() == 4) {
      h.kind = HypothesisKind::kScaleRegion;
      h.region = words[2];
      h.factor = ParseFactor(words[3], file, line);
    } else if ((object == "computation" || object == "mpi" || object == "transfer") &&
               words.size() == 3) {
      h.kind = object == "mpi"        ? HypothesisKind::kScaleMpi
               : object == "transfer" ? HypothesisKind::kScaleTransfer
                                      : HypothesisKind::kScaleComputation;
      h.factor = ParseFactor(words[2], file, line);
    } else {
      throw InputError(file, line,
                       "expected SCALE REGION \"name\" F, SCALE COMPUTATION|MPI|TRANSFER F");
    }
  } else if (verb == "cut") {
    if (object == "region") {
      if (words.size() != 3 || words[2].empty())
        throw InputError(file, line, "expected CUT REGION \"name\"");
      h.kind = HypothesisKind::kCutRegion;
      h.region = words[2];
      *out = h;
      return true;
    }
    if (object != "message" && object != "messages")
      throw InputError(file, line, "expected CUT REGION \"name\" or CUT MESSAGE SIZE|TAG <rel> N");
    ParseCutCondition({words.begin() + 2, words.end()}, file, line, &h);
  } else {
    throw InputError(file, line, "unknown hypothesis '" + words[0] + "' (BALANCE, SCALE, CUT)");
  }
  *out = h;
  return true;
}

std::vector<Hypothesis> ReadHypothesisFile(const std::string& path) {
  std::string contents;
  try {
    contents = ReadFile(path);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& error) {
    throw InputError(path, 0, error.what());
  }
  std::vector<Hypothesis> hypotheses;
  std::istringstream lines(contents);
  std::string text;
  int line = 0;
  bool after_hypothesis = false;  // OPTION lines belong to the hypothesis above (Table 4.1)
  while (std::getline(lines, text)) {
    ++line;
    std::vector<std::string> words = Tokenize(text, path, line);
    if (words.empty()) continue;
    if (ToLower(words[0]) == "option") {
      if (after_hypothesis) ApplyOption(words, path, line, &hypotheses.back());
      continue;  // a MODEL option: our replay has no timing options to set
    }
    Hypothesis h;
    after_hypothesis = ParseHypothesisLine(text, path, line, &h);
    if (after_hypothesis) hypotheses.push_back(h);
  }
  return hypotheses;
}

Hypothesis BalanceFromArg(const std::string& region_mode) {
  Hypothesis h;
  h.kind = HypothesisKind::kBalanceRegion;
  h.region = region_mode;
  std::size_t colon = region_mode.rfind(':');
  if (colon != std::string::npos &&
      ParseBalanceMode(region_mode.substr(colon + 1), &h.balance_mode))
    h.region = region_mode.substr(0, colon);
  if (h.region.empty()) throw InputError("--balance", 0, "needs a region name (REGION[:MODE])");
  return h;
}

Hypothesis CutRegionFromArg(const std::string& region) {
  if (region.empty()) throw InputError("--cut-region", 0, "needs a region name");
  Hypothesis h;
  h.kind = HypothesisKind::kCutRegion;
  h.region = region;
  return h;
}

Hypothesis GlobalScaleFromArg(HypothesisKind kind, double factor, const std::string& option) {
  if (!std::isfinite(factor) || factor < 0)
    throw InputError(option, 0, "scale factor must be a number >= 0");
  RequirePlausible(factor, kScaleFactor, "scale factor", option, 0);
  Hypothesis h;
  h.kind = kind;
  h.factor = factor;
  return h;
}

Hypothesis ScaleFromArg(const std::string& region_eq_factor) {
  std::size_t eq = region_eq_factor.rfind('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("", 0, "--scale expects REGION=FACTOR, not '" + region_eq_factor + "'");
  Hypothesis h;
  h.kind = HypothesisKind::kScaleRegion;
  h.region = region_eq_factor.substr(0, eq);
  h.factor = ParseFactor(region_eq_factor.substr(eq + 1), "--scale", 0);
  return h;
}

Hypothesis CutFromArg(const std::string& condition) {
  if (ToLower(condition.substr(0, 6)) == "region") {  // "region==R" or "region R"
    std::string rest = condition.substr(6);
    rest.erase(0, rest.find_first_not_of(" \t"));
    if (rest.rfind("==", 0) == 0) rest.erase(0, 2);
    rest.erase(0, rest.find_first_not_of(" \t"));
    Hypothesis h;
    ParseCutCondition({"region", rest}, "--cut-messages", 0, &h);
    return h;
  }
  // "size>=1024": split field, relation and number where the characters change.
  std::size_t rel_begin = condition.find_first_of("=!<>");
  std::size_t rel_end = condition.find_first_not_of("=!<>", rel_begin);
  if (rel_begin == std::string::npos || rel_end == std::string::npos)
    throw InputError("--cut-messages", 0, "expected size|tag <rel> N, not '" + condition + "'");
  auto trim = [](std::string s) {
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    return s;
  };
  Hypothesis h;
  ParseCutCondition({trim(condition.substr(0, rel_begin)),
                     trim(condition.substr(rel_begin, rel_end - rel_begin)),
                     trim(condition.substr(rel_end))},
                    "--cut-messages", 0, &h);
  return h;
}

}  // namespace qnm::trace
