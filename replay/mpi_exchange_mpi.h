#pragma once
// The three data movements of the parallel replay (Geimer et al. 2009, §3.3) as
// typed helpers over MPI: records keyed by destination process (Alltoallv),
// small tables every process needs (Allgatherv), and byte buffers.
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace qnm::trace::mpi {

inline int Rank(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}
inline int Size(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

/// Counts in bytes for MPI (int), refusing blocks of 2 GiB or more.
inline int ByteCount(std::size_t bytes) {
  if (bytes > 0x7FFFFFFFu) throw std::runtime_error("replay exchange block exceeds 2 GiB");
  return static_cast<int>(bytes);
}

/// Sends elements [sum(counts[0..q)), +counts[q]) of `sorted` (grouped by
/// destination) to process q. Returns what every process sent here, in
/// ascending process order (so records stay in ascending rank order), and
/// the element count from each process in `received_counts`.
template <typename T, typename Vector>
Vector Exchange(const Vector& sorted, const std::vector<std::size_t>& counts,
                std::vector<std::size_t>* received_counts, MPI_Comm comm) {
  static_assert(std::is_trivially_copyable<T>::value, "records are sent as bytes");
  const int size = Size(comm);
  std::vector<int> send_bytes(size), send_displs(size), recv_bytes(size), recv_displs(size);
  std::size_t total = 0;
  for (int q = 0; q < size; ++q) {
    send_bytes[q] = ByteCount(counts[q] * sizeof(T));
    send_displs[q] = ByteCount(total);
    total += counts[q] * sizeof(T);
  }
  MPI_Alltoall(send_bytes.data(), 1, MPI_INT, recv_bytes.data(), 1, MPI_INT, comm);
  total = 0;
  received_counts->resize(size);
  for (int q = 0; q < size; ++q) {
    recv_displs[q] = ByteCount(total);
    total += recv_bytes[q];
    (*received_counts)[q] = recv_bytes[q] / sizeof(T);
  }
  Vector received(total / sizeof(T));
  MPI_Alltoallv(sorted.data(), send_bytes.data(), send_displs.data(), MPI_BYTE, received.data(),
                recv_bytes.data(), recv_displs.data(), MPI_BYTE, comm);
  return received;
}

/// Every process's byte buffer, on every process, in process order.
inline std::vector<std::vector<char>> AllGather(const std::vector<char>& mine, MPI_Comm comm) {
  const int size = Size(comm);
  int count = ByteCount(mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  std::size_t total = 0;
  for (int q = 0; q < size; ++q) {
    displs[q] = ByteCount(total);
    total += counts[q];
  }
  std::vector<char> all(total);
  MPI_Allgatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, comm);
  std::vector<std::vector<char>> out(size);
  for (int q = 0; q < size; ++q) out[q].assign(all.begin() + displs[q], all.begin() + displs[q] + counts[q]);
  return out;
}

/// Every process's byte buffer on process 0 only (empty elsewhere).
inline std::vector<std::vector<char>> GatherToZero(const std::vector<char>& mine, MPI_Comm comm) {
  const int size = Size(comm);
  const bool root = Rank(comm) == 0;
  int count = ByteCount(mine.size());
  std::vector<int> counts(root ? size : 0), displs(root ? size : 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::size_t total = 0;
  for (int q = 0; root && q < size; ++q) {
    displs[q] = ByteCount(total);
    total += counts[q];
  }
  std::vector<char> all(total);
  MPI_Gatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0, comm);
  std::vector<std::vector<char>> out(root ? size : 0);
  for (int q = 0; root && q < size; ++q)
    out[q].assign(all.begin() + displs[q], all.begin() + displs[q] + counts[q]);
  return out;
}

/// Appends trivially copyable values and vectors to a byte buffer.
class Packer {
 public:
  template <typename T>
  void Put(const T& value) {
    static_assert(std::is_trivially_copyable<T>::value, "packed as bytes");
    const char* p = reinterpret_cast<const char*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <typename Vector>
  void PutVector(const Vector& values) {
    using T = typename Vector::value_type;
    static_assert(std::is_trivially_copyable<T>::value, "packed as bytes");
    Put<uint64_t>(values.size());
    const char* p = reinterpret_cast<const char*>(values.data());
    bytes_.insert(bytes_.end(), p, p + values.size() * sizeof(T));
  }
  void PutString(const std::string& text) { PutVector(text); }
  std::vector<char>& bytes() { return bytes_; }

 private:
  std::vector<char> bytes_;
};

/// Reads back what a Packer wrote, in the same order.
class Unpacker {
 public:
  explicit Unpacker(const std::vector<char>& bytes) : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}
  template <typename T>
  T Get() {
    T value;
    Take(&value, sizeof(T));
    return value;
  }
  template <typename Vector>
  Vector GetVector() {
    uint64_t n = Get<uint64_t>();
    using T = typename Vector::value_type;
    if (n > static_cast<uint64_t>(end_ - p_) / sizeof(T)) throw std::runtime_error("short replay buffer");
    Vector values;
    values.resize(n);
    Take(values.data(), n * sizeof(T));
    return values;
  }
  std::string GetString() { return GetVector<std::string>(); }
  bool Done() const { return p_ == end_; }

 private:
  void Take(void* out, std::size_t n) {
    if (n > static_cast<std::size_t>(end_ - p_)) throw std::runtime_error("short replay buffer");
    if (n) std::memcpy(out, p_, n);
    p_ += n;
  }
  const char* p_;
  const char* end_;
};

}  // namespace qnm::trace::mpi
