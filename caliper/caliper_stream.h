#pragma once
// Caliper's native .cali format (github.com/LLNL/Caliper; docs/formats/caliper.md):
// one record per line, "__rec=<kind>,<key>=<value>[=<value>...],...", with '\'
// escaping the next character ("\n" a newline). "node" records build Caliper's
// metadata tree (attribute definitions, region names, global values), "ctx"
// records are the snapshots (a region and its metrics: nodes referenced by
// "ref", values given inline by "attr"/"data"), "globals" the run's metadata.
//
// A record is expanded as Caliper's own Python reader (caliperreader, the
// reader Hatchet and Thicket use) expands it: each referenced node with its
// ancestors, root first, hidden attributes left out, an attribute met twice on
// one chain becoming a list, the values of nested (region) attributes making
// the record's path; a later reference and the inline values replace earlier
// values of the same attribute. Where caliperreader would read on silently
// past damage (a parent node not yet defined, a node defined twice, more
// attributes than values), this reader stops with one line naming the file
// and line.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "textio/line_reader.h"

namespace qnm {

/// A Caliper attribute: a node of the metadata tree whose attribute is
/// cali.attribute.name (node 8), its name the node's data.
struct CaliperAttribute {
  // Property bits (Caliper's cali_attr_properties).
  static constexpr long long kAsValue = 1, kHidden = 128, kNested = 256, kGlobal = 512;
  std::uint64_t node_id = 0;
  std::string name;
  std::string type;         // "string", "double", "int", "uint", ... (the type node above it)
  long long properties = 0;  // from the cali.attribute.prop node above it, 0 without one
  bool Hidden() const { return (properties & kHidden) != 0; }
  bool Nested() const { return (properties & kNested) != 0; }
  bool Global() const { return (properties & kGlobal) != 0; }
};

/// One expanded snapshot or globals record.
struct CaliperRecord {
  struct Value {
    const CaliperAttribute* attribute = nullptr;
    std::vector<std::string> values;  // one, or several when the attribute repeats on a node chain
  };
  std::vector<Value> values;  // in caliperreader's order of first appearance
  // The nested (region) attributes' values, root first, with their attributes.
  std::vector<std::pair<const CaliperAttribute*, std::string>> path;
  int line = 0;  // 1-based line of the record in its file

  /// The value of attribute `name` (the last, when it is a list), or nullptr.
  const std::string* Find(std::string_view name) const;
  const Value* FindValue(std::string_view name) const;
};

class CaliperStream {
 public:
  /// Reads `text` (the file `path`, named in errors) line by line, calling
  /// `on_snapshot` with each expanded "ctx" record as it is met; the globals are
  /// kept (the last "globals" record's, as caliperreader keeps them).
  /// Throws InputError(path, line, why) on damage.
  void Read(std::string_view text, const std::string& path,
            const std::function<void(const CaliperRecord&)>& on_snapshot);
  /// The same for the lines of a file as it streams by (line_reader.h).
  void Read(LineReader& lines, const std::string& path,
            const std::function<void(const CaliperRecord&)>& on_snapshot);

  const CaliperRecord& globals() const { return globals_; }
  bool has_globals() const { return globals_.line > 0; }
  /// The attribute named `name`, or nullptr.
  const CaliperAttribute* FindAttribute(std::string_view name) const;
  /// The value of metadata attribute `key` on attribute `attribute`'s node
  /// chain ("attribute.unit", "time.unit"), or nullptr (caliperreader's Attribute.get).
  const std::string* AttributeMetadata(const CaliperAttribute& attribute, std::string_view key) const;
  std::size_t node_count() const { return nodes_.size(); }

 private:
  struct Node {
    std::uint64_t attribute = 0;
    std::uint64_t parent = kNoParent;
    std::string data;
  };
  static constexpr std::uint64_t kNoParent = ~std::uint64_t{0};

  void Bootstrap();
  void AddNode(std::uint64_t id, std::uint64_t attribute, std::string data, std::uint64_t parent, int line);
  const CaliperAttribute& AttributeOfNode(std::uint64_t attribute_node, int line) const;
  void Expand(const std::vector<std::string>& refs, const std::vector<std::string>& attrs,
              const std::vector<std::string>& data, int line, CaliperRecord* record) const;

  std::string path_;
  std::unordered_map<std::uint64_t, Node> nodes_;
  // Attributes by node id; node-stable storage (records point into it).
  std::unordered_map<std::uint64_t, CaliperAttribute> attributes_;
  std::unordered_map<std::string, std::uint64_t> attribute_by_name_;
  CaliperRecord globals_;
};

}  // namespace qnm
