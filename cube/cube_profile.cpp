#include "cube/cube_profile.h"

#include <otf2/otf2.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <numeric>
#include <pugixml.hpp>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "cube/cube_archive.h"
#include "cube/cube_memory_budget.h"
#include "reader/run_stats_check.h"
#include "textio/gzip_member.h"
#include "textio/xml_text.h"
#include "trace/call_paths.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kIndexMarker = "CUBEX.INDEX";
constexpr std::string_view kDataMarker = "CUBEX.DATA";
constexpr std::string_view kZDataMarker = "ZCUBEX.DATA";

// ---- anchor.xml -------------------------------------------------------------

std::string Text(const pugi::xml_node& node, const char* child) {
  return node.child(child).text().as_string();
}

bool ParseId(const char* text, uint32_t* id) {
  if (!text || !*text) return false;
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (*end != '\0' || errno != 0 || value > UINT32_MAX || text[0] == '-') return false;
  *id = static_cast<uint32_t>(value);
  return true;
}

class AnchorReader {
 public:
  AnchorReader(std::string path, std::string_view xml) : path_(std::move(path)), xml_(xml) {}

  void Read(CubeProfile* profile) {
    // The XML tree costs ~64 bytes per element whatever the text size: count
    // them first so that 200 MB of "<a/>" is refused, not parsed (issue 19).
    const std::size_t elements = static_cast<std::size_t>(std::count(xml_.begin(), xml_.end(), '<'));
    if (elements > kCubeAnchorMaxElements)
      Fail(0, "anchor.xml has " + std::to_string(elements) + " elements, more than the " +
                  std::to_string(kCubeAnchorMaxElements) + " this reader holds in memory");
    pugi::xml_document doc;
    pugi::xml_parse_result parsed =
        doc.load_buffer(xml_.data(), xml_.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!parsed) Fail(LineOfOffset(xml_, parsed.offset), std::string("anchor.xml is not XML: ") + parsed.description());
    pugi::xml_node cube = doc.child("cube");
    if (!cube) Fail(0, "anchor.xml has no <cube> element");
    for (pugi::xml_node attr : cube.children("attr"))
      if (std::strcmp(attr.attribute("key").value(), "Creator") == 0) profile->creator = attr.attribute("value").value();
    ReadMetrics(cube.child("metrics"), profile);
    ReadProgram(cube.child("program"), profile);
    ReadSystem(cube.child("system"), profile);
  }

 private:
  [[noreturn]] void Fail(int line, const std::string& message) const {
    throw InputError(path_, 0, (line > 0 ? "anchor.xml line " + std::to_string(line) + ": " : std::string()) + message);
  }
  int LineOfNode(const pugi::xml_node& node) const { return LineOfOffset(xml_, node.offset_debug()); }

  uint32_t Id(const pugi::xml_node& node, const char* attribute, const char* what) const {
    uint32_t id = 0;
    if (!ParseId(node.attribute(attribute).value(), &id))
      Fail(LineOfNode(node), std::string(what) + " without a valid " + attribute + " attribute");
    return id;
  }

  // Trees are walked with explicit stacks: a hostile file may nest deeply.
  void ReadMetrics(const pugi::xml_node& metrics, CubeProfile* profile) {
    if (!metrics) Fail(0, "anchor.xml has no <metrics>");
    std::vector<std::pair<pugi::xml_node, int>> stack;
    for (pugi::xml_node m = metrics.last_child(); m; m = m.previous_sibling())
      if (std::strcmp(m.name(), "metric") == 0) stack.push_back({m, -1});
    while (!stack.empty()) {
      auto [node, parent] = stack.back();
      stack.pop_back();
      CubeMetric metric;
      metric.id = static_cast<int>(Id(node, "id", "<metric>"));
      metric.uniq_name = Text(node, "uniq_name");
      metric.dtype = Text(node, "dtype");
      metric.type = node.attribute("type").value();
      if (metric.type.empty()) metric.type = "EXCLUSIVE";  // Cube's default
      metric.parent = parent;
      int self = static_cast<int>(profile->metrics.size());
      profile->metrics.push_back(std::move(metric));
      for (pugi::xml_node m = node.last_child(); m; m = m.previous_sibling())
        if (std::strcmp(m.name(), "metric") == 0) stack.push_back({m, self});
    }
  }

  void ReadProgram(const pugi::xml_node& program, CubeProfile* profile) {
    if (!program) Fail(0, "anchor.xml has no <program>");
    std::unordered_map<uint32_t, int> region_index;
    for (pugi::xml_node r : program.children("region")) {
      uint32_t id = Id(r, "id", "<region>");
      if (!region_index.emplace(id, static_cast<int>(profile->regions.size())).second)
        Fail(LineOfNode(r), "region id " + std::to_string(id) + " appears twice");
      profile->regions.push_back({Text(r, "name"), Text(r, "paradigm"), Text(r, "role")});
    }
    std::unordered_map<uint32_t, int> seen;
    std::vector<std::pair<pugi::xml_node, int>> stack;
    for (pugi::xml_node c = program.last_child(); c; c = c.previous_sibling())
      if (std::strcmp(c.name(), "cnode") == 0) stack.push_back({c, -1});
    while (!stack.empty()) {
      auto [node, parent] = stack.back();
      stack.pop_back();
      CubeCallNode call;
      call.id = Id(node, "id", "<cnode>");
      auto region = region_index.find(Id(node, "calleeId", "<cnode>"));
      if (region == region_index.end()) Fail(LineOfNode(node), "cnode " + std::to_string(call.id) + " calls an undefined region");
      call.region = region->second;
      call.parent = parent;
      int self = static_cast<int>(profile->call_nodes.size());
      if (!seen.emplace(call.id, self).second) Fail(LineOfNode(node), "cnode id " + std::to_string(call.id) + " appears twice");
      profile->call_nodes.push_back(call);
      for (pugi::xml_node c = node.last_child(); c; c = c.previous_sibling())
        if (std::strcmp(c.name(), "cnode") == 0) stack.push_back({c, self});
    }
    if (profile->call_nodes.empty()) Fail(0, "anchor.xml has no call tree (<cnode>)");
  }

