// libFuzzer target: the HPCToolkit database parsers (hpctoolkit/hpctoolkit_database.h)
// must turn any bytes into a record or an InputError (file:line), never crash,
// hang or throw anything else. A first byte 0 makes the rest an experiment.xml
// (its tree, tables and metric); any other makes it a metric-db file, read
// against the tree of Hatchet's cpi database (60 nodes, 2 metrics), kept small here.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hpctoolkit/hpctoolkit_database.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

namespace {

constexpr std::string_view kExperiment = R"xml(<?xml version="1.0"?>
<HPCToolkitExperiment version="2.0"><Header n="cpi"/>
<SecCallPathProfile i="0" n="cpi"><SecHeader>
  <MetricDBTable><MetricDB i="0" n="CPUTIME (usec) (I)" t="inclusive" db-id="0" db-num-metrics="2"/></MetricDBTable>
  <ProcedureTable><Procedure i="1" n="main"/><Procedure i="2" n="MPI_Finalize"/></ProcedureTable>
</SecHeader><SecCallPathProfileData>
  <PF i="2" n="1"><C i="3"><PF i="4" n="2"/></C><S i="60"/></PF>
</SecCallPathProfileData></SecCallPathProfile></HPCToolkitExperiment>)xml";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (data[0] == 0) {
      const qnm::HpctoolkitExperiment experiment = qnm::ParseHpctoolkitExperiment(bytes, "experiment.xml");
      if (experiment.max_node_id < 1 || experiment.top_level.empty()) __builtin_trap();
    } else {
      static const qnm::HpctoolkitExperiment experiment = qnm::ParseHpctoolkitExperiment(kExperiment, "x.xml");
      const qnm::HpctoolkitRankTimes times = qnm::ReadMetricDb(bytes, "1.cpi-000000-000-a-1-0.metric-db", experiment);
      (void)qnm::RunsToCsv({qnm::HpctoolkitToRunStats(experiment, {times, times}, {"r0", "r1"}, 1, {"a", "a"})});
    }
  } catch (const qnm::InputError&) {
  }
  return 0;
}
