#pragma once
// Writing results back into a JMT JMVA model, as JMVA itself saves a solved
// model: the input XML with a <solutions ok="true" solutionMethod="analytical">
// element holding <algorithm name="MVA"><stationresults station=..>
// <classresults customerclass=..><measure measureType="Number of Customers" |
// "Throughput" | "Residence time" | "Utilization" meanValue=.. successful="true"/>,
// so JMT users can open qnm-predict's results in JMVA.
//
// Measures per station and class: Number of Customers = Q, Throughput = X_c x
// visits (read from the model), Residence time = Rk (per interaction, over all
// visits), Utilization = X_c D_kc -- except at load-dependent and multi-server
// stations, where JMT's "utilization" is 1 - P(n_k = 0), qnm-predict's Ubusy;
// that value is written there (split over the classes in proportion to
// X_c D_kc), and an XML comment in <solutions> says so.
#include <string>

#include "mva/network.h"
#include "mva/solver.h"

namespace qnm::mva {

/// `model_xml` (the JMVA text `network` was read from, `file` its name for
/// errors) with any old <solutions> replaced by those of `result`. Throws
/// qnm::InputError when the text is not a JMVA model.
std::string JmvaWithSolutions(const std::string& model_xml, const std::string& file, const Network& network,
                              const Result& result);

}  // namespace qnm::mva