  void ReadSystem(const pugi::xml_node& system, CubeProfile* profile) {
    if (!system) Fail(0, "anchor.xml has no <system>");
    std::vector<pugi::xml_node> stack{system};
    std::vector<pugi::xml_node> groups;
    while (!stack.empty()) {
      pugi::xml_node node = stack.back();
      stack.pop_back();
      for (pugi::xml_node child = node.last_child(); child; child = child.previous_sibling()) {
        if (std::strcmp(child.name(), "systemtreenode") == 0) stack.push_back(child);
        if (std::strcmp(child.name(), "locationgroup") == 0) groups.push_back(child);
      }
    }
    // The stack visits siblings last-first; location groups are listed in document order.
    std::sort(groups.begin(), groups.end(), [](auto& a, auto& b) { return a.offset_debug() < b.offset_debug(); });
    std::unordered_map<uint32_t, bool> location_ids;
    std::unordered_set<std::ptrdiff_t> nodes;  // the system-tree nodes of class node holding processes
    bool every_process_on_a_node = true;
    for (const pugi::xml_node& group : groups) {
      const char* type = group.child("type").text().as_string();  // no copy: one per process
      int process = -1;
      // A process without locations ran nothing: counting it as a rank would
      // make 1,000,000 empty groups a 1,000,000-process run of mean time ~0.
      if ((std::strcmp(type, "process") == 0 || *type == '\0') && group.child("location")) {
        process = static_cast<int>(profile->process_ranks.size());
        profile->process_ranks.push_back(group.child("rank").text().as_int(process));
        pugi::xml_node above = group.parent();
        while (above && std::strcmp(above.name(), "systemtreenode") == 0 &&
               std::strcmp(above.child("class").text().as_string(), "node") != 0)
          above = above.parent();
        if (above && std::strcmp(above.name(), "systemtreenode") == 0) nodes.insert(above.offset_debug());
        else every_process_on_a_node = false;
      }
      for (pugi::xml_node loc : group.children("location")) {
        CubeLocation location;
        location.id = Id(loc, "Id", "<location>");
        location.type = Text(loc, "type");
        location.process = process;
        if (!location_ids.emplace(location.id, true).second)
          Fail(LineOfNode(loc), "location Id " + std::to_string(location.id) + " appears twice");
        profile->locations.push_back(location);
      }
    }
    if (profile->locations.empty()) Fail(0, "anchor.xml has no locations in its system tree");
    if (every_process_on_a_node) profile->nodes = static_cast<int>(nodes.size());
    std::sort(profile->locations.begin(), profile->locations.end(), [](auto& a, auto& b) { return a.id < b.id; });
  }

  std::string path_;
  std::string_view xml_;
};

// ---- <id>.index / <id>.data -------------------------------------------------

class BinaryCursor {
 public:
  BinaryCursor(std::string_view bytes, bool swap) : bytes_(bytes), swap_(swap) {}
  template <typename T>
  bool Read(T* value) {
    if (bytes_.size() - offset_ < sizeof(T)) return false;
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, bytes_.data() + offset_, sizeof(T));
    if (swap_) std::reverse(raw, raw + sizeof(T));
    std::memcpy(value, raw, sizeof(T));
    offset_ += sizeof(T);
    return true;
  }
  std::size_t offset() const { return offset_; }
  std::size_t left() const { return bytes_.size() - offset_; }
  std::string_view Rest() const { return bytes_.substr(offset_); }
  void Skip(std::size_t n) { offset_ += std::min(n, left()); }

 private:
  std::string_view bytes_;
  bool swap_;
  std::size_t offset_ = 0;
};

// Width in bytes and decoder of a Cube dtype, at Cube's sizes (cubelib's
// value types; pyCubexR utils/metric_formats.py lists the same): FLOAT is
// stored as a double, INTEGER / SIGNED INTEGER / UNSIGNED INTEGER are 64-bit,
// INT / SIGNED INT / UNSIGNED INT 32-bit, CHAR an unsigned byte. COMPLEX, RATE
// and TAU_ATOMIC are records; we decode their first double (real part, rate
// numerator) or, for TAU_ATOMIC, skip the count and read the sum.
// Width 0 = not a value type we can read (NDOUBLES, HISTOGRAM, SCALE_FUNC).
struct ValueType {
  std::size_t width = 0;
  enum Kind { kFloat, kSigned, kUnsigned, kComplex, kRate, kTauAtomic } kind = kFloat;
};
ValueType TypeOf(std::string dtype) {
  std::transform(dtype.begin(), dtype.end(), dtype.begin(), [](unsigned char c) { return std::toupper(c); });
  if (dtype == "DOUBLE" || dtype == "MINDOUBLE" || dtype == "MAXDOUBLE" || dtype == "FLOAT") return {8, ValueType::kFloat};
  if (dtype == "UINT64" || dtype == "UNSIGNED INTEGER") return {8, ValueType::kUnsigned};
  if (dtype == "INT64" || dtype == "INTEGER" || dtype == "SIGNED INTEGER") return {8, ValueType::kSigned};
  if (dtype == "UINT32" || dtype == "UNSIGNED INT") return {4, ValueType::kUnsigned};
  if (dtype == "INT32" || dtype == "INT" || dtype == "SIGNED INT") return {4, ValueType::kSigned};
  if (dtype == "UINT16" || dtype == "UNSIGNED SHORT INT") return {2, ValueType::kUnsigned};
  if (dtype == "INT16" || dtype == "SHORT INT" || dtype == "SIGNED SHORT INT") return {2, ValueType::kSigned};
  if (dtype == "UINT8" || dtype == "CHAR") return {1, ValueType::kUnsigned};
  if (dtype == "INT8") return {1, ValueType::kSigned};
  if (dtype == "COMPLEX") return {16, ValueType::kComplex};
  if (dtype == "RATE") return {16, ValueType::kRate};
  if (dtype == "TAU_ATOMIC") return {36, ValueType::kTauAtomic};  // uint32 n, double min, max, sum, sum2
  return {};
}

