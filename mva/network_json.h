#pragma once
// Reading a Network from JSON: the `model` object of the mva-vector schema
// (tests/data/mva-vectors/README.md), or a whole vector file that contains one.
#include <string>

#include <nlohmann/json.hpp>

#include "mva/network.h"

namespace qnm::mva {

/// Network from a parsed document (a model object, or an object with "model").
/// Throws qnm::InputError naming `file` and the offending element.
Network NetworkFromJson(const nlohmann::json& document, const std::string& file);

/// Reads a network file: JSON (above), or JMT JMVA XML when the file starts with
/// '<'. Throws qnm::InputError with file and line for syntax errors, file and
/// element for schema errors.
Network ReadNetworkFile(const std::string& path);

/// Parses JSON text; on a syntax error throws qnm::InputError(file, line, ...).
nlohmann::json ParseJsonText(const std::string& text, const std::string& file);

}  // namespace qnm::mva
