#pragma once
// A record's per-rank values (RunStats::app_time_s_per_rank, ...): a
// std::vector<double> that costs one pointer while it is empty. A table row
// or an Extra-P repetition has no per-rank data, and eight empty vectors were
// 192 of a record's 880 bytes - a fifth of a million-row table (issue 19,
// memory per record). Reads as a const std::vector<double>& (it converts
// implicitly, so Mean(run.mpi_time_s_per_rank) works as before); writes
// through the usual vector calls, which allocate the vector on first use.
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <vector>

namespace qnm {

class RankValues {
 public:
  using Vector = std::vector<double>;
  using value_type = double;
  using size_type = std::size_t;
  using iterator = Vector::iterator;
  using const_iterator = Vector::const_iterator;

  RankValues() = default;
  RankValues(Vector values) { *this = std::move(values); }  // NOLINT: implicit, as a std::vector converts
  RankValues(std::initializer_list<double> values) : RankValues(Vector(values)) {}
  RankValues(const RankValues& other) : values_(other.empty() ? nullptr : std::make_unique<Vector>(*other.values_)) {}
  RankValues(RankValues&&) noexcept = default;
  RankValues& operator=(const RankValues& other) {
    if (this != &other) values_ = other.empty() ? nullptr : std::make_unique<Vector>(*other.values_);
    return *this;
  }
  RankValues& operator=(RankValues&&) noexcept = default;
  RankValues& operator=(std::initializer_list<double> values) { return *this = Vector(values); }
  RankValues& operator=(Vector values) {
    values_ = values.empty() ? nullptr : std::make_unique<Vector>(std::move(values));
    return *this;
  }

  /// The values as a vector (an empty one when there are none).
  const Vector& vector() const { return values_ ? *values_ : Empty(); }
  operator const Vector&() const { return vector(); }  // NOLINT: for code that takes a vector
  /// The vector itself, allocated when absent, for code that fills one in place.
  Vector& Mutable() { return Own(); }

  bool empty() const { return !values_ || values_->empty(); }
  size_type size() const { return values_ ? values_->size() : 0; }
  const double& operator[](size_type i) const { return (*values_)[i]; }
  double& operator[](size_type i) { return (*values_)[i]; }
  const double& at(size_type i) const { return vector().at(i); }
  double& at(size_type i) { return Own().at(i); }
  const double& front() const { return values_->front(); }
  const double& back() const { return values_->back(); }
  const double* data() const { return values_ ? values_->data() : nullptr; }
  // Iterators of an absent vector are those of a shared empty one (never written: it is empty).
  const_iterator begin() const { return vector().begin(); }
  const_iterator end() const { return vector().end(); }
  iterator begin() { return values_ ? values_->begin() : MutableEmpty().begin(); }
  iterator end() { return values_ ? values_->end() : MutableEmpty().end(); }

  void push_back(double value) { Own().push_back(value); }
  void resize(size_type n, double value = 0.0) {
    if (n == 0) clear();
    else Own().resize(n, value);
  }
  void assign(size_type n, double value) {
    if (n == 0) clear();
    else Own().assign(n, value);
  }
  template <typename It>
  void assign(It first, It last) {
    Own().assign(first, last);
  }
  void reserve(size_type n) {
    if (n > 0) Own().reserve(n);
  }
  void clear() { values_.reset(); }

  bool operator==(const RankValues& other) const { return vector() == other.vector(); }
  bool operator!=(const RankValues& other) const { return !(*this == other); }
  bool operator==(const Vector& other) const { return vector() == other; }
  bool operator!=(const Vector& other) const { return vector() != other; }

 private:
  static const Vector& Empty() {
    static const Vector kEmpty;
    return kEmpty;
  }
  static Vector& MutableEmpty() {
    static Vector empty;
    return empty;
  }
  Vector& Own() {
    if (!values_) values_ = std::make_unique<Vector>();
    return *values_;
  }

  std::unique_ptr<Vector> values_;  // null = no values
};

}  // namespace qnm
