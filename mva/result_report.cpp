// JSON and table views of an MVA Result.
#include "mva/result_report.h"

#include <cmath>
#include <cstdio>

namespace qnm::mva {
namespace {

using Json = nlohmann::ordered_json;  // keys in the schema's order

Json Value(double v) { return std::isfinite(v) ? Json(v) : Json(); }

Json Vector(const std::vector<double>& values) {
  Json out = Json::array();
  for (double v : values) out.push_back(Value(v));
  return out;
}

Json Matrix(const std::vector<std::vector<double>>& rows) {
  Json out = Json::array();
  for (const auto& row : rows) out.push_back(Vector(row));
  return out;
}

}  // namespace

nlohmann::ordered_json ResultToJson(const Network& network, const Result& result) {
  Json out;
  out["classes"] = Json::array();
  for (const CustomerClass& c : network.classes) out["classes"].push_back(c.name);
  out["stations"] = Json::array();
  for (const Station& s : network.stations) out["stations"].push_back(s.name);
  out["X"] = Vector(result.X);
  out["R"] = Vector(result.R);
  out["Q"] = Matrix(result.Q);
  out["Rk"] = Matrix(result.Rk);
  out["U"] = Matrix(result.U);
  out["Ubusy"] = Json::object();
  for (size_t k = 0; k < network.stations.size(); ++k)
    if (network.stations[k].IsLoadDependent()) out["Ubusy"][std::to_string(k)] = Value(result.Ubusy[k]);
  const Summary& s = result.summary;
  out["summary"] = Json{{"algorithm", ToString(s.algorithm_used)},
                    {"iterations", s.iterations},
                    {"converged", s.converged},
                    {"final_change", s.final_change},
                    {"solve_time_s", s.solve_time_s},
                    {"message", s.message}};
  return out;
}

std::string ResultTable(const Network& network, const Result& result) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-20s %14s %14s %14s\n", "class", "N", "X", "R");
  out += line;
  for (size_t c = 0; c < network.classes.size(); ++c) {
    std::snprintf(line, sizeof line, "%-20s %14ld %14.6g %14.6g\n", network.classes[c].name.c_str(),
                  network.classes[c].population, result.X[c], result.R[c]);
    out += line;
  }
  out += "\n";
  std::snprintf(line, sizeof line, "%-20s %-14s %6s %14s %14s %14s %10s\n", "station", "type",
                "count", "Q", "Rk", "U", "Ubusy");
  out += line;
  for (size_t k = 0; k < network.stations.size(); ++k) {
    const Station& s = network.stations[k];
    for (size_t c = 0; c < network.classes.size(); ++c) {
      const bool first = c == 0;
      std::string busy = "";
      if (first && s.IsLoadDependent() && std::isfinite(result.Ubusy[k])) {
        char b[32];
        std::snprintf(b, sizeof b, "%.6g", result.Ubusy[k]);
        busy = b;
      }
      std::string label = first ? s.name : "";
      if (network.classes.size() > 1) label += (first ? " " : "  ") + std::string("[") + network.classes[c].name + "]";
      std::snprintf(line, sizeof line, "%-20s %-14s %6s %14.6g %14.6g %14.6g %10s\n", label.c_str(),
                    first ? ToString(s.type) : "", first ? std::to_string(s.count).c_str() : "",
                    result.Q[k][c], result.Rk[k][c], result.U[k][c], busy.c_str());
      out += line;
    }
  }
  for (const Station& s : network.stations)
    if (s.IsLoadDependent()) {
      out += "\nUbusy = 1 - P(n_k = 0): what JMT/JMVA reports as the utilization of a load-dependent\n"
             "station; U = X_c D_kc is busy servers at the base rate.\n";
      break;
    }
  out += "\n" + result.summary.BriefReport() + "\n" + result.summary.message + "\n";
  return out;
}

}  // namespace qnm::mva
