// Caliper's .cali format (caliper_stream.h; docs/formats/caliper.md).
#include "caliper/caliper_stream.h"

#include <utility>

#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

// Caliper's bootstrap attribute nodes (caliperreader's MetadataDB; Caliper's MetadataTree).
constexpr std::uint64_t kNameAttribute = 8, kTypeAttribute = 9, kPropAttribute = 10;

// One line's fields: "__rec=ctx,ref=1=2,attr=3,data=x" -> {__rec: [ctx], ref: [1, 2], attr: [3], data: [x]}.
// A later key replaces an earlier one; '\' takes the next character as it is ("\n": a newline).
using Fields = std::vector<std::pair<std::string, std::vector<std::string>>>;

void SetField(std::vector<std::string> entry, Fields* fields) {
  std::string key = std::move(entry.front());
  entry.erase(entry.begin());
  for (auto& [name, values] : *fields)
    if (name == key) {
      values = std::move(entry);
      return;
    }
  fields->emplace_back(std::move(key), std::move(entry));
}

Fields SplitRecord(std::string_view line, const std::string& path, int line_number) {
  Fields fields;
  std::vector<std::string> entry;
  std::string text;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\\') {
      if (++i == line.size()) throw InputError(path, line_number, "the line ends in an escape character '\\'");
      text += line[i] == 'n' ? '\n' : line[i];
    } else if (c == ',') {
      entry.push_back(std::move(text));
      SetField(std::move(entry), &fields);
      text.clear();
      entry.clear();
    } else if (c == '=') {
      entry.push_back(std::move(text));
      text.clear();
    } else {
      text += c;
    }
  }
  // As caliperreader: a last field is kept when it has text after its last '='.
  if (!text.empty()) {
    entry.push_back(std::move(text));
    SetField(std::move(entry), &fields);
  }
  return fields;
}

const std::vector<std::string>* FieldOf(const Fields& fields, std::string_view key) {
  for (const auto& [name, values] : fields)
    if (name == key) return &values;
  return nullptr;
}

std::uint64_t NodeId(const std::string& text, const char* what, const std::string& path, int line) {
  const std::optional<long long> id = ParseInteger(text);
  if (!id || *id < 0) throw InputError(path, line, std::string(what) + " '" + text + "' is no node id");
  return static_cast<std::uint64_t>(*id);
}

std::uint64_t SingleId(const Fields& fields, const char* key, const std::string& path, int line) {
  const std::vector<std::string>* values = FieldOf(fields, key);
  if (values == nullptr || values->size() != 1)
    throw InputError(path, line, std::string("a node record needs one '") + key + "='");
  return NodeId(values->front(), key, path, line);
}

}  // namespace

const CaliperRecord::Value* CaliperRecord::FindValue(std::string_view name) const {
  for (const Value& value : values)
    if (value.attribute->name == name) return &value;
  return nullptr;
}

const std::string* CaliperRecord::Find(std::string_view name) const {
  const Value* value = FindValue(name);
  return value == nullptr ? nullptr : &value->values.back();
}

void CaliperStream::Bootstrap() {
  // caliperreader's MetadataDB: the type nodes 0..7 and 11 (attribute cali.attribute.type), and the
  // three attributes that describe attributes, under the types string, type and int.
  static const char* const kTypes[] = {"usr", "int", "uint", "string", "addr", "double", "bool", "type"};
  for (std::uint64_t id = 0; id < 8; ++id) nodes_[id] = Node{kTypeAttribute, kNoParent, kTypes[id]};
  nodes_[11] = Node{kTypeAttribute, kNoParent, "ptr"};
  nodes_[kNameAttribute] = Node{kNameAttribute, 3, "cali.attribute.name"};
  nodes_[kTypeAttribute] = Node{kNameAttribute, 7, "cali.attribute.type"};
  nodes_[kPropAttribute] = Node{kNameAttribute, 1, "cali.attribute.prop"};
  for (std::uint64_t id : {kNameAttribute, kTypeAttribute, kPropAttribute}) {
    CaliperAttribute& attribute = attributes_[id];
    attribute.node_id = id;
    attribute.name = nodes_[id].data;
    attribute.type = nodes_[nodes_[id].parent].data;
    attribute_by_name_[attribute.name] = id;
  }
}

void CaliperStream::AddNode(std::uint64_t id, std::uint64_t attribute, std::string data, std::uint64_t parent,
                            int line) {
  if (nodes_.count(id)) throw InputError(path_, line, "node " + std::to_string(id) + " is defined twice");
  if (parent != kNoParent && !nodes_.count(parent))
    throw InputError(path_, line, "node " + std::to_string(id) + " names parent " + std::to_string(parent) +
                                      ", which no earlier record defines");
  if (!attributes_.count(attribute))
    throw InputError(path_, line, "node " + std::to_string(id) + " has attribute " + std::to_string(attribute) +
                                      ", which no earlier record defines as an attribute");
  Node& node = nodes_[id] = Node{attribute, parent, std::move(data)};
  if (attribute != kNameAttribute) return;
  // An attribute definition: its type and properties are the nearest type and prop nodes above it.
  CaliperAttribute defined;
  defined.node_id = id;
  defined.name = node.data;
  bool have_properties = false;
  for (std::uint64_t at = parent; at != kNoParent; at = nodes_.at(at).parent) {
    const Node& above = nodes_.at(at);
    if (above.attribute == kPropAttribute && !have_properties) {
      have_properties = true;
      const std::optional<long long> properties = ParseInteger(above.data);
      if (!properties) throw InputError(path_, line, "attribute properties '" + above.data + "' are no integer");
      defined.properties = *properties;
    } else if (above.attribute == kTypeAttribute && defined.type.empty()) {
      defined.type = above.data;
    }
  }
  attribute_by_name_[defined.name] = id;
  attributes_[id] = std::move(defined);
}

