#pragma once
// Small, valid CUBE4 profiles (.cubex: an uncompressed ustar archive) built
// in the tests, for the shapes too large to keep as files: deep call chains
// and anchors declaring far more than they store (issue 19). Same layout as
// tests/robustness/cube_structure.py.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace qnm::testing {

/// A ustar archive of (name, contents) members.
inline std::string TarArchive(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out;
  for (const auto& [name, contents] : members) {
    char header[512] = {};
    std::snprintf(header, 100, "%s", name.c_str());
    std::snprintf(header + 100, 8, "%07o", 0600);
    std::snprintf(header + 108, 8, "%07o", 0);
    std::snprintf(header + 116, 8, "%07o", 0);
    std::snprintf(header + 124, 12, "%011llo", static_cast<unsigned long long>(contents.size()));
    std::snprintf(header + 136, 12, "%011o", 0);
    header[156] = '0';
    std::memcpy(header + 257, "ustar\0" "00", 8);
    std::memset(header + 148, ' ', 8);
    unsigned sum = 0;
    for (unsigned char c : header) sum += c;
    std::snprintf(header + 148, 8, "%06o", sum);
    out.append(header, 512);
    out += contents;
    out.append((512 - contents.size() % 512) % 512, '\0');
  }
  out.append(1024, '\0');
  return out;
}

template <typename T>
void AppendRaw(std::string* out, T value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof value);
}

/// CUBEX.INDEX: dense, or sparse listing `positions` (little-endian writer).
inline std::string CubeIndex(const std::vector<uint32_t>* positions) {
  std::string index = "CUBEX.INDEX";
  AppendRaw<uint32_t>(&index, 1);
  AppendRaw<uint16_t>(&index, 0);
  AppendRaw<uint8_t>(&index, positions ? 1 : 0);
  if (positions) {
    AppendRaw<uint32_t>(&index, static_cast<uint32_t>(positions->size()));
    for (uint32_t p : *positions) AppendRaw<uint32_t>(&index, p);
  }
  return index;
}

/// anchor.xml with metrics visits (0, EXCLUSIVE UINT64) and time (1,
/// INCLUSIVE DOUBLE); `chain`: main -> compute -> ... -> MPI_Send, else a root
/// with `cnodes - 1` children; one process (one thread) per location.
inline std::string CubeAnchor(int cnodes, int locations, bool chain) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cube version=\"4.4\">\n<attr key=\"Creator\" value=\"test\"/>\n"
      "<metrics><metric id=\"0\" type=\"EXCLUSIVE\"><uniq_name>visits</uniq_name><dtype>UINT64</dtype></metric>"
      "<metric id=\"1\" type=\"INCLUSIVE\"><uniq_name>time</uniq_name><dtype>DOUBLE</dtype></metric></metrics>\n"
      "<program><region id=\"0\"><name>main</name><paradigm>user</paradigm><role>artificial</role></region>"
      "<region id=\"1\"><name>MPI_Send</name><paradigm>mpi</paradigm><role>point2point</role></region>"
      "<region id=\"2\"><name>compute</name><paradigm>user</paradigm><role>function</role></region>\n";
  if (chain) {
    for (int n = 0; n < cnodes; ++n)
      xml += "<cnode id=\"" + std::to_string(n) + "\" calleeId=\"" +
             std::to_string(n == 0 ? 0 : n == cnodes - 1 ? 1 : 2) + "\">";
    for (int n = 0; n < cnodes; ++n) xml += "</cnode>";
  } else {
    xml += "<cnode id=\"0\" calleeId=\"0\">";
    for (int n = 1; n < cnodes; ++n) xml += "<cnode id=\"" + std::to_string(n) + "\" calleeId=\"1\"/>";
    xml += "</cnode>";
  }
  xml += "\n</program>\n<system><systemtreenode Id=\"0\"><name>machine</name><class>machine</class>\n";
  for (int g = 0; g < locations; ++g) {
    const std::string id = std::to_string(g);
    xml += "<locationgroup Id=\"" + id + "\"><name>r</name><rank>" + id + "</rank><type>process</type><location Id=\"" +
           id + "\"><name>t</name><rank>0</rank><type>thread</type></location></locationgroup>\n";
  }
  return xml + "</systemtreenode></system>\n</cube>\n";
}

/// A valid profile: every call path 0.5 s exclusive and 1 visit per location.
inline std::string ValidCube(int cnodes, int locations, bool chain) {
  std::string visits = "CUBEX.DATA", time = "CUBEX.DATA";
  for (int n = 0; n < cnodes; ++n)
    for (int c = 0; c < locations; ++c) {
      AppendRaw<uint64_t>(&visits, 1);
      // Inclusive, in Cube's wide order (the anchor order for these shapes).
      AppendRaw<double>(&time, 0.5 * (chain ? cnodes - n : n == 0 ? cnodes : 1));
    }
  return TarArchive({{"anchor.xml", CubeAnchor(cnodes, locations, chain)},
                     {"0.index", CubeIndex(nullptr)},
                     {"0.data", visits},
                     {"1.index", CubeIndex(nullptr)},
                     {"1.data", time}});
}

/// Declares cnodes x locations but stores nothing (sparse indexes listing no row).
inline std::string DeclaredOnlyCube(int cnodes, int locations) {
  const std::vector<uint32_t> none;
  return TarArchive({{"anchor.xml", CubeAnchor(cnodes, locations, false)},
                     {"0.index", CubeIndex(&none)},
                     {"0.data", "CUBEX.DATA"},
                     {"1.index", CubeIndex(&none)},
                     {"1.data", "CUBEX.DATA"}});
}

}  // namespace qnm::testing
