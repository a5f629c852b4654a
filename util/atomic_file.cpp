#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>

#include "util/input_error.h"
#include "util/temp_registry.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void Fail(const std::string& path, const std::string& what, int error_number) {
  throw InputError(path, 0, what + ": " + std::strerror(error_number));
}

/// Writes all of `contents` to `fd`; false with errno set on failure.
bool WriteAll(int fd, std::string_view contents) {
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) {
      errno = EIO;
      return false;
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string DirectoryOf(const std::string& path) {
  std::string parent = fs::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

}  // namespace

std::string ResolveOutputPath(const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {  // Linux's own limit (MAXSYMLINKS)
    struct stat st;
    if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return current;
    char buffer[PATH_MAX];
    ssize_t n = ::readlink(current.c_str(), buffer, sizeof buffer - 1);
    if (n < 0) Fail(path, "cannot read symbolic link", errno);
    std::string target(buffer, static_cast<std::size_t>(n));
    if (target.empty()) throw InputError(path, 0, "empty symbolic link");
    if (target.front() != '/') target = (fs::path(DirectoryOf(current)) / target).string();
    current = target;
  }
  throw InputError(path, 0, "too many levels of symbolic links (a link loop?)");
}

OutputStream::OutputStream(std::string path, std::size_t buffer_bytes)
    : path_(std::move(path)), buffer_bytes_(buffer_bytes) {}

OutputStream::~OutputStream() { Discard(); }

void OutputStream::Discard() noexcept {
  if (fd_ >= 0 && fd_ != STDOUT_FILENO) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty() && !committed_) {
    ::unlink(temp_.c_str());
    UnregisterTemp(slot_);
    temp_.clear();
  }
}

void OutputStream::Open() {
  opened_ = true;
  if (path_.empty() || path_ == "-") {
    FlushStandardOutput();  // keep anything printed earlier in order
    fd_ = STDOUT_FILENO;
    return;
  }
  target_ = ResolveOutputPath(path_);
  mode_t mode = 0644;  // nothing there yet
  struct stat st;
  if (::lstat(target_.c_str(), &st) != 0) {
    if (errno != ENOENT) Fail(path_, "cannot write", errno);
  } else if (S_ISDIR(st.st_mode)) {
    throw InputError(path_, 0, "cannot write: is a directory");
  } else if (S_ISREG(st.st_mode)) {
    mode = st.st_mode & 07777;  // a replaced file keeps its mode
  } else {  // FIFO, character or block device, socket: written in place, never replaced
    fd_ = ::open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) Fail(path_, "cannot write", errno);
    return;
  }
  // A fresh name created with O_EXCL: the file removed on failure or signal
  // is one this process created, never something found beside the target.
  std::string temp;
  for (int attempt = 0; attempt < 16 && fd_ < 0; ++attempt) {
    temp = TempFileFor(target_);
    fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd_ < 0 && errno != EEXIST) break;
  }
  if (fd_ < 0) Fail(path_, "cannot write", errno);
  temp_ = temp;
  slot_ = RegisterTemp(temp_, TempKind::kFile);
  ::fchmod(fd_, mode);  // not narrowed by the umask
}

void OutputStream::WriteNow(std::string_view text) {
  if (!opened_) Open();
  const bool to_stdout = fd_ == STDOUT_FILENO;
  if (!WriteAll(fd_, text)) {
    const int saved = errno;
    Discard();
    Fail(to_stdout ? "standard output" : path_, "cannot write", saved);
  }
}

void OutputStream::Flush() {
  if (buffer_.empty()) return;
  WriteNow(buffer_);
  buffer_.clear();
}

void OutputStream::Write(std::string_view text) {
  if (committed_) throw InputError(path_, 0, "written after it was committed");
  if (buffer_.size() + text.size() <= buffer_bytes_) {
    // Grown once to the full buffer past 1 MiB: doubling would reach twice the buffer.
    if (buffer_.size() + text.size() > buffer_.capacity() && buffer_.capacity() >= (1u << 20))
      buffer_.reserve(buffer_bytes_);
    buffer_.append(text);
    return;
  }
  Flush();
  if (text.size() <= buffer_bytes_) {
    buffer_.append(text);
    return;
  }
  WriteNow(text);
}

