// JMVA XML reader on Boost.PropertyTree (see jmva_xml.h for the mapping).
#include "mva/jmva_xml.h"

#include <cmath>
#include <map>
#include <sstream>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/utf8_text.h"

namespace qnm::mva {
namespace {

using boost::property_tree::ptree;

/// The child `path` of `node`, or an empty tree (a named object: get_child's
/// default argument would be a temporary that dies before a range-for runs).
const ptree& ChildOrEmpty(const ptree& node, const std::string& path) {
  static const ptree kEmpty;
  const auto child = node.get_child_optional(path);
  return child ? *child : kEmpty;
}

/// A number of the model: it must parse whole and lie in `range` (finite).
double ParseNumber(const std::string& text, const std::string& file, const std::string& where,
                   const PlausibleRange& range) {
  double value = 0;
  try {
    // Decimal only: stod would read "0x10" as 16 (issue 19).
    const size_t first = text.find_first_not_of(" \t\r\n");
    const size_t last = text.find_last_not_of(" \t\r\n");
    if (first == std::string::npos ||
        text.substr(first, last - first + 1).find_first_not_of("0123456789+-.eE") != std::string::npos)
      throw std::invalid_argument("not a decimal number");
    size_t used = 0;
    value = std::stod(text, &used);
    if (used != text.size() && text.find_first_not_of(" \t\r\n", used) != std::string::npos)
      throw std::invalid_argument("trailing text");
  } catch (const std::exception&) {  // also out_of_range: 1e309
    throw InputError(file, 0, where + ": '" + text.substr(0, 40) + "' is not a number");
  }
  RequirePlausible(value, range, where, file, 0);
  return value;
}

// Servers of a multi-server station: a whole number a solver can iterate over.
constexpr PlausibleRange kServers{1, 1e6, false, "", "1 to 1e6 servers"};

/// A whole number within `range` (populations, servers).
long ParseWhole(const std::string& text, const std::string& file, const std::string& where,
                const PlausibleRange& range) {
  const double n = ParseNumber(text, file, where, range);
  if (n != std::floor(n)) throw InputError(file, 0, where + " " + text.substr(0, 40) + " is not whole");
  return static_cast<long>(n);
}

/// Per-class values of a <servicetimes> or <visits> block, by class name.
std::map<std::string, std::string> PerClass(const ptree& block, const std::string& child) {
  std::map<std::string, std::string> values;
  for (const auto& item : block)
    if (item.first == child) values[item.second.get<std::string>("<xmlattr>.customerclass", "")] = item.second.data();
  return values;
}

Station ReadStation(const std::string& tag, const ptree& node, const Network& network,
                    const std::string& file) {
  Station s;
  s.name = ValidUtf8(node.get<std::string>("<xmlattr>.name", tag));
  const std::string where = tag + " '" + s.name + "'";
  s.type = tag == "delaystation" ? StationType::kDelay : StationType::kQueue;
  s.servers = static_cast<int>(
      ParseWhole(node.get<std::string>("<xmlattr>.servers", "1"), file, where + " servers", kServers));
  if (s.servers > 1 && tag == "listation") s.type = StationType::kMultiServer;
  const auto times = PerClass(ChildOrEmpty(node, "servicetimes"),
                              tag == "ldstation" ? "servicetimes" : "servicetime");
  const auto visits = PerClass(ChildOrEmpty(node, "visits"), "visit");
  std::vector<double> shape;  // S(j)/S(1) of the load-dependent classes
  for (const CustomerClass& c : network.classes) {
    const double visit = visits.count(c.name) ? ParseNumber(visits.at(c.name), file, where + " visits", kVisits) : 1.0;
    if (!times.count(c.name))
      throw InputError(file, 0, where + ": no service time for class '" + c.name + "'");
    if (tag != "ldstation") {
      s.demand_s.push_back(visit * ParseNumber(times.at(c.name), file, where + " service time", kServiceTimeS));
      RequirePlausible(s.demand_s.back(), kServiceTimeS, where + " demand (visits x service time)", file, 0);
      continue;
    }
    std::vector<double> by_population;  // "S(1);S(2);..." (a leading 0 for n = 0 is skipped)
    std::stringstream list(times.at(c.name));
    for (std::string item; std::getline(list, item, ';');)
      if (!item.empty()) by_population.push_back(ParseNumber(item, file, where + " service times", kServiceTimeS));
    if (!by_population.empty() && by_population[0] == 0) by_population.erase(by_population.begin());
    if (by_population.empty() || !(by_population[0] > 0)) {
      s.demand_s.push_back(0.0);
      continue;
    }
    s.demand_s.push_back(visit * by_population[0]);
    if (visit == 0) continue;
    std::vector<double> ratio;
    for (double t : by_population) ratio.push_back(t / by_population[0]);
    if (!shape.empty()) {
      const size_t n = std::min(shape.size(), ratio.size());
      for (size_t j = 0; j < n; ++j)
        if (std::fabs(shape[j] - ratio[j]) > 1e-12 * shape[j])
          throw InputError(file, 0, where + ": class-dependent load dependence is not supported");
    }
    if (ratio.size() > shape.size()) shape = ratio;
  }
  if (tag == "ldstation") {
    s.type = StationType::kLoadDependent;
    for (double r : shape) s.rate_multipliers.push_back(r > 0 ? 1.0 / r : 0.0);
    if (s.rate_multipliers.empty()) s.rate_multipliers = {1.0};
  }
  return s;
}

Network ReadJmva(const std::string& text, const std::string& file) {
  ptree doc;
  try {
    std::istringstream in(text);
    boost::property_tree::read_xml(in, doc);
  } catch (const boost::property_tree::xml_parser_error& e) {
    throw InputError(file, static_cast<int>(e.line()), "invalid XML: " + e.message());
  }
  const auto parameters = doc.get_child_optional("model.parameters");
  if (!parameters) throw InputError(file, 0, "not a JMVA model: no <model><parameters>");
  Network network;
  for (const auto& item : ChildOrEmpty(*parameters, "classes")) {
    if (item.first == "openclass")
      throw InputError(file, 0, "open class '" + item.second.get<std::string>("<xmlattr>.name", "") +
                                    "': only closed networks are supported");
    if (item.first != "closedclass") continue;
    CustomerClass c;
    c.name = ValidUtf8(item.second.get<std::string>("<xmlattr>.name", ""));
    const std::string population = item.second.get<std::string>("<xmlattr>.population", "");
    c.population = ParseWhole(population, file, "closedclass '" + c.name + "' population", kPopulation);
    network.classes.push_back(c);
  }
  for (const auto& item : ChildOrEmpty(*parameters, "stations"))
    if (item.first == "listation" || item.first == "delaystation" || item.first == "ldstation")
      network.stations.push_back(ReadStation(item.first, item.second, network, file));
  std::string error;
  if (!network.IsValid(&error)) throw InputError(file, 0, error);
  return network;
}

}  // namespace

Network NetworkFromJmvaXml(const std::string& text, const std::string& file) {
  try {
    return ReadJmva(text, file);
  } catch (const boost::property_tree::ptree_error& e) {  // a value of the wrong type
    throw InputError(file, 0, std::string("invalid JMVA model: ") + e.what());
  }
}

}  // namespace qnm::mva
