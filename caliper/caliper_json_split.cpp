// Caliper's json-split output as a run (caliper_profile.h; docs/formats/caliper.md "json-split"):
//   {"data": [[0, 0, null, 0.000162, null], ...],          one row per record
//    "columns": ["Node order", "mpi.rank", "Calls", "time", "path"],
//    "column_metadata": [{"is_value": true, "attribute.unit": "sec", ...}, ...],
//    "nodes": [{"label": "main", "column": "path"}, {"label": "compute", "column": "path", "parent": 0}, ...],
//    "mpi.world.size": "2", "cali.caliper.version": "2.15.0-dev", ...}      the run's metadata
// Each row becomes a Snapshot for the Reduction (caliper_reduction.h), as a .cali record does.
#include <array>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "caliper/caliper_profile.h"
#include "caliper/caliper_reduction.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/json_input.h"

namespace qnm {
namespace {

using Json = nlohmann::json;
using caliper::kMetricAliases;
using caliper::kMetricCount;
using caliper::kMetricNames;

// The column of each role, -1 where the file has none.
struct Columns {
  std::array<int, kMetricCount> metric;
  int rank = -1, rank_calls = -1, sum_calls = -1, path = -1, channel = -1;
};

Columns MapColumns(const Json& names, const std::string& path) {
  Columns columns;
  columns.metric.fill(-1);
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (!names[c].is_string()) throw InputError(path, 0, "json-split: column " + std::to_string(c) + " has no name");
    const std::string name = names[c].get<std::string>();
    const int at = static_cast<int>(c);
    for (int m = 0; m < kMetricCount; ++m)
      if (name == kMetricNames[m] || (*kMetricAliases[m] != '\0' && name == kMetricAliases[m])) columns.metric[m] = at;
    if (name == "mpi.rank") columns.rank = at;
    if (name == caliper::kRankCount || name == caliper::kRankCountAlias) columns.rank_calls = at;
    if (name == caliper::kRankSumCount || name == caliper::kRankSumCountAlias) columns.sum_calls = at;
    if (name == "path") columns.path = at;
    if (name == "spot.channel") columns.channel = at;
  }
  return columns;
}

// What a row needs of the region node it names: its label, the regions on its path, and the
// outermost MPI region on it (a label MPI_*: json-split keeps no attribute per label), if any.
struct Region {
  std::string label;
  std::size_t depth = 0;
  std::string routine;      // the outermost MPI_* label on the path, or ""
  bool is_routine = false;  // the node is that MPI region itself
};

// Each node's region (nodes name their parent by index).
std::vector<Region> NodeRegions(const Json& nodes, const std::string& path) {
  std::vector<Region> regions(nodes.size());
  std::vector<const std::string*> labels;  // the path, leaf first
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    labels.clear();
    for (std::size_t at = n;;) {
      const Json& node = nodes[at];
      if (!node.is_object() || !node.contains("label") || !node["label"].is_string())
        throw InputError(path, 0, "json-split: node " + std::to_string(at) + " has no label");
      labels.push_back(node["label"].get_ptr<const std::string*>());
      if (!node.contains("parent")) break;
      const Json& parent = node["parent"];
      if (!parent.is_number_unsigned() || parent.get<std::size_t>() >= nodes.size())
        throw InputError(path, 0, "json-split: node " + std::to_string(at) + " names no node as its parent");
      at = parent.get<std::size_t>();
      if (labels.size() > nodes.size())
        throw InputError(path, 0, "json-split: node " + std::to_string(n) + " is its own ancestor");
    }
    Region& region = regions[n];
    region.label = *labels.front();
    region.depth = labels.size();
    for (std::size_t i = labels.size(); i-- > 0;)  // from the root
      if (StartsWith(*labels[i], "MPI_")) {
        region.routine = *labels[i];
        region.is_routine = i == 0;
        break;
      }
  }
  return regions;
}

// A value as text for a message: its JSON, any invalid UTF-8 replaced (dump() would throw on it).
std::string Shown(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

// A row's number in `column`: NaN for null (the record has no such value).
double NumberAt(const Json& row, int column, std::size_t row_number, const Json& names, const std::string& path) {
  const Json& cell = row[static_cast<std::size_t>(column)];
  if (cell.is_null()) return std::nan("");
  if (!cell.is_number())
    throw InputError(path, 0, "data row " + std::to_string(row_number) + ": " + names[column].get<std::string>() +
                                  " holds " + Shown(cell) + ", no number");
  return cell.get<double>();
}

}  // namespace

bool LooksLikeCaliperJsonSplit(std::string_view text) {
  static const std::regex kStart(R"(^\s*\{\s*"data"\s*:\s*\[)");
  const std::string_view head = text.substr(0, 256);
  return std::regex_search(head.begin(), head.end(), kStart);
}