void OutputStream::Commit() {
  if (!opened_) Open();  // an empty output still replaces the target
  Flush();
  if (fd_ == STDOUT_FILENO) {
    committed_ = true;
    fd_ = -1;
    return;
  }
  auto fail = [&](int error_number) {
    Discard();
    Fail(path_, "cannot write", error_number);
  };
  if (!temp_.empty() && ::fsync(fd_) != 0) fail(errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(errno);
  if (!temp_.empty()) {
    if (::rename(temp_.c_str(), target_.c_str()) != 0) fail(errno);
    UnregisterTemp(slot_);
  }
  committed_ = true;
}

void WriteFileAtomically(const std::string& path, std::string_view contents) {
  if (path.empty()) throw InputError("", 0, "empty output path");
  OutputStream out(path, 0);  // no buffer: `contents` goes straight to the file
  out.Write(contents);
  out.Commit();
}

void FlushStandardOutput() {
  std::cout.flush();
  bool failed = !std::cout;
  failed |= std::fflush(stdout) != 0 || std::ferror(stdout);
  if (failed) Fail("standard output", "cannot write", errno != 0 ? errno : EIO);
}

void WriteOutput(const std::string& path, std::string_view contents) {
  OutputStream out(path, 0);  // "" and "-": standard output
  out.Write(contents);
  out.Commit();
}

void RefuseOutputOverInputs(const std::string& path, const std::vector<std::string>& inputs) {
  if (path.empty() || path == "-") return;
  struct stat out;
  if (::stat(path.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) return;  // nothing to overwrite
  std::error_code ec;
  const fs::path output = fs::canonical(path, ec);
  for (const std::string& input : inputs) {
    struct stat in;
    if (::stat(input.c_str(), &in) != 0) continue;
    bool same = in.st_dev == out.st_dev && in.st_ino == out.st_ino;
    if (!same && S_ISDIR(in.st_mode) && !ec) {
      const fs::path root = fs::canonical(input, ec);
      if (ec) continue;
      auto [r, o] = std::mismatch(root.begin(), root.end(), output.begin(), output.end());
      same = r == root.end();
    }
    if (same)
      throw InputError(path, 0, "refusing to write the output over an input (" + input + ")");
  }
}

void RefuseOneFileForTwoOutputs(const std::string& first, const char* first_option, const std::string& second,
                                const char* second_option) {
  if (first.empty() || first == "-" || second.empty() || second == "-") return;
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(ResolveOutputPath(first), ec);
  const fs::path b = ec ? fs::path() : fs::weakly_canonical(ResolveOutputPath(second), ec);
  bool same = !ec && a == b;
  struct stat sa, sb;
  if (::stat(first.c_str(), &sa) == 0 && ::stat(second.c_str(), &sb) == 0)
    same = same || (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
  if (same)
    throw InputError(second, 0, std::string(first_option) + " and " + second_option +
                                    " name the same file; one output would replace the other");
}

long long FileSizeBytes(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_size) : -1;
}

namespace {

/// Opens `path` for reading when it is a regular file; `st` receives its fstat. Throws InputError.
int OpenRegularFile(const std::string& path, struct stat* st) {
  // Check the type before opening: opening a FIFO blocks, a device may have effects.
  if (::stat(path.c_str(), st) != 0) Fail(path, "cannot open", errno);
  if (S_ISDIR(st->st_mode)) throw InputError(path, 0, "cannot read: is a directory");
  if (!S_ISREG(st->st_mode))
    throw InputError(path, 0, "cannot read: not a regular file (a FIFO, device or socket)");
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) Fail(path, "cannot open", errno);
  if (::fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {  // replaced between stat and open
    ::close(fd);
    throw InputError(path, 0, "cannot read: not a regular file");
  }
  return fd;
}

}  // namespace

std::string ReadFile(const std::string& path, long long max_bytes) {
  if (max_bytes < 0) max_bytes = std::numeric_limits<long long>::max() - 1;
  struct stat st;
  int fd = OpenRegularFile(path, &st);
  // Read straight into the string (one copy less than a bounce buffer); one
  // spare byte tells a file that grew since fstat from one that did not.
  auto too_large = [&] {
    ::close(fd);
    throw InputError(path, 0, "not read: larger than the limit of " + std::to_string(max_bytes) +
                                  " bytes (it holds or grew to more while being read)");
  };
  if (static_cast<long long>(st.st_size) > max_bytes) too_large();
  std::string text(static_cast<std::size_t>(st.st_size) + 1, '\0');
  std::size_t filled = 0;
  for (;;) {
    if (static_cast<long long>(filled) > max_bytes) too_large();
    if (filled == text.size())
      text.resize(static_cast<std::size_t>(std::min<long long>(static_cast<long long>(text.size()) * 2, max_bytes + 1)));
    ssize_t n = ::read(fd, text.data() + filled, text.size() - filled);
    if (n < 0) {
      if (errno == EINTR) continue;
      int saved = errno;
      ::close(fd);
      Fail(path, "read error", saved);
    }
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  text.resize(filled);
  ::close(fd);
  return text;
}

std::string ReadFileHead(const std::string& path, std::size_t max_bytes) {
  RegularFileReader reader(path);
  std::string head(max_bytes, '\0');
  std::size_t filled = 0;
  while (filled < max_bytes) {
    const std::size_t n = reader.Read(head.data() + filled, max_bytes - filled);
    if (n == 0) break;
    filled += n;
  }
  head.resize(filled);
  return head;
}

RegularFileReader::RegularFileReader(const std::string& path) : path_(path) {
  struct stat st;
  fd_ = OpenRegularFile(path, &st);
  size_bytes_ = static_cast<long long>(st.st_size);
}

RegularFileReader::~RegularFileReader() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t RegularFileReader::Read(char* buffer, std::size_t capacity) {
  for (;;) {
    const ssize_t n = ::read(fd_, buffer, capacity);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) Fail(path_, "read error", errno);
  }
}

}  // namespace qnm
