#include "util/temp_journal.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <random>
#include <sstream>

namespace qnm {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[] = "qnm-predict temporary v2";
constexpr const char* kEntrySuffix = ".entry";
constexpr const char* kPartSuffix = ".part";
// An entry being written (".part") that nobody holds and that is older than
// this was left by a run killed while recording; it names nothing yet.
constexpr std::time_t kStalePartSeconds = 3600;

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string StateFolder() {
  if (const char* explicit_dir = std::getenv("QNM_STATE_DIR"); explicit_dir && *explicit_dir) return explicit_dir;
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg == '/')
    return std::string(xdg) + "/qnm-predict/temporaries";
  if (const char* home = std::getenv("HOME"); home && *home == '/')
    return std::string(home) + "/.local/state/qnm-predict/temporaries";
  return "";
}

// Creates the folder (0700) when missing; "" when it is not a folder we can use.
std::string UsableStateFolder() {
  std::string folder = StateFolder();
  if (folder.empty()) return "";
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    fs::create_directories(folder, ec);
    if (ec) return "";
    ::chmod(folder.c_str(), 0700);
  }
  return ::access(folder.c_str(), W_OK | X_OK) == 0 ? folder : "";
}

std::string RandomToken() {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  static thread_local std::mt19937_64 generator{std::random_device{}() ^ (static_cast<std::uint64_t>(::getpid()) << 32)};
  std::string token(16, 'x');
  for (char& c : token) c = kAlphabet[generator() % (sizeof kAlphabet - 1)];
  return token;
}

bool WriteAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string ReadAll(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > 16384) break;  // an entry is one path: anything longer is not ours
  }
  return text;
}

struct Recorded {
  TempKind kind = TempKind::kFile;
  unsigned long long device = 0, inode = 0;
  long long birth_s = 0, birth_ns = 0;  // statx creation time: an inode number is reused at once
  std::string path;
};

// Device, inode and creation time of `path` (not following a link); false
// when the file system does not give a creation time (the journal is off then).
bool IdentityOf(const std::string& path, Recorded* out) {
  struct statx st;
  if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_BTIME | STATX_TYPE, &st) != 0 ||
      !(st.stx_mask & STATX_BTIME))
    return false;
  out->device = (static_cast<unsigned long long>(st.stx_dev_major) << 32) | st.stx_dev_minor;
  out->inode = st.stx_ino;
  out->birth_s = st.stx_btime.tv_sec;
  out->birth_ns = st.stx_btime.tv_nsec;
  out->kind = S_ISDIR(st.stx_mode) ? TempKind::kDirectory : TempKind::kFile;
  return S_ISDIR(st.stx_mode) || S_ISREG(st.stx_mode);
}

bool Parse(const std::string& text, Recorded* out) {
  std::istringstream in(text);
  std::string magic, kind;
  if (!std::getline(in, magic) || magic != kMagic) return false;
  if (!std::getline(in, kind) || (kind != "file" && kind != "directory")) return false;
  out->kind = kind == "file" ? TempKind::kFile : TempKind::kDirectory;
  std::string ids;
  if (!std::getline(in, ids) || std::sscanf(ids.c_str(), "%llu %llu %lld %lld", &out->device, &out->inode,
                                            &out->birth_s, &out->birth_ns) != 4)
    return false;
  if (!std::getline(in, out->path) || out->path.empty() || out->path.front() != '/') return false;
  return true;
}

// Removes `recorded.path` when it still is the file or folder the dead run
// created: same device, inode, type and creation time (a file the user puts
// there later may get the freed inode number, never the old creation time).
bool RemoveIfStillOurs(const Recorded& recorded) {
  Recorded now;
  if (!IdentityOf(recorded.path, &now)) return false;
  if (now.device != recorded.device || now.inode != recorded.inode || now.kind != recorded.kind ||
      now.birth_s != recorded.birth_s || now.birth_ns != recorded.birth_ns)
    return false;
  if (recorded.kind == TempKind::kFile) return ::unlink(recorded.path.c_str()) == 0;
  std::error_code ec;
  fs::remove_all(recorded.path, ec);  // the dead run's own temporary folder (charts, traces)
  return !ec;
}

}  // namespace

std::string TempJournalDirectory() { return UsableStateFolder(); }

TempJournalEntry RecordTemp(const std::string& path, TempKind kind) {
  TempJournalEntry entry;
  const std::string folder = UsableStateFolder();
  if (folder.empty()) return entry;
  std::error_code ec;
  const std::string absolute = fs::absolute(path, ec).lexically_normal().string();
  Recorded identity;
  if (ec || absolute.find('\n') != std::string::npos || !IdentityOf(absolute, &identity) || identity.kind != kind)
    return entry;
  const std::string name = folder + "/" + std::to_string(::getpid()) + "." + RandomToken();
  const std::string part = name + kPartSuffix;
  int fd = ::open(part.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return entry;
  // Locked before it has a name a sweep looks at: a held entry is a live run's.
  std::ostringstream text;
  text << kMagic << "\n"
       << (kind == TempKind::kFile ? "file" : "directory") << "\n"
       << identity.device << " " << identity.inode << " " << identity.birth_s << " " << identity.birth_ns << "\n"
       << absolute << "\n";
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || !WriteAll(fd, text.str()) ||
      ::rename(part.c_str(), (name + kEntrySuffix).c_str()) != 0) {
    ::unlink(part.c_str());
    ::close(fd);
    return entry;
  }
  entry.fd = fd;
  entry.entry_path = name + kEntrySuffix;
  return entry;
}

void ForgetTemp(TempJournalEntry* entry) {
  if (!entry || entry->fd < 0) return;
  ::unlink(entry->entry_path.c_str());
  ::close(entry->fd);  // releases the lock
  entry->fd = -1;
  entry->entry_path.clear();
}

TempSweepSummary SweepTempsOfKilledRuns() {
  TempSweepSummary summary;
  const std::string folder = UsableStateFolder();
  if (folder.empty()) return summary;
  DIR* dir = ::opendir(folder.c_str());
  if (!dir) return summary;
  std::vector<std::string> names;
  while (dirent* item = ::readdir(dir)) names.emplace_back(item->d_name);
  ::closedir(dir);
  for (const std::string& name : names) {
    const bool is_entry = EndsWith(name, kEntrySuffix), is_part = EndsWith(name, kPartSuffix);
    if (!is_entry && !is_part) continue;
    const std::string entry_path = folder + "/" + name;
    int fd = ::open(entry_path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) continue;
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      continue;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {  // its run is alive
      ++summary.entries_of_live_runs;
      ::close(fd);
      continue;
    }
    if (is_part) {  // killed while recording: names nothing that was ever used
      if (std::time(nullptr) - st.st_mtime > kStalePartSeconds) ::unlink(entry_path.c_str());
      ::close(fd);
      continue;
    }
    ++summary.entries_seen;
    Recorded recorded;
    if (Parse(ReadAll(fd), &recorded) && RemoveIfStillOurs(recorded)) ++summary.temporaries_removed;
    else ++summary.not_ours_anymore;
    ::unlink(entry_path.c_str());
    ::close(fd);
  }
  return summary;
}

}  // namespace qnm
