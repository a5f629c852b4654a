#include "paraver/paraver_header.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::string_view kMagic = "#Paraver (";
constexpr std::string_view kNewFormat = "new format";
// More tasks or threads than any machine runs: a damaged count, not a run
// (a header of 1e9 tasks would otherwise allocate their tables).
constexpr long long kMaxTasks = 10'000'000;
constexpr long long kMaxThreadsPerTask = 100'000;
constexpr long long kMaxNodes = 10'000'000;

// A cursor over the header line; each Take* reads up to a delimiter.
class HeaderCursor {
 public:
  HeaderCursor(std::string_view line, const std::string& path, int line_number)
      : rest_(line), path_(path), line_(line_number) {}

  bool AtEnd() const { return rest_.empty(); }
  void Skip(char expected, const char* what) {
    if (rest_.empty() || rest_.front() != expected)
      Fail(std::string("expected '") + expected + "' " + what + ", got '" + std::string(rest_.substr(0, 20)) + "'");
    rest_.remove_prefix(1);
  }
  /// The text up to (not including) `delimiter`, which is consumed; the rest of the line when
  /// `delimiter` is absent and `to_end` allows it.
  std::string_view TakeUntil(char delimiter, const char* what, bool to_end = false) {
    const std::size_t at = rest_.find(delimiter);
    if (at == std::string_view::npos) {
      if (!to_end) Fail(std::string("missing '") + delimiter + "' after " + what);
      std::string_view all = rest_;
      rest_ = {};
      return all;
    }
    std::string_view part = rest_.substr(0, at);
    rest_.remove_prefix(at + 1);
    return part;
  }
  /// A count in [min, max] from `text`.
  long long Count(std::string_view text, long long min, long long max, const char* what) const {
    const std::optional<long long> value = ParseInteger(Trim(text));
    if (!value || *value < min || *value > max)
      Fail(std::string(what) + " must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
           "], got '" + std::string(text.substr(0, 30)) + "'");
    return *value;
  }
  /// The first delimiter of `any` in the rest, or '\0'.
  char NextOf(std::string_view any) const {
    const std::size_t at = rest_.find_first_of(any);
    return at == std::string_view::npos ? '\0' : rest_[at];
  }
  [[noreturn]] void Fail(const std::string& why) const {
    throw InputError(path_, line_, "Paraver header: " + why);
  }

 private:
  std::string_view rest_;
  const std::string& path_;
  int line_;
};

void ParseEndTime(std::string_view field, HeaderCursor& cursor, ParaverHeader* header) {
  std::string_view digits = field;
  const std::size_t underscore = field.find('_');
  if (underscore != std::string_view::npos) {
    const std::string_view unit = field.substr(underscore);
    digits = field.substr(0, underscore);
    if (unit == "_ns") header->unit_s = 1e-9;
    else if (unit == "_us") header->unit_s = 1e-6;
    else if (unit == "_ms") header->unit_s = 1e-3;
    else cursor.Fail("unknown time unit '" + std::string(unit) + "' (Paraver writes _ns, or none for microseconds)");
  }
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), header->end_time);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
    cursor.Fail("the trace's end time must be a non-negative integer, got '" + std::string(field.substr(0, 30)) + "'");
}

// "<nodes>(<cpus>,...,<cpus>)" or a bare count (0: no resource model), then ':'.
void ParseResources(HeaderCursor& cursor, ParaverHeader* header) {
  if (cursor.NextOf("(:") == '(') {
    const long long nodes = cursor.Count(cursor.TakeUntil('(', "the node count"), 1, kMaxNodes, "the node count");
    header->cpus_per_node.reserve(static_cast<std::size_t>(std::min(nodes, 1'000'000LL)));
    for (long long n = 0; n < nodes; ++n) {
      const char delimiter = n + 1 < nodes ? ',' : ')';
      header->cpus_per_node.push_back(static_cast<int>(
          cursor.Count(cursor.TakeUntil(delimiter, "a node's CPU count"), 1, 1'000'000, "a node's CPU count")));
    }
    cursor.Skip(':', "after the nodes' CPU counts");
    return;
  }
  cursor.Count(cursor.TakeUntil(':', "the node count"), 0, 0, "a node count without CPU counts");
}

