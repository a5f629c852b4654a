#pragma once
// A record's small text-to-text maps (RunStats::derivations and ::details),
// shared between records until one of them changes it. A statistics table of
// a million rows says the same "statistics table column time_s" a million
// times: as one std::map per record that was ~250 bytes per row (issue 19,
// memory per record); shared, it is one map for the table. Reading is as with
// std::map; writing (operator[], emplace, erase) copies the map first when
// another record shares it (copy on write).
#include <cstddef>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace qnm {

class TextMap {
 public:
  using Map = std::map<std::string, std::string>;
  using value_type = Map::value_type;
  using const_iterator = Map::const_iterator;
  using iterator = Map::const_iterator;  // entries change through operator[] only

  TextMap() = default;
  TextMap(Map map) { *this = std::move(map); }  // NOLINT: implicit, as a std::map converts
  TextMap(std::initializer_list<value_type> entries) : TextMap(Map(entries)) {}
  TextMap& operator=(Map map) {
    map_ = map.empty() ? nullptr : std::make_shared<Map>(std::move(map));
    return *this;
  }

  const_iterator begin() const { return View().begin(); }
  const_iterator end() const { return View().end(); }
  const_iterator find(const std::string& key) const { return View().find(key); }
  std::size_t count(const std::string& key) const { return map_ ? map_->count(key) : 0; }
  bool empty() const { return !map_ || map_->empty(); }
  std::size_t size() const { return map_ ? map_->size() : 0; }
  const std::string& at(const std::string& key) const { return View().at(key); }
  const Map& map() const { return View(); }
  operator const Map&() const { return View(); }  // NOLINT: for code that takes a std::map

  /// The value of `key` for writing (inserted empty when absent).
  std::string& operator[](const std::string& key) { return Own()[key]; }
  /// Inserts (key, value) when `key` is absent; as std::map::emplace.
  template <typename K, typename V>
  std::pair<const_iterator, bool> emplace(K&& key, V&& value) {
    std::string name(std::forward<K>(key));
    if (map_) {
      auto found = map_->find(name);
      if (found != map_->end()) return {found, false};
    }
    return Own().emplace(std::move(name), std::forward<V>(value));
  }
  std::size_t erase(const std::string& key) { return count(key) ? Own().erase(key) : 0; }
  void clear() { map_.reset(); }

  bool operator==(const TextMap& other) const { return map_ == other.map_ || View() == other.View(); }
  bool operator!=(const TextMap& other) const { return !(*this == other); }

  /// Makes this map share the storage of an equal map seen before by `pool`
  /// (a reader's pool of the maps of one file), or adds it there.
  template <typename Pool>
  void ShareWith(Pool* pool) {
    if (!map_) return;
    auto [it, added] = pool->emplace(*map_, map_);
    if (!added) map_ = it->second;
  }

 private:
  const Map& View() const {
    static const Map kEmpty;
    return map_ ? *map_ : kEmpty;
  }
  Map& Own() {
    if (!map_) map_ = std::make_shared<Map>();
    else if (map_.use_count() > 1) map_ = std::make_shared<Map>(*map_);
    return *map_;
  }

  std::shared_ptr<Map> map_;  // null = empty
};

/// The maps of one reader's records, for TextMap::ShareWith.
using TextMapPool = std::map<TextMap::Map, std::shared_ptr<TextMap::Map>>;

}  // namespace qnm
