// The journal of temporaries (util/temp_journal.h): what a run killed by
// SIGKILL leaves behind is removed by the next run, and nothing else is.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "util/atomic_file.h"
#include "util/temp_journal.h"
#include "util/temp_registry.h"

namespace fs = std::filesystem;

namespace {

// A fresh folder for one test case, and the journal pointed into it.
fs::path Sandbox(const std::string& name) {
  std::string pattern = (fs::temp_directory_path() / ("qnm-journal-" + name + "-XXXXXX")).string();
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  fs::create_directories(fs::path(pattern) / "state");
  ::setenv("QNM_STATE_DIR", (fs::path(pattern) / "state").c_str(), 1);
  return pattern;
}

std::size_t Entries(const fs::path& root) {
  std::size_t entries = 0;
  for (const auto& item : fs::directory_iterator(root / "state")) entries += item.path().extension() == ".entry";
  return entries;
}

// In a child: creates a temporary for `output` as the atomic writer does,
// records it, writes `text` into it and is killed by SIGKILL (no handler runs).
// Returns the temporary's path (passed back through a pipe).
std::string TemporaryOfKilledRun(const fs::path& output, const std::string& text) {
  int channel[2];
  REQUIRE(::pipe(channel) == 0);
  pid_t child = ::fork();
  if (child == 0) {
    ::close(channel[0]);
    const std::string temp = qnm::TempFileFor(output.string());
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) ::_exit(3);
    qnm::RegisterTemp(temp, qnm::TempKind::kFile);
    if (::write(fd, text.data(), text.size()) < 0) ::_exit(4);
    if (::write(channel[1], temp.c_str(), temp.size()) < 0) ::_exit(5);
    ::close(channel[1]);
    ::kill(::getpid(), SIGKILL);
    ::_exit(6);
  }
  ::close(channel[1]);
  std::string temp;
  char buffer[4096];
  for (ssize_t n; (n = ::read(channel[0], buffer, sizeof buffer)) > 0;) temp.append(buffer, static_cast<std::size_t>(n));
  ::close(channel[0]);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(WTERMSIG(status) == SIGKILL);
  REQUIRE_FALSE(temp.empty());
  return temp;
}

}  // namespace

TEST_CASE("a SIGKILLed write's temporary is removed by the next sweep, a user's file is not", "[output][journal]") {
  const fs::path root = Sandbox("kill");
  REQUIRE(qnm::TempJournalDirectory() == (root / "state").string());
  // The user's own files that look like temporaries (issue 19: "out.csv.tmp.99999").
  std::ofstream(root / "out.csv.tmp.99999") << "precious user data";
  std::ofstream(root / "out.csv.tmp.1.abcdefabcdef") << "precious user data";

  const std::string killed = TemporaryOfKilledRun(root / "out.csv", "half an output");
  CHECK(fs::exists(killed));
  CHECK(Entries(root) == 1);

  // The next run that writes an output sweeps before its own temporary: here a
  // second run, killed too, whose temporary the user then removed and replaced
  // by a file of their own at the very same name (another inode: the user's now).
  const std::string replaced = TemporaryOfKilledRun(root / "other.csv", "half");
  CHECK_FALSE(fs::exists(killed));  // the first run's temporary went with the second run's write
  // Linux gives the freed inode number to the next new file: the user's file
  // below usually has the very inode of the removed temporary (this test found it).
  fs::remove(replaced);
  std::ofstream(replaced) << "the user's file under that name";
  CHECK(Entries(root) == 1);

  qnm::TempSweepSummary sweep = qnm::SweepTempsOfKilledRuns();
  CHECK(sweep.entries_seen == 1);
  CHECK(sweep.temporaries_removed == 0);
  CHECK(sweep.not_ours_anymore == 1);
  CHECK(qnm::ReadFile(replaced) == "the user's file under that name");
  CHECK(qnm::ReadFile((root / "out.csv.tmp.99999").string()) == "precious user data");
  CHECK(qnm::ReadFile((root / "out.csv.tmp.1.abcdefabcdef").string()) == "precious user data");
  CHECK(Entries(root) == 0);
  // A second sweep finds nothing left to do.
  sweep = qnm::SweepTempsOfKilledRuns();
  CHECK(sweep.entries_seen == 0);
  fs::remove_all(root);
}

TEST_CASE("a running writer's temporary is never swept", "[output][journal]") {
  const fs::path root = Sandbox("live");
  int hold[2], ready[2];
  REQUIRE(::pipe(hold) == 0);
  REQUIRE(::pipe(ready) == 0);
  const fs::path temp = root / "out.csv.tmp.live";
  pid_t child = ::fork();
  if (child == 0) {
    ::close(hold[1]);
    ::close(ready[0]);
    std::ofstream(temp) << "being written";
    qnm::RegisterTemp(temp.string(), qnm::TempKind::kFile);
    if (::write(ready[1], "x", 1) != 1) ::_exit(3);
    char byte;
    (void)::read(hold[0], &byte, 1);  // until the parent closes its end
    ::_exit(0);  // dies without unregistering, as a killed run would
  }
  ::close(hold[0]);
  ::close(ready[1]);
  char byte;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  qnm::TempSweepSummary sweep = qnm::SweepTempsOfKilledRuns();
  CHECK(sweep.entries_of_live_runs == 1);
  CHECK(sweep.temporaries_removed == 0);
  CHECK(fs::exists(temp));
  ::close(hold[1]);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  sweep = qnm::SweepTempsOfKilledRuns();  // its run has ended: the temporary goes
  CHECK(sweep.temporaries_removed == 1);
  CHECK_FALSE(fs::exists(temp));
  fs::remove_all(root);
}

TEST_CASE("a killed run's temporary folder is swept, the user's files beside it stay", "[output][journal]") {
  const fs::path root = Sandbox("folder");
  std::ofstream(root / "notes.txt") << "mine";
  pid_t child = ::fork();
  if (child == 0) {
    fs::create_directories(root / ".charts.tmp.1-abcdef" / "sub");
    std::ofstream(root / ".charts.tmp.1-abcdef" / "sub" / "a.png") << "png";
    qnm::RegisterTemp((root / ".charts.tmp.1-abcdef").string(), qnm::TempKind::kDirectory);
    ::kill(::getpid(), SIGKILL);
    ::_exit(6);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(fs::exists(root / ".charts.tmp.1-abcdef" / "sub" / "a.png"));
  // Any later output write sweeps first; here the atomic writer of a file.
  qnm::WriteFileAtomically((root / "out.txt").string(), "new");
  CHECK_FALSE(fs::exists(root / ".charts.tmp.1-abcdef"));
  CHECK(qnm::ReadFile((root / "notes.txt").string()) == "mine");
  CHECK(qnm::ReadFile((root / "out.txt").string()) == "new");
  CHECK(Entries(root) == 0);
  fs::remove_all(root);
}

TEST_CASE("without a usable state folder nothing is recorded and nothing swept", "[output][journal]") {
  const fs::path root = Sandbox("off");
  std::ofstream(root / "not-a-folder") << "x";
  ::setenv("QNM_STATE_DIR", (root / "not-a-folder" / "state").c_str(), 1);
  CHECK(qnm::TempJournalDirectory().empty());
  std::ofstream(root / "out.tmp") << "data";
  qnm::TempJournalEntry entry = qnm::RecordTemp((root / "out.tmp").string(), qnm::TempKind::kFile);
  CHECK(entry.fd == -1);
  CHECK(qnm::SweepTempsOfKilledRuns().entries_seen == 0);
  CHECK(fs::exists(root / "out.tmp"));
  fs::remove_all(root);
}
