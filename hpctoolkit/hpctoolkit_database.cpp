#include "hpctoolkit/hpctoolkit_database.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include "reader/routine_call_sites.h"
#include "textio/text_lines.h"
#include "textio/xml_text.h"
#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::string_view kMetricDbTag = "HPCPROF-metricdb__";
constexpr std::size_t kMetricDbHeaderBytes = 32;  // tag 18, version 5, endianness 1, two int32
constexpr int kMaxNodeId = 1 << 28;

double BigEndianDouble(const char* bytes) {
  std::uint64_t bits = 0;
  for (int k = 0; k < 8; ++k) bits = (bits << 8) | static_cast<unsigned char>(bytes[k]);
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

std::int32_t BigEndianInt32(const char* bytes) {
  std::uint32_t bits = 0;
  for (int k = 0; k < 4; ++k) bits = (bits << 8) | static_cast<unsigned char>(bytes[k]);
  return static_cast<std::int32_t>(bits);
}

}  // namespace

std::string MpiRoutineOf(std::string_view procedure) {
  // hpcprof 2022.10 and later name a function of a binary without sources "PMPI_Bcast [libmpi.so.40]".
  if (const std::size_t module = procedure.find(" ["); module != std::string_view::npos && procedure.back() == ']')
    procedure = procedure.substr(0, module);
  std::string lower = ToLower(std::string(procedure));
  std::size_t at = StartsWith(lower, "pmpi_") ? 5 : StartsWith(lower, "mpi_") ? 4 : 0;
  if (at == 0 || at >= lower.size() || !std::isalpha(static_cast<unsigned char>(lower[at]))) return "";
  std::string routine = lower.substr(at);
  while (!routine.empty() && routine.back() == '_') routine.pop_back();
  for (char c : routine)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return "";
  routine[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(routine[0])));
  return routine;
}

struct Xml : XmlText {
  long Integer(const pugi::xml_node& node, const char* name, long low, long high) const {
    const pugi::xml_attribute attribute = node.attribute(name);
    if (!attribute) Fail(node, std::string("<") + node.name() + "> without " + name + "=");
    const auto value = ParseDouble(Trim(attribute.value()));
    if (!value || *value != std::floor(*value) || *value < low || *value > high)
      Fail(node, std::string(name) + "=\"" + std::string(attribute.value()).substr(0, 40) + "\" is no integer in " +
                     std::to_string(low) + ".." + std::to_string(high));
    return static_cast<long>(*value);
  }
};

double SecondsPerUnit(const std::string& name) {
  static const std::pair<const char*, double> kUnits[] = {
      {"(usec)", 1e-6}, {"(us)", 1e-6}, {"(msec)", 1e-3}, {"(ms)", 1e-3},
      {"(nsec)", 1e-9}, {"(ns)", 1e-9}, {"(sec)", 1.0},   {"(s)", 1.0}};
  for (const auto& [unit, seconds] : kUnits)
    if (name.find(unit) != std::string::npos) return seconds;
  return 0;
}

int TimeMetricRank(const std::string& name) {
  const std::string lower = ToLower(name);
  return StartsWith(lower, "realtime") || StartsWith(lower, "wallclock") ? 2 : StartsWith(lower, "cputime") ? 1 : 0;
}

bool LooksLikeHpctoolkitExperiment(std::string_view text) {
  const std::string_view head = text.substr(0, 4096);
  return head.find("<?xml") != std::string_view::npos &&
         (head.find("<!DOCTYPE HPCToolkitExperiment") != std::string_view::npos ||
          head.find("<HPCToolkitExperiment") != std::string_view::npos);
}

