#pragma once
// A record's identity text (RunStats::app, ::machine, ...): one pointer, null
// while empty, shared between copies. A statistics table of a million rows
// leaves most of the twelve identity texts empty and repeats the rest on
// every row: as std::string they were 32 bytes each (384 bytes of a 688-byte
// record, issue 19, memory per record); here an empty text is 8 bytes and a
// repeated one is a single block that the rows point to (a reader shares it
// with ShareWith). Reading is as with a const std::string (the conversion
// gives the text itself); writing (=, +=, clear) replaces the pointer, so a
// copy never sees another copy's change.
#include <atomic>
#include <cstddef>
#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <utility>

namespace qnm {

class SharedText {
 public:
  static constexpr std::size_t npos = std::string::npos;

  SharedText() = default;
  SharedText(const std::string& text) : block_(Make(text)) {}   // NOLINT: implicit, as std::string converts
  SharedText(std::string&& text) : block_(Make(std::move(text))) {}  // NOLINT
  SharedText(const char* text) : block_(Make(std::string(text))) {}  // NOLINT
  SharedText(const SharedText& other) noexcept : block_(other.block_) { Retain(); }
  SharedText(SharedText&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
  SharedText& operator=(const SharedText& other) noexcept {
    if (block_ != other.block_) {
      Release();
      block_ = other.block_;
      Retain();
    }
    return *this;
  }
  SharedText& operator=(SharedText&& other) noexcept {
    if (this != &other) {
      Release();
      block_ = std::exchange(other.block_, nullptr);
    }
    return *this;
  }
  SharedText& operator=(const std::string& text) { return *this = SharedText(text); }
  SharedText& operator=(std::string&& text) { return *this = SharedText(std::move(text)); }
  SharedText& operator=(const char* text) { return *this = SharedText(text); }
  ~SharedText() { Release(); }

  const std::string& str() const { return block_ ? block_->text : Empty(); }
  operator const std::string&() const { return str(); }  // NOLINT: for code that takes a std::string
  const char* c_str() const { return str().c_str(); }
  const char* data() const { return str().data(); }
  bool empty() const { return !block_; }
  std::size_t size() const { return str().size(); }
  std::size_t length() const { return str().size(); }
  char operator[](std::size_t i) const { return str()[i]; }
  char front() const { return str().front(); }
  char back() const { return str().back(); }
  std::string::const_iterator begin() const { return str().begin(); }
  std::string::const_iterator end() const { return str().end(); }
  template <typename... Args>
  std::size_t find(Args&&... args) const { return str().find(std::forward<Args>(args)...); }
  template <typename... Args>
  std::size_t rfind(Args&&... args) const { return str().rfind(std::forward<Args>(args)...); }
  template <typename... Args>
  std::size_t find_first_of(Args&&... args) const { return str().find_first_of(std::forward<Args>(args)...); }
  template <typename... Args>
  int compare(Args&&... args) const { return str().compare(std::forward<Args>(args)...); }
  std::string substr(std::size_t pos = 0, std::size_t count = npos) const { return str().substr(pos, count); }

  void clear() { Release(); block_ = nullptr; }
  SharedText& operator+=(const std::string& more) { return *this = str() + more; }
  SharedText& operator+=(const char* more) { return *this = str() + more; }
  SharedText& operator+=(char more) { return *this = str() + more; }

  /// Makes this text share the block of an equal text seen before by `pool`
  /// (a reader's pool of the texts of one file, e.g. std::set<SharedText>),
  /// or adds it there.
  template <typename Pool>
  void ShareWith(Pool* pool) {
    if (!block_) return;
    auto it = pool->insert(*this).first;
    *this = *it;
  }

 private:
  struct Block {
    explicit Block(std::string value) : text(std::move(value)) {}
    std::atomic<unsigned> references{1};
    std::string text;
  };
  static Block* Make(std::string text) { return text.empty() ? nullptr : new Block(std::move(text)); }
  static const std::string& Empty() {
    static const std::string kEmpty;
    return kEmpty;
  }
  void Retain() const {
    if (block_) block_->references.fetch_add(1, std::memory_order_relaxed);
  }
  void Release() {
    if (block_ && block_->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete block_;
  }

  Block* block_ = nullptr;
};

inline bool operator==(const SharedText& a, const SharedText& b) { return a.str() == b.str(); }
inline bool operator==(const SharedText& a, const std::string& b) { return a.str() == b; }
inline bool operator==(const std::string& a, const SharedText& b) { return a == b.str(); }
inline bool operator==(const SharedText& a, const char* b) { return a.str() == b; }
inline bool operator==(const char* a, const SharedText& b) { return a == b.str(); }
inline bool operator!=(const SharedText& a, const SharedText& b) { return !(a == b); }
inline bool operator!=(const SharedText& a, const std::string& b) { return !(a == b); }
inline bool operator!=(const std::string& a, const SharedText& b) { return !(a == b); }
inline bool operator!=(const SharedText& a, const char* b) { return !(a == b); }
inline bool operator!=(const char* a, const SharedText& b) { return !(a == b); }
inline bool operator<(const SharedText& a, const SharedText& b) { return a.str() < b.str(); }
inline bool operator<(const SharedText& a, const std::string& b) { return a.str() < b; }
inline bool operator<(const std::string& a, const SharedText& b) { return a < b.str(); }
inline bool operator>(const SharedText& a, const SharedText& b) { return b < a; }
inline bool operator<=(const SharedText& a, const SharedText& b) { return !(b < a); }
inline bool operator>=(const SharedText& a, const SharedText& b) { return !(a < b); }

inline std::string operator+(const SharedText& a, const SharedText& b) { return a.str() + b.str(); }
inline std::string operator+(const SharedText& a, const std::string& b) { return a.str() + b; }
inline std::string operator+(const std::string& a, const SharedText& b) { return a + b.str(); }
inline std::string operator+(std::string&& a, const SharedText& b) { return std::move(a) + b.str(); }
inline std::string operator+(const SharedText& a, const char* b) { return a.str() + b; }
inline std::string operator+(const char* a, const SharedText& b) { return a + b.str(); }
inline std::string operator+(const SharedText& a, char b) { return a.str() + b; }
inline std::string operator+(char a, const SharedText& b) { return a + b.str(); }

/// The texts of one reader's records, for SharedText::ShareWith.
using SharedTextPool = std::set<SharedText>;

inline std::ostream& operator<<(std::ostream& out, const SharedText& text) { return out << text.str(); }

}  // namespace qnm

template <>
struct std::hash<qnm::SharedText> {
  std::size_t operator()(const qnm::SharedText& text) const { return std::hash<std::string>()(text.str()); }
};