double Decode(BinaryCursor* cursor, const ValueType& type) {
  auto get = [&](auto tag) {
    decltype(tag) value{};
    cursor->Read(&value);
    return static_cast<double>(value);
  };
  switch (type.kind) {
    case ValueType::kComplex:
    case ValueType::kRate: {
      double first = get(double{});
      get(double{});
      return first;
    }
    case ValueType::kTauAtomic: {
      get(uint32_t{});
      get(double{});
      get(double{});
      double sum = get(double{});
      get(double{});
      return sum;
    }
    default: break;
  }
  switch (type.width) {
    case 8: return type.kind == ValueType::kFloat ? get(double{}) : type.kind == ValueType::kSigned ? get(int64_t{}) : get(uint64_t{});
    case 4: return type.kind == ValueType::kSigned ? get(int32_t{}) : get(uint32_t{});
    case 2: return type.kind == ValueType::kSigned ? get(int16_t{}) : get(uint16_t{});
    default: return type.kind == ValueType::kSigned ? get(int8_t{}) : get(uint8_t{});
  }
}

// The bytes of a metric's data, as stored (CUBEX.DATA) or inflated segment
// by segment (ZCUBEX.DATA) through a small buffer: a table is decoded value by
// value, never unpacked whole, so memory is what the reader keeps of it.
class StoredBytes {
 public:
  StoredBytes(std::string_view data, bool swap, std::size_t expected, const std::string& where)
      : where_(where), expected_(expected) {
    if (data.substr(0, kZDataMarker.size()) == kZDataMarker) {
      compressed_ = true;
      BinaryCursor cursor(data.substr(kZDataMarker.size()), swap);
      int64_t segments = 0;
      if (!cursor.Read(&segments) || segments < 0 || static_cast<uint64_t>(segments) > cursor.left() / 24)
        throw std::runtime_error(where + ": bad segment count in compressed data");
      std::vector<int64_t> sizes;
      for (int64_t s = 0; s < segments; ++s) {
        int64_t uncompressed_at = 0, compressed_at = 0, compressed_size = 0;
        cursor.Read(&uncompressed_at);
        cursor.Read(&compressed_at);
        cursor.Read(&compressed_size);
        if (compressed_size < 0) throw std::runtime_error(where + ": negative segment size in compressed data");
        sizes.push_back(compressed_size);
      }
      for (int64_t size : sizes) {
        if (size == 0) continue;
        if (static_cast<uint64_t>(size) > cursor.left())
          throw std::runtime_error(where + ": compressed segment runs past the end");
        segments_.push_back(cursor.Rest().substr(0, static_cast<std::size_t>(size)));
        cursor.Skip(static_cast<std::size_t>(size));
      }
    } else if (data.substr(0, kDataMarker.size()) == kDataMarker) {
      plain_ = data.substr(kDataMarker.size());
      if (plain_.size() != expected)
        throw std::runtime_error(where + ": data holds " + std::to_string(plain_.size()) + " bytes, the index needs " +
                                 std::to_string(expected));
    } else {
      throw std::runtime_error(where + ": no CUBEX.DATA marker");
    }
  }
  ~StoredBytes() {
    if (stream_open_) inflateEnd(&stream_);
  }
  StoredBytes(const StoredBytes&) = delete;
  StoredBytes& operator=(const StoredBytes&) = delete;

  /// The next `n` bytes (n <= 64); throws when the data ends before `expected` bytes.
  std::string_view Next(std::size_t n) {
    if (!compressed_) {
      std::string_view out = plain_.substr(taken_, n);
      taken_ += n;
      return out;
    }
    while (buffered_.size() - at_ < n) {
      buffered_.erase(0, at_);
      at_ = 0;
      if (!Refill()) ThrowShort();
    }
    std::string_view out(buffered_.data() + at_, n);
    at_ += n;
    taken_ += n;
    return out;
  }
  /// Throws when the data holds more than the index lists.
  void Finish() {
    if (!compressed_) return;
    if (buffered_.size() > at_ || Refill())
      throw std::runtime_error(where_ + ": compressed data unpacks to more values than the index lists");
  }

 private:
  // Inflates up to a buffer more; false at the end of the last segment.
  bool Refill() {
    constexpr std::size_t kChunkBytes = 1 << 18;
    while (segment_ < segments_.size()) {
      if (!stream_open_) {
        stream_ = z_stream{};
        if (inflateInit(&stream_) != Z_OK) throw std::runtime_error(where_ + ": cannot start zlib");
        stream_open_ = true;
        stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(segments_[segment_].data()));
        stream_.avail_in = static_cast<uInt>(segments_[segment_].size());
      }
      const std::size_t before = buffered_.size();
      buffered_.resize(before + kChunkBytes);
      stream_.next_out = reinterpret_cast<Bytef*>(buffered_.data() + before);
      stream_.avail_out = static_cast<uInt>(kChunkBytes);
      int status = inflate(&stream_, Z_NO_FLUSH);
      const std::size_t produced = kChunkBytes - stream_.avail_out;
      buffered_.resize(before + produced);
      inflated_ += produced;
      if (status == Z_STREAM_END) {
        inflateEnd(&stream_);
        stream_open_ = false;
        ++segment_;
      } else if (status != Z_OK || (produced == 0 && stream_.avail_in == 0)) {
        throw std::runtime_error(where_ + ": corrupt zlib data");
      }
      if (inflated_ > expected_)
        throw std::runtime_error(where_ + ": compressed data unpacks to more values than the index lists");
      if (produced > 0) return true;
    }
    return false;
  }
  [[noreturn]] void ThrowShort() const {
    throw std::runtime_error(where_ + ": compressed data holds " + std::to_string(inflated_) +
                             " bytes, the index needs " + std::to_string(expected_));
  }

  std::string where_;
  std::size_t expected_;
  bool compressed_ = false;
  std::string_view plain_;
  std::vector<std::string_view> segments_;
  std::size_t segment_ = 0;
  z_stream stream_{};
  bool stream_open_ = false;
  std::string buffered_;
  std::size_t at_ = 0, taken_ = 0, inflated_ = 0;
};

