#pragma once
// Small text helpers shared by the readers in ingest/: byte-safe line
// splitting, trimming, whitespace tokens and strict number parsing. Reports
// may contain arbitrary bytes (mpiP copies argv verbatim), so nothing here
// assumes UTF-8.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/text_format.h"  // ToLower

namespace qnm {

/// Splits `text` at '\n' (a trailing '\r' is dropped); line i is text line i+1.
std::vector<std::string_view> SplitLines(std::string_view text);

std::string_view Trim(std::string_view text);
/// Splits on runs of blanks (space, tab, '\r', '\f', '\v').
std::vector<std::string_view> SplitWhitespace(std::string_view text);
/// The fields of a line between `separator`s, each trimmed ("a | b|" -> "a", "b", "").
std::vector<std::string_view> SplitFields(std::string_view line, char separator);
/// The cells of one CSV line between `separator`s outside double quotes, each trimmed; a quoted cell
/// loses its quotes and a doubled quote inside it is one ("a,\"b, \"\"c\"\"\"" -> a, b, "c").
std::vector<std::string> SplitCsvCells(std::string_view line, char separator);
bool StartsWith(std::string_view text, std::string_view prefix);
/// "key<separator>value" split at the first `separator` into the trimmed key and value; false when
/// there is no separator or no key before it (HPCC's "CommWorldProcs=16").
bool SplitAtFirst(std::string_view text, char separator, std::string_view* key, std::string_view* value);
/// "key: value" split at the first ':' (applications' "Name : v" reports: CoMD, Kripke, Quicksilver,
/// miniFE): SplitAtFirst with ':'.
bool SplitAtFirstColon(std::string_view text, std::string_view* key, std::string_view* value);
/// A row or timer name as a detail key: lower case, each run of other characters one '_', none at
/// either end ("Wait + Comm. F" -> "wait_comm_f", "CG (H1)" -> "cg_h1").
std::string DetailKey(std::string_view name);
bool EndsWith(std::string_view text, std::string_view suffix);
/// True when `needle` begins a line of `text`, after blanks only: a program's own line, not a document
/// quoting it mid-sentence.
bool BeginsALine(std::string_view text, std::string_view needle);
/// True for a non-empty text of ASCII digits only ("0042"; not "", "-1", "4a").
bool AllDigits(std::string_view text);

/// The whole token as a number ("1e+04", "0.000624", "nan"); nullopt otherwise.
std::optional<double> ParseDouble(std::string_view token);
/// The whole token as a base-10 integer within [-2^62, 2^62]; nullopt otherwise.
std::optional<long long> ParseInteger(std::string_view token);

/// words[begin, end) joined by single blanks: a name a table row spreads over several words
/// ("[ICE]", "RunPhase1" -> "[ICE] RunPhase1").
std::string JoinWords(const std::vector<std::string_view>& words, std::size_t begin, std::size_t end);
/// The non-empty `words` joined by `separator` ({"a", "", "b"}, " " -> "a b").
std::string JoinNonEmpty(const std::vector<std::string>& words, const char* separator);

/// File name without directories ("a/b/c.txt" -> "c.txt").
std::string BaseName(const std::string& path);

}  // namespace qnm
