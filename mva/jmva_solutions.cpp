// JMVA <solutions> writer on Boost.PropertyTree (see jmva_solutions.h).
#include "mva/jmva_solutions.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include "util/input_error.h"

namespace qnm::mva {
namespace {

using boost::property_tree::ptree;

/// Shortest text that reads back as the same double (JMT writes Java's
/// Double.toString, which round-trips too).
std::string Number(double value) {
  if (!std::isfinite(value)) return "NaN";
  char text[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

void AddMeasure(ptree* class_results, const char* type, double value) {
  ptree& measure = class_results->add("measure", "");
  measure.put("<xmlattr>.meanValue", Number(value));
  measure.put("<xmlattr>.measureType", type);
  measure.put("<xmlattr>.successful", std::isfinite(value) ? "true" : "false");
}

/// Visits per class of one station element (1 where the model gives none).
std::vector<double> Visits(const ptree& station, const Network& network) {
  std::vector<double> visits(network.classes.size(), 1.0);
  const auto block = station.get_child_optional("visits");
  if (!block) return visits;
  for (const auto& item : *block) {
    if (item.first != "visit") continue;
    const std::string name = item.second.get<std::string>("<xmlattr>.customerclass", "");
    for (size_t c = 0; c < network.classes.size(); ++c)
      if (network.classes[c].name == name) visits[c] = std::strtod(item.second.data().c_str(), nullptr);
  }
  return visits;
}

}  // namespace

std::string JmvaWithSolutions(const std::string& model_xml, const std::string& file, const Network& network,
                              const Result& result) {
  ptree doc;
  try {
    std::istringstream in(model_xml);
    boost::property_tree::read_xml(in, doc, boost::property_tree::xml_parser::trim_whitespace);
  } catch (const boost::property_tree::xml_parser_error& e) {
    throw InputError(file, static_cast<int>(e.line()), "invalid XML: " + e.message());
  }
  const auto model = doc.get_child_optional("model");
  const auto stations = doc.get_child_optional("model.parameters.stations");
  if (!model || !stations) throw InputError(file, 0, "not a JMVA model: no <model><parameters><stations>");
  model->erase("solutions");

  ptree& solutions = model->add("solutions", "");
  solutions.put("<xmlattr>.ok", "true");
  solutions.put("<xmlattr>.solutionMethod", "analytical");
  solutions.add("<xmlcomment>",
                " qnm-predict " + std::string(ToString(result.summary.algorithm_used)) +
                    " MVA. At load-dependent and multi-server stations Utilization is JMT's 1 - P(n = 0) "
                    "(qnm-predict's Ubusy), split over the classes in proportion to X_c D_kc; qnm-predict's "
                    "U = X_c D_kc is in its JSON output. ");
  ptree& algorithm = solutions.add("algorithm", "");
  algorithm.put("<xmlattr>.name", "MVA");
  algorithm.put("<xmlattr>.iterations", result.summary.algorithm_used == Algorithm::kExact ? 0 : result.summary.iterations);
  size_t k = 0;
  for (const auto& item : *stations) {
    if (item.first != "listation" && item.first != "delaystation" && item.first != "ldstation") continue;
    if (k >= network.stations.size()) break;
    const Station& station = network.stations[k];
    const std::vector<double> visits = Visits(item.second, network);
    double total_u = 0.0;
    for (size_t c = 0; c < network.classes.size(); ++c) total_u += result.U[k][c];
    ptree& station_results = algorithm.add("stationresults", "");
    station_results.put("<xmlattr>.station", station.name);
    for (size_t c = 0; c < network.classes.size(); ++c) {
      ptree& class_results = station_results.add("classresults", "");
      class_results.put("<xmlattr>.customerclass", network.classes[c].name);
      AddMeasure(&class_results, "Number of Customers", result.Q[k][c]);
      AddMeasure(&class_results, "Throughput", result.X[c] * visits[c]);
      AddMeasure(&class_results, "Residence time", result.Rk[k][c]);
      double utilization = result.U[k][c];
      if (station.IsLoadDependent() && std::isfinite(result.Ubusy[k]))  // never "NaN" in JMT's file
        utilization = total_u > 0 ? result.Ubusy[k] * result.U[k][c] / total_u : 0.0;
      AddMeasure(&class_results, "Utilization", utilization);
    }
    ++k;
  }
  std::ostringstream out;
  boost::property_tree::write_xml(out, doc, boost::property_tree::xml_writer_make_settings<std::string>(' ', 2));
  return out.str();
}

}  // namespace qnm::mva