HpctoolkitExperiment ParseHpctoolkitExperiment(std::string_view text, const std::string& path) {
  const Xml xml{{text, path}};
  pugi::xml_document document;
  xml.Load(&document);
  const pugi::xml_node root = document.child("HPCToolkitExperiment");
  if (!root) throw InputError(path, 1, "an HPCToolkit experiment's root element is <HPCToolkitExperiment>");
  HpctoolkitExperiment experiment;
  experiment.version = root.attribute("version").value();
  experiment.program = root.child("Header").attribute("n").value();
  const pugi::xml_node section = root.child("SecCallPathProfile");
  if (!section) xml.Fail(root, "no <SecCallPathProfile>: a database of call path profiles is read (hpcprof's)");
  const pugi::xml_node header = section.child("SecHeader");
  const pugi::xml_node data = section.child("SecCallPathProfileData");
  if (!header || !data) xml.Fail(section, "<SecCallPathProfile> without <SecHeader> and <SecCallPathProfileData>");

  // The time metric: wall clock where the run sampled it, else CPU time; inclusive.
  pugi::xml_node chosen;
  int rank_of_chosen = 0;
  std::string metrics;
  for (const pugi::xml_node& metric : header.child("MetricDBTable").children("MetricDB")) {
    const std::string name = metric.attribute("n").value();
    metrics += (metrics.empty() ? "" : ", ") + name;
    if (std::string(metric.attribute("t").value()) != "inclusive" || SecondsPerUnit(name) == 0) continue;
    const int rank = TimeMetricRank(name);
    if (rank > rank_of_chosen) {
      chosen = metric;
      rank_of_chosen = rank;
    }
  }
  if (!chosen)
    xml.Fail(header, "no inclusive time metric (REALTIME, WALLCLOCK or CPUTIME with a unit) in <MetricDBTable>" +
                         (metrics.empty() ? std::string() : " (has: " + metrics.substr(0, 200) + ")"));
  experiment.time_metric = chosen.attribute("n").value();
  experiment.seconds_per_unit = SecondsPerUnit(experiment.time_metric);
  experiment.metrics_per_node = static_cast<int>(xml.Integer(chosen, "db-num-metrics", 1, 1 << 16));
  experiment.time_column = static_cast<int>(xml.Integer(chosen, "db-id", 0, experiment.metrics_per_node - 1));

  std::map<std::string, std::string> procedures;  // id -> name
  for (const pugi::xml_node& procedure : header.child("ProcedureTable").children("Procedure"))
    procedures[procedure.attribute("i").value()] = procedure.attribute("n").value();

  // Depth first without recursion (a hostile tree may be deep): each node with whether an MPI
  // frame is above it.
  std::vector<std::pair<pugi::xml_node, bool>> stack;
  std::vector<int> ids;  // checked for repeats once the tree is walked
  for (const pugi::xml_node& child : data.children()) {
    if (child.type() != pugi::node_element || std::strcmp(child.name(), "M") == 0) continue;
    stack.emplace_back(child, false);
    experiment.top_level.push_back(static_cast<int>(xml.Integer(child, "i", 1, kMaxNodeId)));
  }
  if (experiment.top_level.empty()) xml.Fail(data, "an empty calling context tree");
  while (!stack.empty()) {
    const auto [node, under_mpi] = stack.back();
    stack.pop_back();
    const std::string_view tag = node.name();
    if (tag != "PF" && tag != "Pr" && tag != "C" && tag != "L" && tag != "S")
      xml.Fail(node, "<" + std::string(tag) + "> in the calling context tree (PF, Pr, C, L, S and M expected)");
    const int id = static_cast<int>(xml.Integer(node, "i", 1, kMaxNodeId));
    ids.push_back(id);
    experiment.max_node_id = std::max(experiment.max_node_id, id);
    bool mpi = under_mpi;
    if (!under_mpi && (tag == "PF" || tag == "Pr")) {
      const auto procedure = procedures.find(node.attribute("n").value());
      if (procedure == procedures.end())
        xml.Fail(node, std::string("procedure n=\"") + node.attribute("n").value() + "\" not in <ProcedureTable>");
      const std::string routine = MpiRoutineOf(procedure->second);
      if (!routine.empty()) {
        experiment.mpi_frames.push_back({id, routine});
        mpi = true;
      }
    }
    for (const pugi::xml_node& child : node.children())
      if (child.type() == pugi::node_element && std::strcmp(child.name(), "M") != 0) stack.emplace_back(child, mpi);
  }
  std::sort(ids.begin(), ids.end());
  if (const auto twice = std::adjacent_find(ids.begin(), ids.end()); twice != ids.end())
    throw InputError(path, 0, "node id " + std::to_string(*twice) + " twice in the calling context tree");
  return experiment;
}

