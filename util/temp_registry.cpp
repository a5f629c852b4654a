#include "util/temp_registry.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <cstdint>
#include <random>

#include "util/temp_journal.h"

namespace qnm {
namespace {

constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = 4096;

// A slot is free (0), being filled (1) or ready (2, the handler may use it).
// Lock-free atomics are async-signal-safe; the path is only read when ready.
// Every member is zero-initialised so the table is constant-initialised in
// .bss: no start-up code touches its 256 KB (it was 2% of a short run).
struct Slot {
  std::atomic<int> state{0};
  TempKind kind{};
  char path[kPathBytes]{};
};
Slot g_slots[kSlots];

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The journal entry of each slot (util/temp_journal.h): what a SIGKILL'ed run
// leaves for the next run to remove. Touched only outside signal handlers.
TempJournalEntry& JournalEntryOf(int slot) {
  static TempJournalEntry entries[kSlots];
  return entries[slot];
}
std::mutex g_journal_mutex;

// Removes the entries of the open directory `fd` (files; sub-directories to a
// small depth) with raw system calls only: opendir/readdir are not
// async-signal-safe, getdents64/unlinkat are.
void EmptyDirectory(int fd, int depth) {
  struct LinuxDirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[1];
  };
  alignas(8) char buffer[4096];
  for (;;) {
    long bytes = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
    if (bytes <= 0) return;
    for (long offset = 0; offset < bytes;) {
      auto* entry = reinterpret_cast<LinuxDirent64*>(buffer + offset);
      offset += entry->d_reclen;
      const char* name = entry->d_name;
      if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
      if (entry->d_type == DT_DIR) {
        if (depth <= 0) continue;
        int child = ::openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (child >= 0) {
          EmptyDirectory(child, depth - 1);
          ::close(child);
        }
        ::unlinkat(fd, name, AT_REMOVEDIR);
      } else {
        ::unlinkat(fd, name, 0);
      }
    }
  }
}

void RemoveSlot(const Slot& slot) {
  if (slot.kind == TempKind::kFile) {
    ::unlink(slot.path);
    return;
  }
  int fd = ::open(slot.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) {
    EmptyDirectory(fd, 4);
    ::close(fd);
  }
  ::rmdir(slot.path);
}

extern "C" void OnFatalSignal(int signal_number) {
  int saved = errno;
  RemoveRegisteredTemps();
  // Die of the same signal, so the parent sees what happened.
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  ::sigemptyset(&action.sa_mask);
  ::sigaction(signal_number, &action, nullptr);
  errno = saved;
  ::raise(signal_number);
}

}  // namespace

void InstallTempCleanupHandlers() {
  for (int signal_number : kSignals) {
    struct sigaction previous;
    if (::sigaction(signal_number, nullptr, &previous) != 0) continue;
    // Leave an ignored signal ignored (nohup) and a caller's handler alone.
    if ((previous.sa_flags & SA_SIGINFO) || previous.sa_handler != SIG_DFL) continue;
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = OnFatalSignal;
    ::sigfillset(&action.sa_mask);  // no second signal while cleaning up
    ::sigaction(signal_number, &action, nullptr);
  }
}

int RegisterTemp(const std::string& path, TempKind kind) {
  static std::once_flag installed;
  std::call_once(installed, InstallTempCleanupHandlers);
  SweepTempsOfKilledRuns();  // what killed runs left, before a temporary of our own
  if (path.size() + 1 > kPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
    g_slots[i].kind = kind;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(2);
    TempJournalEntry entry = RecordTemp(path, kind);
    std::lock_guard<std::mutex> lock(g_journal_mutex);
    JournalEntryOf(i) = std::move(entry);
    return i;
  }
  return -1;
}

void UnregisterTemp(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  {
    std::lock_guard<std::mutex> lock(g_journal_mutex);
    ForgetTemp(&JournalEntryOf(slot));
  }
  g_slots[slot].state.store(0);
}

std::string TempFileFor(const std::string& path) {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  static thread_local std::mt19937_64 generator{std::random_device{}() ^
                                                 (static_cast<std::uint64_t>(::getpid()) << 32)};
  std::string token(12, 'x');
  for (char& c : token) c = kAlphabet[generator() % (sizeof kAlphabet - 1)];
  return path + ".tmp." + std::to_string(::getpid()) + "." + token;
}

void RemoveRegisteredTemps() {
  for (Slot& slot : g_slots)
    if (slot.state.load() == 2) RemoveSlot(slot);
}

}  // namespace qnm
