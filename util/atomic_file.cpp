#include "util/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "util/input_error.h"

namespace qnm {

void WriteFileAtomically(const std::string& path, std::string_view contents) {
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(path, 0, std::string("cannot write: ") + std::strerror(errno));
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      int saved = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      throw InputError(path, 0, std::string("cannot write: ") + std::strerror(saved));
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int saved = errno;
    ::unlink(temp.c_str());
    throw InputError(path, 0, std::string("cannot write: ") + std::strerror(saved));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(temp.c_str());
    throw InputError(path, 0, std::string("cannot write: ") + std::strerror(saved));
  }
}

void WriteOutput(const std::string& path, std::string_view contents) {
  if (path.empty() || path == "-") {
    std::cout << contents;
    std::cout.flush();
    return;
  }
  WriteFileAtomically(path, contents);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InputError(path, 0, "read error");
  return buffer.str();
}

}  // namespace qnm
