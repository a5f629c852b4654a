// JMT's <solutions> written back into a JMVA model (mva/jmva_solutions.cpp):
// the output re-reads with our JMVA reader as the same network, and every
// measure carries the solved value, JMT's utilization being 1 - P(0) (Ubusy)
// at a load-dependent station.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include "mva/jmva_solutions.h"
#include "mva/jmva_xml.h"
#include "mva/solver.h"

namespace {

namespace mva = qnm::mva;
using boost::property_tree::ptree;

// Two classes, a delay, a queue visited twice per cycle and JMT's load-dependent
// example station; an old <solutions> that must be replaced.
const char* kModel = R"(<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<model xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="JMTmodel.xsd">
<parameters>
<classes number="2">
<closedclass name="A" population="4"/>
<closedclass name="B" population="2"/>
</classes>
<stations number="3">
<delaystation name="terminals">
<servicetimes><servicetime customerclass="A">3</servicetime><servicetime customerclass="B">1</servicetime></servicetimes>
<visits><visit customerclass="A">1</visit><visit customerclass="B">1</visit></visits>
</delaystation>
<listation name="cpu" servers="1">
<servicetimes><servicetime customerclass="A">0.25</servicetime><servicetime customerclass="B">0.5</servicetime></servicetimes>
<visits><visit customerclass="A">2</visit><visit customerclass="B">1</visit></visits>
</listation>
<ldstation name="disk" servers="1">
<servicetimes><servicetimes customerclass="A">1.0;0.6;0.5</servicetimes><servicetimes customerclass="B">2.0;1.2;1.0</servicetimes></servicetimes>
<visits><visit customerclass="A">1</visit><visit customerclass="B">1</visit></visits>
</ldstation>
</stations>
</parameters>
<algParams><algType maxSamples="10000" name="MVA" tolerance="1.0E-7"/></algParams>
<solutions ok="true" solutionMethod="analytical"><algorithm name="MVA"/></solutions>
</model>
)";

/// meanValue of one measure in the written <solutions>.
double Measure(const ptree& doc, const std::string& station, const std::string& customer_class,
               const std::string& type) {
  for (const auto& s : doc.get_child("model.solutions.algorithm")) {
    if (s.first != "stationresults" || s.second.get<std::string>("<xmlattr>.station") != station) continue;
    for (const auto& c : s.second) {
      if (c.first != "classresults" || c.second.get<std::string>("<xmlattr>.customerclass") != customer_class) continue;
      for (const auto& m : c.second)
        if (m.first == "measure" && m.second.get<std::string>("<xmlattr>.measureType") == type) {
          CHECK(m.second.get<std::string>("<xmlattr>.successful") == "true");
          return m.second.get<double>("<xmlattr>.meanValue");
        }
    }
  }
  FAIL("no " << type << " for " << station << "/" << customer_class);
  return 0.0;
}

}  // namespace

TEST_CASE("The JMVA model written with solutions re-reads and carries the results", "[mva][jmva]") {
  const mva::Network net = mva::NetworkFromJmvaXml(kModel, "model.jmva");
  mva::Result result;
  std::string error;
  REQUIRE(mva::Solve(net, mva::Options(), &result, &error));
  const std::string written = mva::JmvaWithSolutions(kModel, "model.jmva", net, result);

  // Our reader sees the same network in the written file.
  const mva::Network again = mva::NetworkFromJmvaXml(written, "written.jmva");
  REQUIRE(again.stations.size() == 3);
  REQUIRE(again.classes.size() == 2);
  for (size_t k = 0; k < 3; ++k) {
    CHECK(again.stations[k].name == net.stations[k].name);
    CHECK(again.stations[k].type == net.stations[k].type);
    CHECK(again.stations[k].demand_s == net.stations[k].demand_s);
    CHECK(again.stations[k].rate_multipliers == net.stations[k].rate_multipliers);
  }

  ptree doc;
  std::istringstream in(written);
  boost::property_tree::read_xml(in, doc);
  CHECK(doc.count("model") == 1);
  CHECK(doc.get_child("model").count("solutions") == 1);  // the old one replaced
  CHECK(doc.get<std::string>("model.solutions.<xmlattr>.ok") == "true");
  CHECK(doc.get<std::string>("model.solutions.<xmlattr>.solutionMethod") == "analytical");
  CHECK(doc.get<std::string>("model.solutions.algorithm.<xmlattr>.name") == "MVA");
  CHECK(doc.get<std::string>("model.solutions.<xmlcomment>").find("Ubusy") != std::string::npos);
  const char* names[] = {"A", "B"};
  const double cpu_visits[] = {2.0, 1.0};
  double disk_u = result.U[2][0] + result.U[2][1];
  for (size_t c = 0; c < 2; ++c) {
    INFO("class " << names[c]);
    CHECK(Measure(doc, "terminals", names[c], "Number of Customers") == result.Q[0][c]);
    CHECK(Measure(doc, "cpu", names[c], "Number of Customers") == result.Q[1][c]);
    CHECK(Measure(doc, "cpu", names[c], "Throughput") == result.X[c] * cpu_visits[c]);
    CHECK(Measure(doc, "cpu", names[c], "Residence time") == result.Rk[1][c]);
    CHECK(Measure(doc, "cpu", names[c], "Utilization") == result.U[1][c]);
    CHECK(Measure(doc, "disk", names[c], "Residence time") == result.Rk[2][c]);
    // JMT's utilization of a load-dependent station: 1 - P(0), our Ubusy (split by class).
    CHECK(Measure(doc, "disk", names[c], "Utilization") == Approx(result.Ubusy[2] * result.U[2][c] / disk_u).epsilon(1e-15));
  }
  CHECK(Measure(doc, "disk", "A", "Utilization") + Measure(doc, "disk", "B", "Utilization") ==
        Approx(result.Ubusy[2]).epsilon(1e-14));
  CHECK(result.Ubusy[2] < disk_u);  // the two utilizations really differ here
}

TEST_CASE("Writing solutions into a file that is not a JMVA model is an input error", "[mva][jmva]") {
  mva::Network net;
  mva::Result result;
  CHECK_THROWS_WITH(mva::JmvaWithSolutions("<model><x/></model>", "bad.jmva", net, result),
                    Catch::Contains("bad.jmva") && Catch::Contains("not a JMVA model"));
  CHECK_THROWS_WITH(mva::JmvaWithSolutions("<model>", "broken.jmva", net, result), Catch::Contains("invalid XML"));
}