/// The stored rows of one metric: the call node index of each row, in the
/// order of the data. `listed` is false when the archive holds no data for it.
struct StoredLayout {
  bool listed = false;
  bool swap = false;
  std::vector<int> rows;
  std::string_view data;
  ValueType type;
  std::string where;
};

StoredLayout ReadLayout(const std::map<std::string, std::string>& members, const CubeMetric& metric,
                        const std::vector<int>& node_at_position) {
  StoredLayout layout;
  std::string name = std::to_string(metric.id);
  auto index_it = members.find(name + ".index"), data_it = members.find(name + ".data");
  if (index_it == members.end() || data_it == members.end()) return layout;
  layout.listed = true;
  layout.where = "metric '" + metric.uniq_name + "' (" + name + ".index/.data)";
  const std::string& where = layout.where;
  layout.type = TypeOf(metric.dtype);
  if (layout.type.width == 0) throw std::runtime_error(where + ": unsupported data type '" + metric.dtype + "'");
  std::string_view index = index_it->second;
  if (index.substr(0, kIndexMarker.size()) != kIndexMarker) throw std::runtime_error(where + ": no CUBEX.INDEX marker");
  index.remove_prefix(kIndexMarker.size());
  uint32_t endian_mark = 0;
  if (index.size() < 4) throw std::runtime_error(where + ": index header cut short");
  std::memcpy(&endian_mark, index.data(), 4);
  layout.swap = endian_mark != 1;
  if (layout.swap && endian_mark != 0x01000000u) throw std::runtime_error(where + ": bad endianness mark in the index");
  BinaryCursor cursor(index, layout.swap);
  cursor.Skip(4);
  uint16_t version = 0;
  uint8_t format = 0;
  if (!cursor.Read(&version) || !cursor.Read(&format)) throw std::runtime_error(where + ": index header cut short");
  if (format == 1) {  // sparse: the listed positions in the call-tree enumeration
    uint32_t count = 0;
    if (!cursor.Read(&count) || count > cursor.left() / 4) throw std::runtime_error(where + ": index list cut short");
    layout.rows.reserve(count);
    std::vector<bool> listed(node_at_position.size(), false);
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t position = 0;
      cursor.Read(&position);
      if (position >= node_at_position.size())
        throw std::runtime_error(where + ": index names call-tree position " + std::to_string(position) + " of " +
                                 std::to_string(node_at_position.size()));
      // Cube lists a row once; a second listing would be summed into the same call path.
      if (listed[position])
        throw std::runtime_error(where + ": index lists call-tree position " + std::to_string(position) + " twice");
      listed[position] = true;
      layout.rows.push_back(node_at_position[position]);
    }
  } else if (format == 0) {  // dense: every call node, in enumeration order
    layout.rows = node_at_position;
  } else {
    throw std::runtime_error(where + ": unsupported index format " + std::to_string(format));
  }
  layout.data = data_it->second;
  return layout;
}

/// Calls `sink(node, column, value)` for every stored value of `layout`, in
/// the data's order (the writer's byte order; the index's mark says whether
/// it is ours). Throws on a short, long or non-finite table.
template <typename Sink>
void ForEachStoredValue(const StoredLayout& layout, std::size_t columns, Sink&& sink) {
  const std::size_t width = layout.type.width;
  StoredBytes bytes(layout.data, layout.swap, layout.rows.size() * columns * width, layout.where);
  for (int row : layout.rows)
    for (std::size_t c = 0; c < columns; ++c) {
      BinaryCursor value_bytes(bytes.Next(width), layout.swap);
      double value = Decode(&value_bytes, layout.type);
      if (!std::isfinite(value)) throw std::runtime_error(layout.where + ": value is not a finite number");
      sink(static_cast<std::size_t>(row), c, value);
    }
  bytes.Finish();
}

/// Values of one metric as stored, [call node index * columns + column]; empty
/// when the archive holds no data for it.
std::vector<double> ReadStoredValues(const std::map<std::string, std::string>& members, const CubeMetric& metric,
                                     const std::vector<int>& node_at_position, std::size_t columns) {
  StoredLayout layout = ReadLayout(members, metric, node_at_position);
  if (!layout.listed) return {};
  std::vector<double> values(node_at_position.size() * columns, 0.0);
  ForEachStoredValue(layout, columns, [&](std::size_t node, std::size_t c, double value) {
    values[node * columns + c] += value;
  });
  return values;
}

// Cube numbers the rows of a metric's data by a walk of the call tree:
// EXCLUSIVE metrics depth-first (pre-order, the anchor's own order),
// INCLUSIVE metrics "wide": a node, then all its children listed together
// before the walk descends into the first child (cubelib's enumeration, as
// pyCubexR reproduces it). Returns the call-node index at each position.
std::vector<int> DepthFirstPositions(const CubeProfile& profile) {
  std::vector<int> order(profile.call_nodes.size());
  std::iota(order.begin(), order.end(), 0);
  return order;
}
std::vector<int> WidePositions(const CubeProfile& profile) {
  std::vector<std::vector<int>> children(profile.call_nodes.size());
  std::vector<int> roots;
  for (std::size_t n = 0; n < profile.call_nodes.size(); ++n) {
    int parent = profile.call_nodes[n].parent;
    (parent < 0 ? roots : children[static_cast<std::size_t>(parent)]).push_back(static_cast<int>(n));
  }
  std::vector<int> order;
  order.reserve(profile.call_nodes.size());
  std::vector<int> stack;
  for (int root : roots) {
    order.push_back(root);
    stack.push_back(root);
    while (!stack.empty()) {
      int node = stack.back();
      stack.pop_back();
      const std::vector<int>& kids = children[static_cast<std::size_t>(node)];
      order.insert(order.end(), kids.begin(), kids.end());
      stack.insert(stack.end(), kids.rbegin(), kids.rend());
    }
  }
  return order;
}