void ParseApplications(HeaderCursor& cursor, ParaverHeader* header) {
  const long long applications =
      cursor.Count(cursor.TakeUntil(':', "the application count"), 1, 1000, "the application count");
  long long tasks_in_all = 0, threads_in_all = 0;
  const bool has_nodes = !header->cpus_per_node.empty();
  for (long long a = 0; a < applications; ++a) {
    const long long tasks = cursor.Count(cursor.TakeUntil('(', "an application's task count"), 1, kMaxTasks,
                                         "an application's task count");
    tasks_in_all += tasks;
    if (tasks_in_all > kMaxTasks) cursor.Fail("more than " + std::to_string(kMaxTasks) + " tasks in all");
    std::vector<ParaverTask>& list = header->applications.emplace_back();
    list.reserve(static_cast<std::size_t>(tasks));
    for (long long t = 0; t < tasks; ++t) {
      ParaverTask task;
      task.threads = static_cast<int>(
          cursor.Count(cursor.TakeUntil(':', "a task's thread count"), 1, kMaxThreadsPerTask, "a task's thread count"));
      threads_in_all += task.threads;
      if (threads_in_all > kMaxTasks) cursor.Fail("more than " + std::to_string(kMaxTasks) + " threads in all");
      const char delimiter = t + 1 < tasks ? ',' : ')';
      task.node = static_cast<int>(cursor.Count(cursor.TakeUntil(delimiter, "a task's node"), has_nodes ? 1 : 0,
                                                has_nodes ? static_cast<long long>(header->cpus_per_node.size()) : kMaxNodes,
                                                has_nodes ? "a task's node (1 to the header's node count)" : "a task's node"));
      list.push_back(task);
    }
    if (a + 1 < applications) cursor.Skip(':', "between applications");
  }
  if (cursor.AtEnd()) return;
  cursor.Skip(',', "before the communicator count");
  header->communicators =
      static_cast<int>(cursor.Count(cursor.TakeUntil('\n', "the communicator count", true), 0, 100'000'000,
                                    "the communicator count"));
}

}  // namespace

std::string DescribeParaverHeader(const ParaverHeader& header) {
  const char* unit = header.unit_s == 1e-9 ? "ns" : header.unit_s == 1e-3 ? "ms" : "us";
  std::string out = "  written: " + header.date + "\n";
  out += "  end time: " + std::to_string(header.end_time) + " " + unit + " (" +
         FormatDouble("%.6g", header.EndTimeSeconds()) + " s)\n";
  if (header.cpus_per_node.empty()) {
    out += "  resources: none named\n";
  } else {
    out += "  resources: " + std::to_string(header.cpus_per_node.size()) + " node(s), CPUs per node:";
    for (int cpus : header.cpus_per_node) out += " " + std::to_string(cpus);
    out += "\n";
  }
  for (std::size_t a = 0; a < header.applications.size(); ++a) {
    const std::vector<ParaverTask>& tasks = header.applications[a];
    int threads = 0;
    for (const ParaverTask& task : tasks) threads += task.threads;
    out += "  application " + std::to_string(a + 1) + ": " + std::to_string(tasks.size()) + " task(s), " +
           std::to_string(threads) + " thread(s); threads:node of each task:";
    for (const ParaverTask& task : tasks) out += " " + std::to_string(task.threads) + ":" + std::to_string(task.node);
    out += "\n";
  }
  out += "  communicator lines: " + std::to_string(header.communicators) + "\n";
  return out;
}

bool StartsWithParaverNewFormat(std::string_view line) { return StartsWith(line, kNewFormat); }

bool LooksLikeParaverTrace(std::string_view text) {
  if (StartsWith(text, kNewFormat)) {
    const std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) return false;
    text.remove_prefix(newline + 1);
  }
  return StartsWith(text, kMagic);
}

ParaverHeader ParseParaverHeader(std::string_view text, const std::string& path) {
  ParaverHeader header;
  if (StartsWith(text, kNewFormat)) {
    const std::size_t newline = text.find('\n');
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    header.header_lines = 2;
  }
  std::string_view line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  HeaderCursor cursor(line, path, header.header_lines);
  if (!StartsWith(line, kMagic)) cursor.Fail("the first line does not start with \"#Paraver (\"");
  cursor.TakeUntil('(', "#Paraver");
  header.date = std::string(cursor.TakeUntil(')', "the date"));
  cursor.Skip(':', "after the date");
  ParseEndTime(cursor.TakeUntil(':', "the end time"), cursor, &header);
  ParseResources(cursor, &header);
  ParseApplications(cursor, &header);
  return header;
}

}  // namespace qnm
