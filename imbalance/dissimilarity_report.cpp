#include "imbalance/dissimilarity_report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "util/enum_names.h"
#include "util/json_cells.h"
#include "util/text_format.h"

namespace qnm {
namespace {

nlohmann::json Number(double value) { return JsonNumber(value); }

std::string Name(const std::vector<std::string>& names, int k) {
  return k >= 0 ? names[static_cast<std::size_t>(k)] : std::string();
}

nlohmann::json NameOrNull(const std::vector<std::string>& names, int k) {
  return k >= 0 ? nlohmann::json(names[static_cast<std::size_t>(k)]) : nlohmann::json();
}

/// Ranked entries first, then the ones without an index, in input order.
std::vector<std::size_t> RankedThenRest(const std::vector<int>& ranking, std::size_t count) {
  std::vector<std::size_t> order;
  std::vector<bool> seen(count, false);
  for (int k : ranking) {
    order.push_back(static_cast<std::size_t>(k));
    seen[static_cast<std::size_t>(k)] = true;
  }
  for (std::size_t k = 0; k < count; ++k)
    if (!seen[k]) order.push_back(k);
  return order;
}

std::string Fixed(const char* format, double value) { return FormatFinite(format, value, "-"); }

std::string Padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string CsvNumber(double value) { return std::isfinite(value) ? Fixed("%.9g", value) : ""; }

double PerRank(double time_s, int ranks) { return ranks > 0 ? time_s / ranks : kUnknown; }

}  // namespace

bool ParseDissimilarityFormat(const std::string& text, DissimilarityFormat* format) {
  static constexpr EnumName<DissimilarityFormat> kNames[] = {
      {DissimilarityFormat::kTable, "table"}, {DissimilarityFormat::kJson, "json"}, {DissimilarityFormat::kCsv, "csv"}};
  return ValueOf(kNames, text, format);
}

nlohmann::json DissimilarityToJson(const DissimilarityResult& result) {
  const DissimilaritySummary& summary = result.summary;
  nlohmann::json json;
  json["method"] = "Calzarossa, Massari, Tessera 2004: indices of dispersion";
  json["ranks"] = result.ranks;
  json["dispersion_index"] = ToString(summary.dispersion);
  json["criterion"] = ToString(summary.criterion);
  json["total_time_s"] = summary.total_time_s;
  json["cells_performed"] = summary.cells_performed;
  json["dominant"] = {{"activity", NameOrNull(result.activity_names, result.dominant_activity)},
                      {"region", NameOrNull(result.region_names, result.dominant_region)},
                      {"region_in_dominant_activity",
                       NameOrNull(result.region_names, result.dominant_region_in_dominant_activity)}};
  json["most_imbalanced"] = {
      {"activity", summary.most_imbalanced_activity.empty() ? nlohmann::json()
                                                            : nlohmann::json(summary.most_imbalanced_activity)},
      {"activity_value", Number(summary.most_imbalanced_activity_value)},
      {"region", summary.most_imbalanced_region.empty() ? nlohmann::json()
                                                        : nlohmann::json(summary.most_imbalanced_region)},
      {"region_value", Number(summary.most_imbalanced_region_value)}};
  json["activities"] = nlohmann::json::array();
  for (std::size_t a : RankedThenRest(result.activity_ranking, result.activities.size())) {
    const ActivityDissimilarity& activity = result.activities[a];
    json["activities"].push_back({{"name", activity.name},
                                  {"time_s", activity.time_s},
                                  {"time_s_per_rank", Number(PerRank(activity.time_s, result.ranks))},
                                  {"time_share", activity.time_share},
                                  {"ID_A", Number(activity.index)},
                                  {"SID_A", Number(activity.scaled_index)},
                                  {"regions_performed", activity.regions_performed},
                                  {"worst_region", NameOrNull(result.region_names, activity.worst_region)},
                                  {"best_region", NameOrNull(result.region_names, activity.best_region)},
                                  {"most_imbalanced_region",
                                   NameOrNull(result.region_names, activity.most_imbalanced_region)},
                                  {"candidate", activity.candidate}});
  }
  json["regions"] = nlohmann::json::array();
  for (std::size_t r : RankedThenRest(result.region_ranking, result.regions.size())) {
    const RegionDissimilarity& region = result.regions[r];
    json["regions"].push_back({{"name", region.name},
                               {"time_s", region.time_s},
                               {"time_s_per_rank", Number(PerRank(region.time_s, result.ranks))},
                               {"time_share", region.time_share},
                               {"ID_C", Number(region.index)},
                               {"SID_C", Number(region.scaled_index)},
                               {"dominant_activity", NameOrNull(result.activity_names, region.dominant_activity)},
                               {"candidate", region.candidate}});
  }
  json["cells"] = nlohmann::json::array();
  for (int k : result.cell_ranking) {
    const CellDissimilarity& cell = result.cells[static_cast<std::size_t>(k)];
    json["cells"].push_back({{"activity", Name(result.activity_names, cell.activity)},
                             {"region", Name(result.region_names, cell.region)},
                             {"time_s", cell.time_s},
                             {"ID", Number(cell.index)},
                             {"heaviest_rank", cell.heaviest_rank >= 0 ? nlohmann::json(cell.heaviest_rank)
                                                                       : nlohmann::json()},
                             {"heaviest_share", Number(cell.heaviest_share)}});
  }
  json["notes"] = summary.notes;
  return json;
}

std::string DissimilarityTable(const DissimilarityResult& result, int top) {
  const std::size_t limit = top > 0 ? static_cast<std::size_t>(top) : static_cast<std::size_t>(-1);
  const char* id = ToString(result.summary.dispersion);
  const bool scaled = result.summary.criterion == ImbalanceCriterion::kScaledIndex;
  std::ostringstream out;
  out << result.summary.BriefReport() << "\n";
  if (result.dominant_region_in_dominant_activity >= 0)
    out << "Region with the most " << Name(result.activity_names, result.dominant_activity)
        << " time: " << Name(result.region_names, result.dominant_region_in_dominant_activity) << "\n";

  auto header = [&](const char* what, const char* index, const char* scaled_index, std::size_t width) {
    out << "\n" << what << " (ranked by " << (scaled ? scaled_index : index) << ", index of dispersion "
        << id << "):\n  " << Padded("#", 4) << Padded(what[0] == 'A' ? "activity" : "region", width)
        << "  time/rank s   share  " << Padded(index, 10) << "  " << scaled_index << "\n";
  };
  auto row = [&](std::size_t rank, const std::string& name, std::size_t width, double time_s, double share,
                 double index, double scaled_index, bool candidate) {
    out << "  " << Padded(std::to_string(rank), 4) << Padded(name, width) << "  " << Fixed("%11.4g", PerRank(time_s, result.ranks))
        << "  " << Fixed("%5.1f%%", 100 * share) << "  " << Padded(Fixed("%.4g", index), 10) << "  "
        << (candidate ? Padded(Fixed("%.4g", scaled_index), 10) + "  <- candidate" : Fixed("%.4g", scaled_index))
        << "\n";
  };
  std::size_t width = 8;
  for (const std::string& name : result.activity_names) width = std::max(width, name.size());
  header("Activities", "ID_A", "SID_A", width);
  for (std::size_t k = 0; k < result.activity_ranking.size() && k < limit; ++k) {
    const ActivityDissimilarity& a = result.activities[static_cast<std::size_t>(result.activity_ranking[k])];
    row(k + 1, a.name, width, a.time_s, a.time_share, a.index, a.scaled_index, a.candidate);
  }
  width = 6;
  for (const std::string& name : result.region_names) width = std::max(width, std::min<std::size_t>(name.size(), 60));
  header("Code regions", "ID_C", "SID_C", width);
  for (std::size_t k = 0; k < result.region_ranking.size() && k < limit; ++k) {
    const RegionDissimilarity& r = result.regions[static_cast<std::size_t>(result.region_ranking[k])];
    row(k + 1, r.name, width, r.time_s, r.time_share, r.index, r.scaled_index, r.candidate);
  }
  if (!result.cell_ranking.empty()) {
    out << "\nMost imbalanced cells (activity @ region, by ID_ij):\n";
    for (std::size_t k = 0; k < result.cell_ranking.size() && k < limit; ++k) {
      const CellDissimilarity& c = result.cells[static_cast<std::size_t>(result.cell_ranking[k])];
      out << "  " << Padded(std::to_string(k + 1), 4) << Name(result.activity_names, c.activity) << " @ "
          << Name(result.region_names, c.region) << ": ID " << Fixed("%.4g", c.index) << ", "
          << Fixed("%.4g", PerRank(c.time_s, result.ranks)) << " s/rank";
      if (c.heaviest_rank >= 0 && result.ranks > 0)
        out << ", heaviest rank " << c.heaviest_rank << " with " << Fixed("%.1f", 100 * c.heaviest_share)
            << "% (balanced " << Fixed("%.1f", 100.0 / result.ranks) << "%)";
      out << "\n";
    }
  }
  for (const std::string& note : result.summary.notes) out << "Note: " << note << "\n";
  return out.str();
}

std::string RenderDissimilarity(const std::vector<DissimilarityReportEntry>& entries,
                                DissimilarityFormat format, int top) {
  if (format == DissimilarityFormat::kJson) {
    nlohmann::json runs = nlohmann::json::array();
    for (const DissimilarityReportEntry& entry : entries) {
      nlohmann::json json = DissimilarityToJson(*entry.result);
      json["run"] = entry.label;
      json["input_notes"] = entry.notes;
      runs.push_back(std::move(json));
    }
    return runs.dump(2) + "\n";
  }
  std::ostringstream out;
  if (format == DissimilarityFormat::kCsv) {
    out << "run,kind,rank,activity,region,time_s,time_s_per_rank,time_share,index,scaled_index,candidate,"
           "heaviest_rank,heaviest_share\n";
    for (const DissimilarityReportEntry& entry : entries) {
      const DissimilarityResult& result = *entry.result;
      auto line = [&](const char* kind, std::size_t rank, const std::string& activity, const std::string& region,
                      double time_s, double share, double index, double scaled_index, bool candidate,
                      int heaviest_rank, double heaviest_share) {
        out << CsvField(entry.label) << "," << kind << "," << rank << "," << CsvField(activity) << ","
            << CsvField(region) << "," << CsvNumber(time_s) << "," << CsvNumber(PerRank(time_s, result.ranks))
            << "," << CsvNumber(share) << "," << CsvNumber(index) << "," << CsvNumber(scaled_index) << ","
            << (candidate ? 1 : 0) << "," << (heaviest_rank >= 0 ? std::to_string(heaviest_rank) : "") << ","
            << CsvNumber(heaviest_share) << "\n";
      };
      std::size_t rank = 0;
      for (std::size_t a : RankedThenRest(result.activity_ranking, result.activities.size())) {
        const ActivityDissimilarity& x = result.activities[a];
        line("activity", ++rank, x.name, "", x.time_s, x.time_share, x.index, x.scaled_index, x.candidate, -1,
             kUnknown);
      }
      rank = 0;
      for (std::size_t r : RankedThenRest(result.region_ranking, result.regions.size())) {
        const RegionDissimilarity& x = result.regions[r];
        line("region", ++rank, "", x.name, x.time_s, x.time_share, x.index, x.scaled_index, x.candidate, -1,
             kUnknown);
      }
      rank = 0;
      for (int k : result.cell_ranking) {
        const CellDissimilarity& c = result.cells[static_cast<std::size_t>(k)];
        double share = result.summary.total_time_s > 0 ? c.time_s / result.summary.total_time_s : kUnknown;
        line("cell", ++rank, Name(result.activity_names, c.activity), Name(result.region_names, c.region),
             c.time_s, share, c.index, kUnknown, false, c.heaviest_rank, c.heaviest_share);
      }
    }
    return out.str();
  }
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const DissimilarityReportEntry& entry = entries[k];
    if (k > 0) out << "\n";
    out << "== " << entry.label << " ==\n" << DissimilarityTable(*entry.result, top);
    for (const std::string& note : entry.notes) out << "Input: " << note << "\n";
  }
  return out.str();
}

}  // namespace qnm