// Inclusive <-> exclusive along the call tree (parents precede children).
std::vector<double> ToInclusive(const CubeProfile& profile, std::vector<double> values, std::size_t columns) {
  for (std::size_t n = profile.call_nodes.size(); n-- > 0;) {
    int parent = profile.call_nodes[n].parent;
    if (parent < 0) continue;
    for (std::size_t c = 0; c < columns; ++c)
      values[static_cast<std::size_t>(parent) * columns + c] += values[n * columns + c];
  }
  return values;
}
std::vector<double> ToExclusive(const CubeProfile& profile, const std::vector<double>& inclusive, std::size_t columns) {
  std::vector<double> exclusive = inclusive;
  for (std::size_t n = 0; n < profile.call_nodes.size(); ++n) {
    int parent = profile.call_nodes[n].parent;
    if (parent < 0) continue;
    for (std::size_t c = 0; c < columns; ++c)
      exclusive[static_cast<std::size_t>(parent) * columns + c] -= inclusive[n * columns + c];
  }
  return exclusive;
}

const CubeMetric* FindMetric(const CubeProfile& profile, const char* uniq_name) {
  for (const CubeMetric& metric : profile.metrics)
    if (metric.uniq_name == uniq_name) return &metric;
  return nullptr;
}

// ---- regions as the trace reader sees them ----------------------------------

uint8_t Otf2Paradigm(const std::string& paradigm) {
  if (paradigm == "mpi") return OTF2_PARADIGM_MPI;
  if (paradigm.empty() || paradigm == "unknown") return OTF2_PARADIGM_UNKNOWN;
  if (paradigm == "compiler") return OTF2_PARADIGM_COMPILER;
  if (paradigm == "openmp") return OTF2_PARADIGM_OPENMP;
  if (paradigm == "measurement") return OTF2_PARADIGM_MEASUREMENT_SYSTEM;
  return OTF2_PARADIGM_USER;
}