bool ParseMetricDbName(const std::string& file_name, MetricDbName* name) {
  // <n>.<program>-<rank>-<thread>-<host id>-<pid>-<k>.metric-db; the program may hold '-'.
  const std::string base = BaseName(file_name);
  if (!EndsWith(base, ".metric-db")) return false;
  std::string stem = base.substr(0, base.size() - std::strlen(".metric-db"));
  std::string parts[5];  // k, pid, host id, thread, rank: taken from the right
  for (std::string& part : parts) {
    const std::size_t dash = stem.rfind('-');
    if (dash == std::string::npos) return false;
    part = stem.substr(dash + 1);
    stem.resize(dash);
  }
  auto decimal = [](const std::string& s, int* out) {
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return false;
    *out = std::stoi(s);
    return true;
  };
  int k = 0, pid = 0;
  if (!decimal(parts[0], &k) || !decimal(parts[1], &pid) || parts[2].empty() || !decimal(parts[3], &name->thread) ||
      !decimal(parts[4], &name->rank))
    return false;
  name->host_id = parts[2];
  return stem.find('.') != std::string::npos;  // "<n>.<program>"
}

void CheckMetricDbHeader(std::string_view head, std::size_t size_bytes, const std::string& path,
                         const HpctoolkitExperiment& experiment) {
  if (head.size() < kMetricDbHeaderBytes || head.substr(0, kMetricDbTag.size()) != kMetricDbTag)
    throw InputError(path, 0, "not an HPCToolkit metric-db (no HPCPROF-metricdb__ header)");
  if (head[23] != 'b')
    throw InputError(path, 0, std::string("a metric-db of endianness '") + head[23] + "': only 'b' (big-endian, "
                                                                                    "hpcprof's) is read");
  const std::int32_t nodes = BigEndianInt32(head.data() + 24), metrics = BigEndianInt32(head.data() + 28);
  if (metrics != experiment.metrics_per_node)
    throw InputError(path, 0, "holds " + std::to_string(metrics) + " metrics per node, experiment.xml says " +
                                  std::to_string(experiment.metrics_per_node));
  if (nodes < experiment.max_node_id)
    throw InputError(path, 0, "holds " + std::to_string(nodes) + " nodes, experiment.xml's tree has node " +
                                  std::to_string(experiment.max_node_id));
  const std::size_t expected = kMetricDbHeaderBytes + static_cast<std::size_t>(nodes) * metrics * 8;
  if (size_bytes != expected)
    throw InputError(path, 0, "is " + std::to_string(size_bytes) + " bytes, its header says " +
                                  std::to_string(expected) + (size_bytes < expected ? " (cut short)" : ""));
}

