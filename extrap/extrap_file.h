#pragma once
// One Extra-P experiment file, its format chosen as Extra-P's readers would:
// .jsonl JSON Lines; .json JSON (current or legacy id-based, or JSON Lines
// when every line is an object); TALPas lines; otherwise the text format.
#include <string>
#include <string_view>

#include "extrap/extrap_data.h"

namespace qnm {

/// True when ingest should offer the file to the Extra-P reader.
bool LooksLikeExtrapFile(const std::string& path, std::string_view text);

/// Everything the file holds; InputError(path, line, why) where Extra-P refuses it.
/// `format_path`, when given, is the name whose extension says the layout
/// (`path` without .gz, compressed_file.h).
ExtrapData ReadExtrapFileData(const std::string& path, std::string_view text, const std::string& format_path = "");

}  // namespace qnm