uint8_t Otf2Role(const std::string& role) {
  static const std::map<std::string, uint8_t> kRoles = {
      {"function", OTF2_REGION_ROLE_FUNCTION},         {"wrapper", OTF2_REGION_ROLE_WRAPPER},
      {"point2point", OTF2_REGION_ROLE_POINT2POINT},   {"barrier", OTF2_REGION_ROLE_BARRIER},
      {"implicit barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER},
      {"one2all", OTF2_REGION_ROLE_COLL_ONE2ALL},
      {"all2one", OTF2_REGION_ROLE_COLL_ALL2ONE},      {"all2all", OTF2_REGION_ROLE_COLL_ALL2ALL},
      {"other collective", OTF2_REGION_ROLE_COLL_OTHER}, {"rma", OTF2_REGION_ROLE_RMA},
      {"file io", OTF2_REGION_ROLE_FILE_IO},           {"file io metadata", OTF2_REGION_ROLE_FILE_IO_METADATA},
      {"artificial", OTF2_REGION_ROLE_ARTIFICIAL},     {"atomic", OTF2_REGION_ROLE_ATOMIC},
      {"allocate", OTF2_REGION_ROLE_ALLOCATE}};
  auto it = kRoles.find(role);
  return it == kRoles.end() ? static_cast<uint8_t>(OTF2_REGION_ROLE_UNKNOWN) : it->second;
}

bool SendsMessages(trace::CallClass call_class, const std::string& name) {
  using trace::CallClass;
  if (call_class == CallClass::kOtherSend) return name.find("_init") == std::string::npos;
  return call_class == CallClass::kBlockingSend || call_class == CallClass::kSendrecv;
}

// "main/solve/MPI_Send": built only for the MPI call paths a record lists,
// from the parent links, and cut to the innermost regions (".../" marks the
// cut) so that a deep chain costs O(depth), not O(depth^2) (issue 19).
std::string CallPathOf(const CubeProfile& profile, std::size_t node) {
  std::vector<const std::string*> names;
  int at = static_cast<int>(node);
  while (at >= 0 && names.size() < kCubeCallPathMaxRegions) {
    const CubeCallNode& call = profile.call_nodes[static_cast<std::size_t>(at)];
    names.push_back(&profile.regions[static_cast<std::size_t>(call.region)].name);
    at = call.parent;
  }
  std::string path = at >= 0 ? "..." : "";
  for (auto name = names.rbegin(); name != names.rend(); ++name) {
    if (!path.empty()) path += "/";
    path += **name;
  }
  return path;
}

// The region of a call node as the trace reader describes it. Score-P's
// program root ("PARALLEL" in 1.x, the program name later) is artificial and,
// in 1.x, of paradigm mpi: it is never MPI time.
trace::Region RegionOf(const CubeProfile& profile, const CubeCallNode& node) {
  const CubeRegion& cube_region = profile.regions[static_cast<std::size_t>(node.region)];
  uint8_t paradigm = cube_region.role == "artificial" ? static_cast<uint8_t>(OTF2_PARADIGM_MEASUREMENT_SYSTEM)
                                                      : Otf2Paradigm(cube_region.paradigm);
  return trace::DescribeRegion(cube_region.name, Otf2Role(cube_region.role), paradigm);
}

// CubeValues::kRecordRows: the values of the call-tree roots (inclusive time:
// the run time) and of the MPI call paths (exclusive time, visits, bytes), read
// value by value as stored; the other call paths' values are summed into
// their root as they pass and never held. Memory is O(kept rows x locations),
// whatever the call tree's size (docs/formats/cube4.md).
void ReadRecordRows(CubeProfile& profile, const std::map<std::string, std::string>& members,
                    const std::vector<int>& depth_first, const std::vector<int>& wide, std::size_t file_bytes) {
  const std::string& path = profile.path;
  const std::size_t columns = profile.locations.size(), nodes = profile.call_nodes.size();
  std::vector<int> root_of(nodes, -1);
  profile.row_of_node.assign(nodes, -1);
  int rows = 0;
  for (std::size_t n = 0; n < nodes; ++n) {  // parents precede children
    const int parent = profile.call_nodes[n].parent;
    root_of[n] = parent < 0 ? static_cast<int>(n) : root_of[static_cast<std::size_t>(parent)];
    if (parent < 0 || RegionOf(profile, profile.call_nodes[n]).is_mpi) profile.row_of_node[n] = rows++;
  }
  const uint64_t kept_values = static_cast<uint64_t>(rows) * columns;
  if (kept_values > kCubeMaxKeptValues)
    throw InputError(path, 0,
                     std::to_string(rows) + " call-tree roots and MPI call paths x " + std::to_string(columns) +
                         " locations = " + std::to_string(kept_values) + " values per metric, more than the " +
                         std::to_string(kCubeMaxKeptValues) + " this reader holds in memory");
  auto read = [&](const char* uniq_name, std::vector<double>* exclusive, std::vector<double>* root_inclusive) {
    const CubeMetric* metric = FindMetric(profile, uniq_name);
    if (!metric) return;
    const bool inclusive = metric->type == "INCLUSIVE";
    try {
      StoredLayout layout = ReadLayout(members, *metric, inclusive ? wide : depth_first);
      if (!layout.listed) return;
      // What the index lists is read; a table much larger than the file can
      // hold lists values the file does not store (a declared size).
      const uint64_t listed_values = static_cast<uint64_t>(layout.rows.size()) * columns;
      const uint64_t stored_bound =
          std::max<uint64_t>(kCubeTableValuesFloor, kCubeTableValuesPerFileByte * static_cast<uint64_t>(file_bytes));
      if (listed_values > stored_bound)
        throw std::runtime_error(layout.where + ": the index lists " + std::to_string(layout.rows.size()) +
                                 " call paths x " + std::to_string(columns) + " locations = " +
                                 std::to_string(listed_values) + " values, more than a " + std::to_string(file_bytes) +
                                 "-byte file can store (" + std::to_string(stored_bound) + ")");
      exclusive->assign(kept_values, 0.0);
      if (root_inclusive) root_inclusive->assign(kept_values, 0.0);
      ForEachStoredValue(layout, columns, [&](std::size_t node, std::size_t c, double value) {
        if (value < 0) throw std::runtime_error(std::string("metric '") + uniq_name + "' has a negative value");
        const int row = profile.row_of_node[node];
        const int parent = profile.call_nodes[node].parent;
        if (row >= 0) (*exclusive)[static_cast<std::size_t>(row) * columns + c] += value;
        if (inclusive) {  // exclusive = inclusive - children's inclusive
          const int parent_row = parent < 0 ? -1 : profile.row_of_node[static_cast<std::size_t>(parent)];
          if (parent_row >= 0) (*exclusive)[static_cast<std::size_t>(parent_row) * columns + c] -= value;
          if (root_inclusive && parent < 0) (*root_inclusive)[static_cast<std::size_t>(row) * columns + c] += value;
        } else if (root_inclusive) {  // a root's inclusive = the sum over its subtree
          const int root_row = profile.row_of_node[static_cast<std::size_t>(root_of[node])];
          (*root_inclusive)[static_cast<std::size_t>(root_row) * columns + c] += value;
        }
      });
    } catch (const std::runtime_error& error) {
      throw InputError(path, 0, error.what());
    }
    // Inclusive minus children leaves rounding noise; beyond that the file contradicts itself.
    for (double& value : *exclusive) {
      if (value < -1e-6)
        throw InputError(path, 0, std::string("metric '") + uniq_name + "': a child's inclusive value exceeds its parent's");
      value = std::max(value, 0.0);
    }
  };
  read("time", &profile.exclusive_time, &profile.inclusive_time);
  if (profile.exclusive_time.empty()) throw InputError(path, 0, "the profile has no data for the 'time' metric");
  read("visits", &profile.exclusive_visits, nullptr);
  read("bytes_sent", &profile.exclusive_bytes_sent, nullptr);
  read("bytes_received", &profile.exclusive_bytes_received, nullptr);
}

}  // namespace

bool LooksLikeCubeProfile(std::string_view bytes) {
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b)
    return true;  // gzip: a compressed cube (tar.gz)
  if (bytes.size() < 512 || bytes.substr(257, 5) != "ustar") return false;
  std::string_view name = bytes.substr(0, 100);
  name = name.substr(0, name.find('\0'));
  auto ends = [&](std::string_view suffix) {
    return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  return name == "anchor.xml" || ends(".index") || ends(".data") || name == "remapping.spec";
}