RunStats ReadCaliperJsonSplit(std::string_view text, const std::string& path) {
  // Syntax, a number beyond a double, nesting: one line with the line (util/json_input.h).
  const Json document = ParseJsonDocument(text, path);
  if (!document.is_object()) throw InputError(path, 0, "json-split: not an object");
  for (const char* key : {"data", "columns", "nodes"})
    if (!document.contains(key) || !document[key].is_array())
      throw InputError(path, 0, std::string("json-split: no \"") + key + "\" array");
  const Json& names = document["columns"];
  const Json& data = document["data"];
  const Json& nodes = document["nodes"];
  const Columns columns = MapColumns(names, path);
  if (columns.path < 0)
    throw InputError(path, 0, "json-split without a \"path\" column (records grouped by their region path, as "
                              "runtime-profile and cali-query's \"group by path\" write)");
  const std::vector<Region> regions = NodeRegions(nodes, path);

  caliper::Reduction reduction(path);
  for (std::size_t r = 0; r < data.size(); ++r) {
    const Json& row = data[r];
    const std::size_t row_number = r + 1;
    if (!row.is_array() || row.size() != names.size())
      throw InputError(path, 0, "data row " + std::to_string(row_number) + ": not " + std::to_string(names.size()) +
                                    " values, one per column");
    // Spot's time-series records (spot.channel other than regionprofile: a text, or a node's label).
    if (columns.channel >= 0) {
      const Json& channel = row[columns.channel];
      std::string label;
      if (channel.is_string()) label = channel.get<std::string>();
      if (channel.is_number_unsigned() && channel.get<std::size_t>() < regions.size())
        label = regions[channel.get<std::size_t>()].label;
      if (!label.empty() && label != "regionprofile") {
        reduction.OtherChannel();
        continue;
      }
    }
    caliper::Snapshot s;
    s.row = row_number;
    bool any = false;
    for (int m = 0; m < kMetricCount; ++m) {
      s.value[m] = columns.metric[m] < 0 ? std::nan("") : NumberAt(row, columns.metric[m], row_number, names, path);
      any = any || !std::isnan(s.value[m]);
    }
    if (!any) continue;  // a record of other metrics
    if (columns.rank_calls >= 0) s.rank_calls = NumberAt(row, columns.rank_calls, row_number, names, path);
    if (columns.sum_calls >= 0) s.sum_calls = NumberAt(row, columns.sum_calls, row_number, names, path);
    if (columns.rank >= 0 && !row[columns.rank].is_null()) {
      const Json& rank = row[columns.rank];
      if (!rank.is_number_integer() || rank.get<long long>() < 0 || rank.get<long long>() > caliper::kMaxRank)
        throw reduction.Error(s, "mpi.rank " + Shown(rank) + " is no rank");
      s.has_rank = true;
      s.rank = rank.get<long long>();
    }
    // The region path, and its outermost MPI region (interned in the order the rows meet it).
    const Json& node = row[columns.path];
    if (!node.is_null()) {
      if (!node.is_number_unsigned() || node.get<std::size_t>() >= regions.size())
        throw reduction.Error(s, "path " + Shown(node) + " is no node");
      const Region& region = regions[node.get<std::size_t>()];
      s.depth = region.depth;
      if (!region.routine.empty()) {
        s.routine = reduction.Routine(region.routine);
        s.is_routine = region.is_routine;
      }
    }
    reduction.Add(s);
  }
  if (reduction.Empty()) throw InputError(path, 0, "json-split without records of region times");

  // The run's metadata: the top-level keys besides the records, as text.
  std::map<std::string, std::string> metadata;
  for (const auto& [key, value] : document.items()) {
    if (key == "data" || key == "columns" || key == "column_metadata" || key == "nodes") continue;
    metadata[key] = value.is_string() ? value.get<std::string>() : Shown(value);
  }
  const caliper::Globals globals{[&metadata](std::string_view name) -> const std::string* {
                                   const auto it = metadata.find(std::string(name));
                                   return it == metadata.end() ? nullptr : &it->second;
                                 },
                                 0, {}};  // json-split keeps no Adiak subcategory: no program values as details
  const Json* column_metadata = document.contains("column_metadata") && document["column_metadata"].is_array() &&
                                        document["column_metadata"].size() == names.size()
                                    ? &document["column_metadata"]
                                    : nullptr;
  return reduction.Finish(globals, [&](const char* metric) -> std::optional<std::string> {
    for (int m = 0; m < kMetricCount; ++m) {
      if (std::string(kMetricNames[m]) != metric || columns.metric[m] < 0 || column_metadata == nullptr) continue;
      const Json& meta = (*column_metadata)[columns.metric[m]];
      if (meta.is_object() && meta.contains("attribute.unit") && meta["attribute.unit"].is_string())
        return meta["attribute.unit"].get<std::string>();
    }
    return std::nullopt;
  });
}

}  // namespace qnm
