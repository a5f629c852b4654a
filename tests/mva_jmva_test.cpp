// JMT JMVA XML models are read into the same Network as the JSON schema: the
// JMT example 1cl_2stat_loaddep (written out as JMVA saves it) must reproduce
// its reference vector, and XML errors name the file and line.
#include <catch2/catch.hpp>

#include <string>

#include "mva/jmva_xml.h"
#include "mva/network_json.h"
#include "mva/solver.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

namespace mva = qnm::mva;

const char* kLoadDependentModel = R"(<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<model xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="JMTmodel.xsd">
<parameters>
<classes number="1">
<closedclass name="Class1" population="5"/>
</classes>
<stations number="2">
<listation name="ServerLI" servers="1">
<servicetimes>
<servicetime customerclass="Class1">1.5</servicetime>
</servicetimes>
<visits>
<visit customerclass="Class1">1.0</visit>
</visits>
</listation>
<ldstation name="ServerLD" servers="1">
<servicetimes>
<servicetimes customerclass="Class1">1.0;1.5;1.9;2.6;3.1</servicetimes>
</servicetimes>
<visits>
<visit customerclass="Class1">1.0</visit>
</visits>
</ldstation>
</stations>
<ReferenceStation number="1">
<Class name="Class1" refStation="ServerLI"/>
</ReferenceStation>
</parameters>
<algParams>
<algType maxSamples="10000" name="MVA" tolerance="1.0E-7"/>
</algParams>
</model>
)";

}  // namespace

TEST_CASE("A JMVA load-dependent model reproduces its reference vector", "[mva][jmva]") {
  const mva::Network net = mva::NetworkFromJmvaXml(kLoadDependentModel, "loaddep.jmva");
  REQUIRE(net.stations.size() == 2);
  CHECK(net.stations[1].type == mva::StationType::kLoadDependent);
  CHECK(net.stations[1].rate_multipliers[1] == Approx(1.0 / 1.5));
  const std::string file = QNM_TEST_DATA_DIR "/mva-vectors/jmt_1cl_2stat_loaddep_exact_N5.json";
  const nlohmann::json vector = mva::ParseJsonText(qnm::ReadFile(file), file);
  mva::Result result;
  std::string error;
  REQUIRE(mva::Solve(net, mva::Options(), &result, &error));
  CHECK(result.X[0] == Approx(vector["expected"]["X"][0].get<double>()).epsilon(1e-9));
  CHECK(result.Q[1][0] == Approx(vector["expected"]["Q"][1][0].get<double>()).epsilon(1e-9));
  CHECK(result.Ubusy[1] == Approx(vector["expected"]["Ubusy"]["1"].get<double>()).epsilon(1e-9));
}

TEST_CASE("JMVA multi-class models with visits, delays and multi-server stations", "[mva][jmva]") {
  const std::string xml = R"(<model><parameters>
    <classes number="2"><closedclass name="A" population="3"/><closedclass name="B" population="2"/></classes>
    <stations number="3">
      <delaystation name="terminals"><servicetimes>
        <servicetime customerclass="A">4</servicetime><servicetime customerclass="B">2</servicetime>
      </servicetimes><visits><visit customerclass="A">1</visit><visit customerclass="B">1</visit></visits></delaystation>
      <listation name="cpu" servers="2"><servicetimes>
        <servicetime customerclass="A">0.5</servicetime><servicetime customerclass="B">0.25</servicetime>
      </servicetimes><visits><visit customerclass="A">4</visit><visit customerclass="B">2</visit></visits></listation>
      <listation name="disk" servers="1"><servicetimes>
        <servicetime customerclass="A">0.1</servicetime><servicetime customerclass="B">0.3</servicetime>
      </servicetimes><visits><visit customerclass="A">3</visit><visit customerclass="B">0</visit></visits></listation>
    </stations></parameters></model>)";
  const mva::Network net = mva::NetworkFromJmvaXml(xml, "m.jmva");
  REQUIRE(net.classes.size() == 2);
  CHECK(net.classes[1].population == 2);
  CHECK(net.stations[0].type == mva::StationType::kDelay);
  CHECK(net.stations[1].type == mva::StationType::kMultiServer);
  CHECK(net.stations[1].servers == 2);
  CHECK(net.stations[1].demand_s == std::vector<double>{2.0, 0.5});
  CHECK(net.stations[2].demand_s[0] == Approx(0.3));
  CHECK(net.stations[2].demand_s[1] == 0.0);
}

TEST_CASE("JMVA errors name the file and the line", "[mva][jmva]") {
  auto message = [](const std::string& text) -> std::string {
    try {
      mva::NetworkFromJmvaXml(text, "m.jmva");
    } catch (const qnm::InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(message("<model>\n<parameters>\n<classes>\n</model>"), Catch::StartsWith("m.jmva:4: invalid XML"));
  CHECK_THAT(message("<other/>"), Catch::Contains("not a JMVA model"));
  CHECK_THAT(message(R"(<model><parameters><classes><openclass name="o" rate="1"/></classes></parameters></model>)"),
             Catch::Contains("only closed networks"));
  CHECK_THAT(message(R"(<model><parameters><classes><closedclass name="A" population="2"/></classes>
    <stations><listation name="s"><servicetimes><servicetime customerclass="A">x</servicetime></servicetimes>
    </listation></stations></parameters></model>)"),
             Catch::Contains("listation 's' service time: 'x' is not a number"));
}