CubeProfile ParseCubeProfile(std::string_view bytes, const std::string& path, CubeValues values) {
  // Unpacked members are bounded by the file size: Cube stores values
  // uncompressed or zlib-compressed, and a real cube compresses at most a few
  // hundred times; 1000x keeps hostile files from exhausting memory.
  ArchiveLimits limits;
  limits.max_expansion = 1000;
  // Two passes: the anchor (cubew writes it last), then only the data of the
  // metrics the record needs; the other members are skipped, not copied.
  ArchiveLimits anchor_limits = limits;
  anchor_limits.max_member_bytes = kCubeAnchorMaxBytes;
  std::map<std::string, std::string> anchor_only =
      ReadTarMembers(bytes, path, anchor_limits, [](const std::string& name) { return name == "anchor.xml"; });
  auto anchor = anchor_only.find("anchor.xml");
  if (anchor == anchor_only.end()) throw InputError(path, 0, "not a CUBE4 profile: the archive has no anchor.xml");
  // A gzip-compressed anchor.xml is legal CUBE4 (Cube and pyCubexR inflate it).
  if (IsGzip(anchor->second))
    anchor->second = Gunzip(anchor->second, path, "anchor.xml", limits.max_member_bytes);
  CubeProfile profile;
  profile.path = path;
  AnchorReader(path, anchor->second).Read(&profile);
  std::set<std::string> needed;
  for (const CubeMetric& metric : profile.metrics)
    if (metric.uniq_name == "time" || metric.uniq_name == "visits" || metric.uniq_name == "bytes_sent" ||
        metric.uniq_name == "bytes_received")
      for (const char* suffix : {".index", ".data"}) needed.insert(std::to_string(metric.id) + suffix);
  std::map<std::string, std::string> members =
      ReadTarMembers(bytes, path, limits, [&](const std::string& name) { return needed.count(name) > 0; });

  const std::vector<int> depth_first = DepthFirstPositions(profile), wide = WidePositions(profile);
  if (values == CubeValues::kRecordRows) {
    ReadRecordRows(profile, members, depth_first, wide, bytes.size());
    return profile;
  }
  const std::size_t columns = profile.locations.size();
  // The tables are dense [call node x location]: bounded by a fixed size and
  // by what the file can store, never by the sizes the anchor declares.
  const uint64_t table_values = static_cast<uint64_t>(profile.call_nodes.size()) * columns;
  const uint64_t stored_bound =
      std::max<uint64_t>(kCubeTableValuesFloor, kCubeTableValuesPerFileByte * static_cast<uint64_t>(bytes.size()));
  if (table_values > std::min<uint64_t>(kCubeMaxTableValues, stored_bound))
    throw InputError(path, 0,
                     std::to_string(profile.call_nodes.size()) + " call paths x " + std::to_string(columns) +
                         " locations = " + std::to_string(table_values) + " values per metric, more than " +
                         (table_values > kCubeMaxTableValues
                              ? "the " + std::to_string(kCubeMaxTableValues) + " this reader holds in memory"
                              : "a " + std::to_string(bytes.size()) + "-byte file can store (" +
                                    std::to_string(stored_bound) + ")"));
  auto exclusive_of = [&](const char* uniq_name, std::vector<double>* inclusive_out) -> std::vector<double> {
    const CubeMetric* metric = FindMetric(profile, uniq_name);
    if (!metric) return {};
    std::vector<double> stored;
    try {
      stored = ReadStoredValues(members, *metric, metric->type == "INCLUSIVE" ? wide : depth_first, columns);
    } catch (const std::runtime_error& error) {
      throw InputError(path, 0, error.what());
    }
    if (stored.empty()) return {};
    for (double value : stored)
      if (value < 0) throw InputError(path, 0, std::string("metric '") + uniq_name + "' has a negative value");
    bool inclusive = metric->type == "INCLUSIVE";
    std::vector<double> exclusive = inclusive ? ToExclusive(profile, stored, columns) : stored;
    if (inclusive_out) *inclusive_out = inclusive ? std::move(stored) : ToInclusive(profile, stored, columns);
    // Inclusive minus children leaves rounding noise; beyond that the file contradicts itself.
    for (double& value : exclusive) {
      if (value < -1e-6) throw InputError(path, 0, std::string("metric '") + uniq_name + "': a child's inclusive value exceeds its parent's");
      value = std::max(value, 0.0);
    }
    return exclusive;
  };
  profile.exclusive_time = exclusive_of("time", &profile.inclusive_time);
  if (profile.exclusive_time.empty()) throw InputError(path, 0, "the profile has no data for the 'time' metric");
  profile.exclusive_visits = exclusive_of("visits", nullptr);
  profile.exclusive_bytes_sent = exclusive_of("bytes_sent", nullptr);
  profile.exclusive_bytes_received = exclusive_of("bytes_received", nullptr);
  return profile;
}

