// libFuzzer target: the network readers (JSON via nlohmann, JMVA XML via
// Boost.PropertyTree) and the MVA solver must turn any bytes into a solution or
// an error, nothing else. The first byte picks the reader and the algorithm;
// the options cap the work so a huge population cannot stall the fuzzer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "mva/jmva_xml.h"
#include "mva/network_json.h"
#include "mva/solver.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const qnm::mva::Network network =
        (data[0] & 1) ? qnm::mva::NetworkFromJmvaXml(text, "fuzz.jmva")
                      : qnm::mva::NetworkFromJson(qnm::mva::ParseJsonText(text, "fuzz.json"), "fuzz.json");
    qnm::mva::Options options;
    options.algorithm = static_cast<qnm::mva::Algorithm>((data[0] >> 1) % 4);
    options.max_exact_steps = 1e6;
    options.max_lattice_points = 1e5;
    options.max_iterations = 2000;
    qnm::mva::Result result;
    std::string error;
    (void)qnm::mva::Solve(network, options, &result, &error);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
