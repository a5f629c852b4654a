#pragma once
// Reading JMT's JMVA models (the XML files JMVA saves: <model><parameters>
// <classes><closedclass name population/></classes><stations><listation|
// delaystation|ldstation name servers><servicetimes/><visits/></...>).
#include <string>

#include "mva/network.h"

namespace qnm::mva {

/// Network from JMVA XML text; closed classes only. Demands are visits x service
/// times; an ldstation's per-population service times S(j) become D = V S(1),
/// alpha(j) = S(1)/S(j). Throws qnm::InputError naming `file` (and the line for
/// XML syntax errors).
Network NetworkFromJmvaXml(const std::string& text, const std::string& file);

}  // namespace qnm::mva