RunStats CubeProfileToRunStats(const CubeProfile& profile) {
  const std::size_t columns = profile.locations.size();
  // Ranks: the processes' <rank> when they number 0..P-1, else their order.
  std::vector<int> rank_of_process = profile.process_ranks;
  {
    std::vector<int> sorted = rank_of_process;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t p = 0; p < sorted.size(); ++p)
      if (sorted[p] != static_cast<int>(p)) {
        std::iota(rank_of_process.begin(), rank_of_process.end(), 0);
        break;
      }
  }
  const std::size_t ranks = std::max<std::size_t>(rank_of_process.size(), 1);
  std::vector<int> rank_of_column(columns, 0);
  std::vector<int> threads(ranks, 0);
  for (std::size_t c = 0; c < columns; ++c) {
    int process = profile.locations[c].process;
    rank_of_column[c] = process >= 0 ? rank_of_process[static_cast<std::size_t>(process)] : 0;
    if (profile.locations[c].type == "thread" || profile.locations[c].type.empty()) ++threads[static_cast<std::size_t>(rank_of_column[c])];
  }

  RunStats run;
  run.procs = static_cast<int>(ranks);
  run.threads_per_proc = std::max(1, *std::max_element(threads.begin(), threads.end()));
  run.sources = {profile.path};
  run.tool_version = profile.creator;
  // Score-P >= 3 roots the call tree at an artificial region named after the program.
  for (const CubeCallNode& node : profile.call_nodes) {
    const CubeRegion& region = profile.regions[static_cast<std::size_t>(node.region)];
    if (node.parent < 0 && region.role == "artificial" && region.name != "PARALLEL" && region.name != "PAUSING" &&
        region.name.find(' ') == std::string::npos) {
      run.app = region.name;
      run.derivations["app"] = "cube: the program's root region (Score-P)";
      break;
    }
  }
  run.details["cube_call_paths"] = std::to_string(profile.call_nodes.size());
  run.details["cube_locations"] = std::to_string(columns);

  auto per_rank = [&](const std::vector<double>& values, std::size_t node, std::vector<double>* out) {
    const std::size_t row = static_cast<std::size_t>(profile.Row(node));
    for (std::size_t c = 0; c < columns; ++c) (*out)[static_cast<std::size_t>(rank_of_column[c])] += values[row * columns + c];
  };

  // App time: the inclusive time of all call-tree roots, per location; a
  // rank's time is its longest location (the master thread).
  run.app_time_s_per_rank.assign(ranks, 0.0);
  std::vector<std::size_t> root_rows;  // once, not per location: 100,000 locations x 20,000 call paths
  for (std::size_t n = 0; n < profile.call_nodes.size(); ++n)
    if (profile.call_nodes[n].parent < 0) root_rows.push_back(static_cast<std::size_t>(profile.Row(n)));
  for (std::size_t c = 0; c < columns; ++c) {
    double total = 0;
    for (std::size_t row : root_rows) total += profile.inclusive_time[row * columns + c];
    double& rank_time = run.app_time_s_per_rank[static_cast<std::size_t>(rank_of_column[c])];
    rank_time = std::max(rank_time, total);
  }

  run.mpi_time_s_per_rank.assign(ranks, 0.0);
  run.p2p_calls_per_rank.assign(ranks, 0.0);
  run.p2p_bytes_sent_per_rank.assign(ranks, 0.0);
  run.collective_calls_per_rank.assign(ranks, 0.0);
  run.collective_bytes_sent_per_rank.assign(ranks, 0.0);
  const bool have_visits = !profile.exclusive_visits.empty(), have_bytes = !profile.exclusive_bytes_sent.empty();
  double mpi_calls = 0, bytes_received = 0;
  for (std::size_t n = 0; n < profile.call_nodes.size(); ++n) {
    const CubeCallNode& node = profile.call_nodes[n];
    trace::Region region = RegionOf(profile, node);
    if (!region.is_mpi) continue;
    CallSiteStats site;
    site.id = static_cast<int>(node.id);
    site.mpi_function = region.name.rfind("MPI_", 0) == 0 ? region.name.substr(4) : region.name;
    site.source_location = CallPathOf(profile, n);
    site.activity = ClassifyMpiCall(region.name);
    site.time_s_per_rank.assign(ranks, 0.0);
    site.calls_per_rank.assign(ranks, 0.0);
    site.bytes_sent_per_rank.assign(ranks, 0.0);
    per_rank(profile.exclusive_time, n, &site.time_s_per_rank);
    if (have_visits) per_rank(profile.exclusive_visits, n, &site.calls_per_rank);
    if (have_bytes) per_rank(profile.exclusive_bytes_sent, n, &site.bytes_sent_per_rank);
    if (!profile.exclusive_bytes_received.empty())
      for (std::size_t c = 0; c < columns; ++c)
        bytes_received += profile.exclusive_bytes_received[static_cast<std::size_t>(profile.Row(n)) * columns + c];
    for (std::size_t r = 0; r < ranks; ++r) {
      run.mpi_time_s_per_rank[r] += site.time_s_per_rank[r];
      mpi_calls += site.calls_per_rank[r];
      if (SendsMessages(region.call_class, region.name)) run.p2p_calls_per_rank[r] += site.calls_per_rank[r];
      if (region.call_class == trace::CallClass::kCollective) {
        run.collective_calls_per_rank[r] += site.calls_per_rank[r];
        run.collective_bytes_sent_per_rank[r] += site.bytes_sent_per_rank[r];
      } else if (site.activity == MpiActivity::kPointToPoint) {
        run.p2p_bytes_sent_per_rank[r] += site.bytes_sent_per_rank[r];
      }
    }
    site.total_time_s = std::accumulate(site.time_s_per_rank.begin(), site.time_s_per_rank.end(), 0.0);
    site.total_calls = have_visits ? std::accumulate(site.calls_per_rank.begin(), site.calls_per_rank.end(), 0.0) : kUnknown;
    site.total_bytes_sent =
        have_bytes ? std::accumulate(site.bytes_sent_per_rank.begin(), site.bytes_sent_per_rank.end(), 0.0) : kUnknown;
    run.call_sites.push_back(std::move(site));
  }
  if (!have_visits) {
    run.p2p_calls_per_rank.clear();
    run.collective_calls_per_rank.clear();
  }
  if (!have_bytes) {
    run.p2p_bytes_sent_per_rank.clear();
    run.collective_bytes_sent_per_rank.clear();
  }
  if (have_visits) run.mpi_calls_per_rank = mpi_calls / static_cast<double>(ranks);
  if (!profile.exclusive_bytes_received.empty()) run.details["bytes_received_total"] = std::to_string(bytes_received);

  run.derivations["procs"] = "cube: location groups of type process in the system tree";
  run.SetNodes(profile.nodes, "cube: system-tree nodes of class 'node' holding the processes");
  run.derivations["threads_per_proc"] = "cube: most thread locations in one process";
  run.derivations["app_time_s_per_rank"] = "cube: inclusive 'time' of the call-tree roots, longest location of the rank";
  run.derivations["mpi_time_s_per_rank"] =
      "cube: exclusive 'time' of MPI call paths (paradigm mpi, or name MPI_* when unknown), summed over the rank's locations";
  run.derivations["p2p_calls_per_rank"] = "cube: 'visits' of MPI send call paths (Send, Isend, Bsend, Rsend, Ssend, Sendrecv, Start)";
  run.derivations["collective_calls_per_rank"] = "cube: 'visits' of MPI collective call paths incl. Barrier";
  run.derivations["p2p_bytes_sent_per_rank"] = "cube: 'bytes_sent' of point-to-point MPI call paths";
  run.derivations["collective_bytes_sent_per_rank"] = "cube: 'bytes_sent' of collective MPI call paths";
  run.derivations["call_sites"] = "cube: one per MPI call path; source_location = call path; exclusive time and visits";
  run.Derive();
  return run;
}

RunStats ReadCubeRunStats(std::string_view bytes, const std::string& path) {
  RunStats run = CubeProfileToRunStats(ParseCubeProfile(bytes, path, CubeValues::kRecordRows));
  // The same plausibility rules as every other reader (6e300 s, 3e-320 s after
  // a byte-swapped read, 0 s from an empty sparse index, inf bytes per message).
  RequirePlausibleRecord(run, path, 0);
  return run;
}

}  // namespace qnm