const CaliperAttribute& CaliperStream::AttributeOfNode(std::uint64_t attribute_node, int line) const {
  const auto it = attributes_.find(attribute_node);
  if (it == attributes_.end())
    throw InputError(path_, line, "node " + std::to_string(attribute_node) + " is used as an attribute but defines none");
  return it->second;
}

const CaliperAttribute* CaliperStream::FindAttribute(std::string_view name) const {
  const auto it = attribute_by_name_.find(std::string(name));
  return it == attribute_by_name_.end() ? nullptr : &attributes_.at(it->second);
}

const std::string* CaliperStream::AttributeMetadata(const CaliperAttribute& attribute, std::string_view key) const {
  const CaliperAttribute* meta = FindAttribute(key);
  if (meta == nullptr) return nullptr;
  for (std::uint64_t at = attribute.node_id; at != kNoParent; at = nodes_.at(at).parent) {
    const Node& node = nodes_.at(at);
    if (node.attribute == meta->node_id) return &node.data;
  }
  return nullptr;
}

void CaliperStream::Expand(const std::vector<std::string>& refs, const std::vector<std::string>& attrs,
                           const std::vector<std::string>& data, int line, CaliperRecord* record) const {
  record->values.clear();
  record->path.clear();
  record->line = line;
  auto set = [&](const CaliperAttribute* attribute, std::vector<std::string> values) {
    for (CaliperRecord::Value& value : record->values)
      if (value.attribute == attribute) {
        value.values = std::move(values);
        return;
      }
    record->values.push_back({attribute, std::move(values)});
  };
  std::vector<const Node*> chain;
  std::vector<std::pair<const CaliperAttribute*, std::vector<std::string>>> expanded;
  std::vector<std::pair<const CaliperAttribute*, std::string>> path;
  for (const std::string& ref : refs) {
    const std::uint64_t id = NodeId(ref, "ref", path_, line);
    const auto found = nodes_.find(id);
    if (found == nodes_.end())
      throw InputError(path_, line, "the record refers to node " + ref + ", which no earlier record defines");
    chain.clear();
    for (std::uint64_t at = id; at != kNoParent; at = nodes_.at(at).parent) {
      chain.push_back(&nodes_.at(at));
      if (chain.size() > nodes_.size()) throw InputError(path_, line, "node " + ref + " is its own ancestor");
    }
    expanded.clear();
    path.clear();
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const CaliperAttribute& attribute = AttributeOfNode((*it)->attribute, line);
      if (attribute.Hidden()) continue;
      bool listed = false;
      for (auto& [seen, values] : expanded)
        if (seen == &attribute) {
          values.push_back((*it)->data);
          listed = true;
        }
      if (!listed) expanded.push_back({&attribute, {(*it)->data}});
      if (attribute.Nested()) path.emplace_back(&attribute, (*it)->data);
    }
    for (auto& [attribute, values] : expanded) set(attribute, std::move(values));
    if (!path.empty()) record->path = std::move(path);  // caliperreader: the reference's "path" replaces
  }
  if (attrs.size() != data.size())
    throw InputError(path_, line, "the record lists " + std::to_string(attrs.size()) + " attributes and " +
                                      std::to_string(data.size()) + " values");
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    const CaliperAttribute& attribute = AttributeOfNode(NodeId(attrs[i], "attr", path_, line), line);
    if (!attribute.Hidden()) set(&attribute, {data[i]});
  }
}

void CaliperStream::Read(std::string_view text, const std::string& path,
                         const std::function<void(const CaliperRecord&)>& on_snapshot) {
  LineReader lines(text);
  Read(lines, path, on_snapshot);
}

void CaliperStream::Read(LineReader& lines, const std::string& path,
                         const std::function<void(const CaliperRecord&)>& on_snapshot) {
  path_ = path;
  nodes_.clear();
  attributes_.clear();
  attribute_by_name_.clear();
  globals_ = CaliperRecord{};
  Bootstrap();
  static const std::vector<std::string> kNone;
  CaliperRecord record;
  std::string_view raw;
  while (lines.Next(&raw)) {
    const int line_number = lines.ErrorLine();
    const std::string_view line = Trim(raw);
    if (line.empty()) continue;
    const Fields fields = SplitRecord(line, path, line_number);
    const std::vector<std::string>* kind = FieldOf(fields, "__rec");
    if (kind == nullptr || kind->empty())
      throw InputError(path, line_number, "a line without '__rec=': not a Caliper .cali record");
    const std::string& what = kind->front();
    if (what == "node") {
      const std::vector<std::string>* data = FieldOf(fields, "data");
      const std::vector<std::string>* parent = FieldOf(fields, "parent");
      AddNode(SingleId(fields, "id", path, line_number), SingleId(fields, "attr", path, line_number),
              data == nullptr || data->empty() ? std::string() : data->front(),
              parent == nullptr ? kNoParent : SingleId(fields, "parent", path, line_number), line_number);
      continue;
    }
    if (what != "ctx" && what != "globals") continue;  // other kinds: caliperreader passes them by
    const std::vector<std::string>* refs = FieldOf(fields, "ref");
    const std::vector<std::string>* attrs = FieldOf(fields, "attr");
    const std::vector<std::string>* data = FieldOf(fields, "data");
    // caliperreader reads inline values only when both lists are there.
    const bool inline_values = attrs != nullptr && data != nullptr;
    Expand(refs ? *refs : kNone, inline_values ? *attrs : kNone, inline_values ? *data : kNone, line_number,
           what == "ctx" ? &record : &globals_);
    if (what == "ctx") on_snapshot(record);
  }
}

}  // namespace qnm
