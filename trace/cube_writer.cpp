#include "trace/cube_writer.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

#include "trace/wait_state_report.h"

namespace qnm::trace {
namespace {

constexpr std::size_t kBlock = 512;

void Octal(char* field, std::size_t width, uint64_t value) {
  // width-1 octal digits and a NUL, as ustar writers do.
  std::snprintf(field, width, "%0*llo", static_cast<int>(width - 1), static_cast<unsigned long long>(value));
}

uint64_t ParseOctal(const char* field, std::size_t width) {
  uint64_t value = 0;
  for (std::size_t i = 0; i < width && field[i]; ++i) {
    if (field[i] == ' ') continue;
    if (field[i] < '0' || field[i] > '7') throw std::runtime_error("bad octal number in tar header");
    value = value * 8 + static_cast<uint64_t>(field[i] - '0');
  }
  return value;
}

std::string Xml(const std::string& text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

const char* CubeRole(uint8_t role) {
  switch (role) {
    case OTF2_REGION_ROLE_FUNCTION: return "function";
    case OTF2_REGION_ROLE_WRAPPER: return "wrapper";
    case OTF2_REGION_ROLE_LOOP: return "loop";
    case OTF2_REGION_ROLE_CODE: return "code";
    case OTF2_REGION_ROLE_BARRIER: return "barrier";
    case OTF2_REGION_ROLE_COLL_ONE2ALL: return "one2all";
    case OTF2_REGION_ROLE_COLL_ALL2ONE: return "all2one";
    case OTF2_REGION_ROLE_COLL_ALL2ALL: return "all2all";
    case OTF2_REGION_ROLE_COLL_OTHER: return "other collective";
    case OTF2_REGION_ROLE_FILE_IO: return "file_io";
    case OTF2_REGION_ROLE_POINT2POINT: return "point2point";
    case OTF2_REGION_ROLE_RMA: return "rma";
    case OTF2_REGION_ROLE_ATOMIC: return "atomic";
    case OTF2_REGION_ROLE_ARTIFICIAL: return "artificial";
    case OTF2_REGION_ROLE_ALLOCATE: return "allocate";
    case OTF2_REGION_ROLE_DEALLOCATE: return "deallocate";
    default: return "unknown";
  }
}

const char* CubeParadigm(const Region& region) {
  if (region.is_mpi) return "mpi";
  if (region.paradigm == OTF2_PARADIGM_MEASUREMENT_SYSTEM) return "measurement";
  if (region.paradigm == OTF2_PARADIGM_COMPILER) return "compiler";
  return "user";
}

template <typename T>
void Append(std::string* out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // little-endian hosts: what cubew writes
  out->append(bytes, sizeof(T));
}

/// One stored metric: dense values [cnode (cube order)][rank].
struct StoredMetric {
  std::string id, name, uom, dtype, descr;
  int depth = 0;
  std::vector<double> values;
};

/// CUBEX index (SPARSE: the rows that hold data) and data (those rows).
void Serialise(const StoredMetric& metric, std::size_t cnodes, std::size_t ranks, std::string* index,
               std::string* data) {
  std::vector<uint32_t> rows;
  for (std::size_t c = 0; c < cnodes; ++c)
    for (std::size_t r = 0; r < ranks; ++r)
      if (metric.values[c * ranks + r] != 0) {
        rows.push_back(static_cast<uint32_t>(c));
        break;
      }
  *index = "CUBEX.INDEX";
  Append<uint32_t>(index, 1);  // endianness mark
  Append<uint16_t>(index, 0);  // version
  Append<uint8_t>(index, 1);   // SPARSE
  Append<uint32_t>(index, static_cast<uint32_t>(rows.size()));
  for (uint32_t row : rows) Append<uint32_t>(index, row);
  *data = "CUBEX.DATA";
  for (uint32_t row : rows)
    for (std::size_t r = 0; r < ranks; ++r) {
      double value = metric.values[row * ranks + r];
      if (metric.dtype == "UINT64")
        Append<uint64_t>(data, static_cast<uint64_t>(value));
      else
        Append<double>(data, value);
    }
}

}  // namespace

std::string TarArchive(const std::vector<TarMember>& members) {
  std::string out;
  for (const TarMember& member : members) {
    char header[kBlock];
    std::memset(header, 0, sizeof header);
    std::strncpy(header, member.name.c_str(), 99);
    Octal(header + 100, 8, 0644);
    Octal(header + 108, 8, 0);
    Octal(header + 116, 8, 0);
    Octal(header + 124, 12, member.contents.size());
    Octal(header + 136, 12, 0);
    header[156] = '0';
    std::memcpy(header + 257, "ustar", 6);
    std::memcpy(header + 263, "00", 2);
    std::memset(header + 148, ' ', 8);
    unsigned checksum = 0;
    for (unsigned char ch : header) checksum += ch;
    std::snprintf(header + 148, 8, "%06o", checksum);
    header[155] = ' ';
    out.append(header, kBlock);
    out += member.contents;
    out.append((kBlock - member.contents.size() % kBlock) % kBlock, '\0');
  }
  out.append(2 * kBlock, '\0');
  return out;
}

std::vector<TarMember> ReadTarArchive(const std::string& archive) {
  std::vector<TarMember> members;
  std::size_t offset = 0;
  while (offset + kBlock <= archive.size()) {
    const char* header = archive.data() + offset;
    if (header[0] == '\0') return members;  // end-of-archive blocks
    unsigned checksum = 0;
    for (std::size_t i = 0; i < kBlock; ++i)
      checksum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(header[i]);
    if (checksum != ParseOctal(header + 148, 8)) throw std::runtime_error("tar header checksum mismatch");
    uint64_t size = ParseOctal(header + 124, 12);
    offset += kBlock;
    if (size > archive.size() - offset) throw std::runtime_error("tar member runs past the end");
    members.push_back(TarMember{std::string(header, strnlen(header, 100)), archive.substr(offset, size)});
    offset += (size + kBlock - 1) / kBlock * kBlock;
  }
  throw std::runtime_error("tar archive has no end-of-archive blocks");
}

std::string CubeReport(const Trace& trace, const WaitStateResult& result) {
  const CallPaths& paths = trace.call_paths;
  const std::size_t ranks = result.ranks;
  // Time outside every region (the JSON counts it as Computation) needs a call
  // path of its own, or the cube's time would be short of the JSON's. Where
  // the trace names its program (ProgramBegin), Scalasca's PEARL enters that
  // region, so it is the root of the call tree and this time is its exclusive
  // time (before main, after it). Without one, an artificial root takes its
  // place: CUBE readers (pyCubexR, Extra-P) expect exactly one root, as every
  // Scalasca trace cube has (docs/formats/scalasca-patterns.md section 9).
  double outside_total = 0;
  for (double seconds : result.outside_time_s) outside_total += seconds;
  const bool program_root = trace.program_region != kNone && paths.HasRegion(trace.program_region);
  // Call tree in depth-first pre-order; cube ids are positions in it (after the root).
  std::vector<uint32_t> order = paths.PreOrder();
  std::size_t top_level = 0;
  for (uint32_t c : order)
    if (paths.node(c).parent == CallPaths::kNoParent) ++top_level;
  const bool artificial_root = !program_root && (outside_total > 0 || top_level != 1);
  const bool has_root = program_root || artificial_root;
  const uint32_t shift = has_root ? 1 : 0;
  const std::size_t cnodes = order.size() + shift;
  const uint32_t extra_id = 0;  // the root, when there is one
  std::vector<uint32_t> cube_id(paths.size());
  for (uint32_t i = 0; i < order.size(); ++i) cube_id[order[i]] = i + shift;
  std::map<uint32_t, uint32_t> region_id;  // used regions, consecutive ids
  for (uint32_t c : order) region_id.emplace(paths.node(c).region, 0);
  if (program_root) region_id.emplace(trace.program_region, 0);
  uint32_t next_region = 0;
  for (auto& [region, id] : region_id) id = next_region++;
  const uint32_t artificial_region = next_region;  // only written when artificial_root

  // Metrics: visits, then the metric tree (categories hold the exclusive time
  // of the call paths in their subtree, patterns their severities).
  std::vector<StoredMetric> metrics;
  StoredMetric visits{"visits", "Visits", "occ", "UINT64", "Number of visits", 0, {}};
  visits.values.assign(cnodes * ranks, 0.0);
  for (uint32_t c = 0; c < paths.size(); ++c)
    for (std::size_t r = 0; r < ranks; ++r) visits.values[cube_id[c] * ranks + r] = static_cast<double>(result.visits[c * ranks + r]);
  if (has_root)  // the program is entered once per rank
    for (std::size_t r = 0; r < ranks; ++r) visits.values[extra_id * ranks + r] = 1;
  metrics.push_back(std::move(visits));
  std::vector<MetricNode> tree = MetricTree(trace, result);
  std::map<std::string, std::string> parent_of;
  for (const MetricNode& node : tree) parent_of[node.id] = node.parent_id;
  auto within = [&](std::string id, const std::string& ancestor) {
    for (; !id.empty(); id = parent_of[id])
      if (id == ancestor) return true;
    return false;
  };
  for (const MetricNode& node : tree) {
    StoredMetric metric{node.id, node.name, "sec", "DOUBLE", node.is_pattern ? "Scalasca wait-state pattern" : "Time category", node.depth + 0, {}};
    metric.values.assign(cnodes * ranks, 0.0);
    if (node.is_pattern) {
      Pattern pattern = Pattern::kCount;
      for (std::size_t p = 0; p < kPatternCount; ++p)
        if (node.id == InfoOf(static_cast<Pattern>(p)).id) pattern = static_cast<Pattern>(p);
      for (const auto& [key, value] : result.severity[static_cast<std::size_t>(pattern)])
        metric.values[cube_id[key >> 32] * ranks + (key & 0xFFFFFFFFu)] = value;
    } else {
      for (uint32_t c = 0; c < paths.size(); ++c) {
        if (!within(MetricIdOf(paths.RegionOf(c).category), node.id)) continue;
        for (std::size_t r = 0; r < ranks; ++r)
          metric.values[cube_id[c] * ranks + r] = result.ExclusiveTime(c, static_cast<uint32_t>(r));
      }
      if (has_root && within(MetricIdOf(TimeCategory::kComputation), node.id))
        for (std::size_t r = 0; r < ranks && r < result.outside_time_s.size(); ++r)
          metric.values[extra_id * ranks + r] = result.outside_time_s[r];
    }
    metrics.push_back(std::move(metric));
  }

  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"4.4\">\n"
      << "<attr key=\"CubePL Version\" value=\"1.1\"/>\n"
      << "  <attr key=\"Creator\" value=\"qnm-predict trace analyze\"/>\n"
      << "  <attr key=\"CUBE_CT_AGGR\" value=\"SUM\"/>\n"
      << "  <doc>\n    <mirrors>\n      <murl>http://apps.fz-juelich.de/scalasca/releases/scalasca/2.6/help/</murl>\n"
      << "    </mirrors>\n  </doc>\n  <metrics>\n";
  int open_depth = -1;
  auto close_to = [&](int depth) {
    for (; open_depth >= depth; --open_depth) xml << std::string(4 + 2 * open_depth, ' ') << "</metric>\n";
  };
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    const StoredMetric& metric = metrics[m];
    close_to(metric.depth);
    std::string pad(4 + 2 * metric.depth, ' ');
    xml << pad << "<metric id=\"" << m << "\" type=\"EXCLUSIVE\">\n"
        << pad << "  <disp_name>" << Xml(metric.name) << "</disp_name>\n"
        << pad << "  <uniq_name>" << metric.id << "</uniq_name>\n"
        << pad << "  <dtype>" << metric.dtype << "</dtype>\n"
        << pad << "  <uom>" << metric.uom << "</uom>\n"
        << pad << "  <url>@mirror@scalasca_patterns.html#" << metric.id << "</url>\n"
        << pad << "  <descr>" << metric.descr << "</descr>\n";
    open_depth = metric.depth;
    if (m == 0) close_to(0);  // visits is a root of its own
  }
  close_to(0);
  xml << "  </metrics>\n  <program>\n";
  auto write_region = [&](uint32_t id, const std::string& name, const char* module, const char* paradigm,
                          const char* role) {
    xml << "    <region id=\"" << id << "\" mod=\"" << module << "\" begin=\"-1\" end=\"-1\">\n"
        << "      <name>" << Xml(name) << "</name>\n      <mangled_name>" << Xml(name) << "</mangled_name>\n"
        << "      <paradigm>" << paradigm << "</paradigm>\n      <role>" << role << "</role>\n"
        << "      <url></url>\n      <descr></descr>\n    </region>\n";
  };
  for (const auto& [region, id] : region_id) {
    const Region& r = paths.region(region);
    write_region(id, r.name, r.is_mpi ? "MPI" : "", CubeParadigm(r), CubeRole(r.role));
  }
  if (artificial_root)
    write_region(artificial_region, trace.program_name.empty() ? "(program)" : trace.program_name, "",
                 "measurement", "artificial");
  const std::size_t base = has_root ? 1 : 0;  // nesting below the root
  if (has_root)
    xml << "    <cnode id=\"" << extra_id << "\" calleeId=\""
        << (program_root ? region_id[trace.program_region] : artificial_region) << "\">\n";
  std::vector<uint32_t> open;  // cnode nesting
  auto indent = [&] { return std::string(4 + 2 * (base + open.size()), ' '); };
  for (uint32_t c : order) {
    while (!open.empty() && open.back() != paths.node(c).parent) {
      open.pop_back();
      xml << indent() << "</cnode>\n";
    }
    xml << indent() << "<cnode id=\"" << cube_id[c] << "\" calleeId=\""
        << region_id[paths.node(c).region] << "\">\n";
    open.push_back(c);
  }
  while (!open.empty()) {
    open.pop_back();
    xml << indent() << "</cnode>\n";
  }
  if (has_root) xml << "    </cnode>\n";
  xml << "  </program>\n  <system>\n    <systemtreenode Id=\"0\">\n      <name>machine</name>\n"
      << "      <class>machine</class>\n";
  std::map<std::string, std::vector<uint32_t>> by_node;
  std::vector<std::string> node_order;
  for (uint32_t r = 0; r < ranks; ++r) {
    const std::string& node = trace.ranks[r].node;
    if (!by_node.count(node)) node_order.push_back(node);
    by_node[node].push_back(r);
  }
  uint32_t tree_id = 1;
  for (const std::string& node : node_order) {
    xml << "      <systemtreenode Id=\"" << tree_id++ << "\">\n        <name>node " << Xml(node.empty() ? "unknown" : node)
        << "</name>\n        <class>node</class>\n";
    for (uint32_t r : by_node[node])
      xml << "        <locationgroup Id=\"" << r << "\">\n          <name>MPI Rank " << r << "</name>\n"
          << "          <rank>" << r << "</rank>\n          <type>process</type>\n"
          << "          <location Id=\"" << r << "\">\n            <name>Master thread</name>\n"
          << "            <rank>0</rank>\n            <type>thread</type>\n          </location>\n"
          << "        </locationgroup>\n";
    xml << "      </systemtreenode>\n";
  }
  xml << "    </systemtreenode>\n    <topologies>\n    </topologies>\n  </system>\n</cube>\n";

  std::vector<TarMember> members;
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    // A metric without a non-zero value gets no .index/.data pair: pyCubexR
    // refuses an empty index (assertion) and reports a metric without files as
    // missing, which Extra-P skips; Cube and our reader read it as all zeros.
    if (std::all_of(metrics[m].values.begin(), metrics[m].values.end(), [](double v) { return v == 0; })) continue;
    TarMember index{std::to_string(m) + ".index", ""}, data{std::to_string(m) + ".data", ""};
    Serialise(metrics[m], cnodes, ranks, &index.contents, &data.contents);
    members.push_back(std::move(data));
    members.push_back(std::move(index));
  }
  members.push_back(TarMember{"anchor.xml", xml.str()});  // cubew writes the anchor last
  return TarArchive(members);
}

}  // namespace qnm::trace