HpctoolkitRankTimes ReadMetricDb(std::string_view bytes, const std::string& path,
                                 const HpctoolkitExperiment& experiment) {
  CheckMetricDbHeader(bytes.substr(0, kMetricDbHeaderBytes), bytes.size(), path, experiment);
  const int metrics = experiment.metrics_per_node;
  auto inclusive_s = [&](int node) {
    const std::size_t at = kMetricDbHeaderBytes +
                           (static_cast<std::size_t>(node - 1) * metrics + experiment.time_column) * 8;
    const double value = BigEndianDouble(bytes.data() + at);
    if (!std::isfinite(value) || value < 0)
      throw InputError(path, 0, "node " + std::to_string(node) + ": " + experiment.time_metric + " is " +
                                    FormatDouble("%g", value) + ", not a time");
    return value * experiment.seconds_per_unit;
  };
  HpctoolkitRankTimes times;
  for (int node : experiment.top_level) times.app_s += inclusive_s(node);
  times.routine_s.reserve(experiment.mpi_frames.size());
  for (const HpctoolkitExperiment::MpiFrame& frame : experiment.mpi_frames) {
    times.routine_s.push_back(inclusive_s(frame.node));
    times.mpi_s += times.routine_s.back();
  }
  if (times.mpi_s > times.app_s * (1 + 1e-9))
    throw InputError(path, 0, "MPI frames hold more time than the whole tree");
  return times;
}

RunStats HpctoolkitToRunStats(const HpctoolkitExperiment& experiment, const std::vector<HpctoolkitRankTimes>& ranks,
                              const std::vector<std::string>& paths, int threads,
                              const std::vector<std::string>& host_ids, const HpctoolkitWording& wording) {
  const std::size_t procs = ranks.size();
  if (procs == 0 || paths.size() != procs || host_ids.size() != procs)
    throw InputError(paths.empty() ? std::string() : paths.front(), 0, "no profile of rank 0, thread 0");
  RunStats run = PerRankProfileRun(procs, threads, wording.sources.empty() ? paths : wording.sources);
  RoutineCallSites sites(&run, procs, false);
  for (std::size_t r = 0; r < procs; ++r) {
    if (!(ranks[r].app_s > 0)) throw InputError(paths[r], 0, "a rank without samples (no time in its tree)");
    // Checked here, naming the rank's own file (the record's check names experiment.xml).
    RequirePlausible(ranks[r].app_s, kPartTimeS, "application time", paths[r], 0);
    run.app_time_s_per_rank[r] = ranks[r].app_s;
    run.mpi_time_s_per_rank[r] = ranks[r].mpi_s;
    for (std::size_t f = 0; f < experiment.mpi_frames.size(); ++f) {
      const HpctoolkitExperiment::MpiFrame& frame = experiment.mpi_frames[f];
      CallSiteStats& site = sites.Of(frame.routine, "HPCToolkit MPI_" + frame.routine + " frames");
      site.time_s_per_rank[r] += ranks[r].routine_s[f];
    }
  }
  sites.SumTotals();
  for (CallSiteStats& site : run.call_sites) {  // sampling counts no calls: unknown, not 0
    site.calls_per_rank.clear();
    site.total_calls = kUnknown;
  }
  const std::string metric = "HPCToolkit " + experiment.time_metric + " of thread 0";
  run.derivations["procs"] = "HPCToolkit: " + wording.per_rank;
  run.derivations["app_time_s_per_rank"] = metric + ", summed over the tree's top-level nodes";
  run.derivations["mpi_time_s_per_rank"] =
      metric + ", summed over the outermost MPI procedure frames (MPI_*, PMPI_*; nested ones not again)";
  run.derivations["call_sites"] = "HPCToolkit: one per MPI routine, its frames' time (sampled: no calls, no bytes)";
  if (threads > 1) run.derivations["threads_per_proc"] = "HPCToolkit: " + wording.threads;
  if (!experiment.program.empty()) {
    run.app = BaseName(experiment.program);
    run.derivations["app"] = "HPCToolkit " + wording.program + ": " + experiment.program;
  }
  run.tool_version = "HPCToolkit " + wording.version + " " + experiment.version;
  // A rank without a host id (a format-4 tuple without NODE): the nodes are not known.
  if (std::find(host_ids.begin(), host_ids.end(), "") == host_ids.end()) {
    const std::set<std::string> hosts(host_ids.begin(), host_ids.end());
    run.SetNodes(static_cast<int>(hosts.size()), "HPCToolkit: " + wording.hosts);
  }
  run.Derive();
  return run;
}

}  // namespace qnm
