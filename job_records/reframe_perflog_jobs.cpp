#include "job_records/reframe_perflog_jobs.h"

#include <algorithm>

#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {

bool IsAbsentReframeValue(std::string_view value) {
  std::string lower = ToLower(value);
  return lower.empty() || lower == "none" || lower == "null" || lower == "nan";
}

bool SplitKeyValue(std::string_view field, std::string* key, std::string* value) {
  std::size_t eq = field.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  *key = std::string(Trim(field.substr(0, eq)));
  *value = std::string(Trim(field.substr(eq + 1)));
  return true;
}

namespace {

/// The separator of a ReFrame >= 4 header line: the one that splits off a field
/// "job_completion_time" and at least one "<var>_value"; 0 when the line is none.
char HeaderSeparator(std::string_view line) {
  for (char separator : {'|', ',', ';', '\t'}) {
    bool completion = false, value = false;
    for (std::string_view field : SplitFields(line, separator)) {
      completion = completion || field == "job_completion_time";
      // "perf_var=perf_value" is perflog_compat's header: its lines are ReFrame 3's, one per variable
      value = value || (EndsWith(field, "_value") && field.size() > 6 && field.find('=') == std::string_view::npos);
    }
    if (completion && value) return separator;
  }
  return 0;
}

/// A ReFrame 3 line: "<time>|reframe <version>|<check info>|jobid=<id>|...".
bool IsVersion3Line(std::string_view line) {
  std::vector<std::string_view> fields = SplitFields(line, '|');
  return fields.size() >= 5 && StartsWith(fields[1], "reframe ") &&
         std::any_of(fields.begin(), fields.end(), [](std::string_view f) { return StartsWith(f, "jobid="); });
}

std::string_view FirstLine(std::string_view text) {
  for (std::string_view line : SplitLines(text.substr(0, std::min<std::size_t>(text.size(), 1 << 16))))
    if (!Trim(line).empty()) return Trim(line);
  return {};
}

/// Layout names a tag or key=value field may carry beside the performance variable: the fields
/// a run's layout is read from, and two that are recognised as layout but say nothing of it.
bool IsLayoutKey(const std::string& key) {
  auto in = [&](const std::vector<const char*>& names) {
    return std::find(names.begin(), names.end(), key) != names.end();
  };
  return in(kReframeProcessFields) || in(kReframeThreadFields) || in(kReframeRanksPerNodeFields) ||
         in(kReframeNodeFields) || in({"mpi", "jobid"});
}

/// The columns of a ReFrame >= 4 log that say what a run was (reframe_perflog.cpp reads these
/// only): its name, layout, place, job and version. A default-format row has some 35 columns.
bool IsReadField(const std::string& key) {
  static const char* kFields[] = {"display_name", "name", "short_name", "info", "env_vars", "job_nodelist",
                                  "system", "partition", "system:partition", "environ", "result",
                                  "job_completion_time", "version", "reframe version"};
  return IsLayoutKey(key) || std::find(std::begin(kFields), std::end(kFields), key) != std::end(kFields);
}

/// Tags "Al3x3,num_nodes=2,num_procs=112": key=value items into `fields`, the others into `tags`.
void ReadTags(std::string_view text, ReframeJob* job) {
  for (std::string_view item : SplitFields(text, ',')) {
    std::string key, value;
    if (SplitKeyValue(item, &key, &value)) job->fields.emplace(ToLower(key), value);
    else if (!item.empty() && !IsAbsentReframeValue(item)) job->tags.emplace_back(item);
  }
}

/// ReFrame's check_info: "<test> on <system>:<partition> using <environ>" (ReFrame 3) or
/// "<display name> /<hash> @<system>:<partition>+<environ>" (ReFrame 4). Fields already set win.
void ReadCheckInfo(std::string_view info, ReframeJob* job) {
  std::string name, place, environ;
  if (std::size_t at = info.rfind(" @"); at != std::string_view::npos) {
    std::string_view display = info.substr(0, at);
    if (std::size_t hash = display.rfind(" /"); hash != std::string_view::npos) display = display.substr(0, hash);
    name = std::string(Trim(display));
    std::string_view rest = info.substr(at + 2);
    std::size_t plus = rest.find('+');
    place = std::string(rest.substr(0, plus));
    if (plus != std::string_view::npos) environ = std::string(rest.substr(plus + 1));
    job->fields.emplace("display_name", name);
  } else if (std::size_t on = info.find(" on "); on != std::string_view::npos) {
    std::size_t using_at = info.rfind(" using ");
    std::size_t end = using_at != std::string_view::npos && using_at > on ? using_at : info.size();
    name = std::string(Trim(info.substr(0, on)));
    place = std::string(Trim(info.substr(on + 4, end - on - 4)));
    if (end < info.size()) environ = std::string(Trim(info.substr(end + 7)));
    job->fields.emplace("name", name);
  } else {
    job->fields.emplace("name", std::string(info));
    return;
  }
  std::size_t colon = place.find(':');
  job->fields.emplace("system", place.substr(0, colon));
  if (colon != std::string::npos) job->fields.emplace("partition", place.substr(colon + 1));
  if (!environ.empty()) job->fields.emplace("environ", environ);
}

/// What a column of a ReFrame >= 4 header is to the reader, decided once per header line.
struct HeaderColumn {
  enum class Role { kSkip, kPerfValue, kTags, kField } role = Role::kSkip;
  std::string name;              // the variable ("elapsed" of elapsed_value), or the field in lower case
  std::ptrdiff_t unit_at = -1;   // kPerfValue: the column of <variable>_unit, or -1
};

std::vector<HeaderColumn> HeaderColumns(const std::vector<std::string_view>& header) {
  std::vector<HeaderColumn> columns(header.size());
  for (std::size_t k = 0; k < header.size(); ++k) {
    const std::string_view name = header[k];
    HeaderColumn& column = columns[k];
    if (EndsWith(name, "_value") && name.size() > 6) {
      column.role = HeaderColumn::Role::kPerfValue;
      column.name = std::string(name.substr(0, name.size() - 6));
      auto unit = std::find(header.begin(), header.end(), column.name + "_unit");
      if (unit != header.end()) column.unit_at = unit - header.begin();
    } else if (name == "tags") {
      column.role = HeaderColumn::Role::kTags;
    } else if (std::string lower = ToLower(name); IsReadField(lower)) {  // a run's other 30-odd columns
      column.role = HeaderColumn::Role::kField;                           // are not kept
      column.name = std::move(lower);
    }
  }
  return columns;
}

/// The jobs of a ReFrame >= 4 log (header line first).
std::vector<ReframeJob> ReadHeaderLog(const std::string& path, const std::vector<std::string_view>& lines) {
  std::vector<ReframeJob> jobs;
  std::vector<HeaderColumn> columns;
  char separator = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = Trim(lines[i]);
    if (line.empty()) continue;
    if (char s = HeaderSeparator(line)) {  // the first header, or a later one after a format change
      separator = s;
      columns = HeaderColumns(SplitFields(line, separator));
      continue;
    }
    std::vector<std::string_view> fields = SplitFields(line, separator);
    if (fields.size() != columns.size() &&
        !(fields.size() == columns.size() + 1 && fields.back().empty()))  // a trailing separator
      throw InputError(path, static_cast<int>(i + 1), std::to_string(fields.size()) + " fields where the header has " +
                                                          std::to_string(columns.size()));
    ReframeJob job;
    job.line = static_cast<int>(i + 1);
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const HeaderColumn& column = columns[k];
      switch (column.role) {
        case HeaderColumn::Role::kPerfValue:
          job.perf.push_back({column.name, std::string(fields[k]),
                              column.unit_at < 0 ? std::string() : std::string(fields[column.unit_at])});
          break;
        case HeaderColumn::Role::kTags: ReadTags(fields[k], &job); break;
        case HeaderColumn::Role::kField: job.fields.emplace(column.name, std::string(fields[k])); break;
        case HeaderColumn::Role::kSkip: break;
      }
    }
    if (auto info = job.fields.find("info"); info != job.fields.end()) ReadCheckInfo(info->second, &job);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

/// The jobs of a ReFrame 3 log: lines of one job (same time stamp, test and job id) merged.
std::vector<ReframeJob> ReadVersion3Log(const std::string& path, const std::vector<std::string_view>& lines) {
  std::vector<ReframeJob> jobs;
  std::map<std::string, std::size_t> job_of_key;  // "<time>|<check info>|<jobid>" -> index in jobs
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = Trim(lines[i]);
    if (line.empty()) continue;
    const int line_number = static_cast<int>(i + 1);
    std::vector<std::string_view> fields = SplitFields(line, '|');
    if (fields[0] == "job_completion_time") continue;  // perflog_compat's header line (ReFrame >= 4)
    if (!IsVersion3Line(line))
      throw InputError(path, line_number, "not a ReFrame 3 performance log line (<time>|reframe <version>|<test> on "
                                          "<system>:<partition> using <environ>|jobid=<id>|<var>=<value>|...)");
    ReframeJob line_job;
    line_job.line = line_number;
    line_job.fields.emplace("job_completion_time", std::string(fields[0]));
    line_job.fields.emplace("version", std::string(fields[1]));
    ReadCheckInfo(fields[2], &line_job);
    ReframePerfValue perf;
    bool unit_seen = false;
    for (std::size_t k = 3; k < fields.size(); ++k) {
      std::string_view field = fields[k];
      std::string key, value;
      if (StartsWith(field, "ref=")) continue;  // "ref=0 (l=None, u=None)": the test's reference
      if (field.find(',') != std::string_view::npos) {
        ReadTags(field, &line_job);
      } else if (SplitKeyValue(field, &key, &value)) {
        if (IsLayoutKey(ToLower(key)) || !perf.name.empty()) line_job.fields.emplace(ToLower(key), value);
        else perf = {key, value, ""};
      } else if (!perf.name.empty() && !unit_seen) {
        perf.unit = std::string(field);  // the unit follows the value (ReFrame 3) or its reference (3.7)
        unit_seen = true;
      } else if (!field.empty()) {
        ReadTags(field, &line_job);
      }
    }
    if (perf.name.empty())
      throw InputError(path, line_number, "no <variable>=<value> field (the performance variable of the line)");
    const std::string key = std::string(fields[0]) + "|" + std::string(fields[2]) + "|" + line_job.fields["jobid"];
    auto [it, added] = job_of_key.emplace(key, jobs.size());
    if (added) {
      line_job.perf.push_back(perf);
      jobs.push_back(std::move(line_job));
      continue;
    }
    ReframeJob& job = jobs[it->second];
    for (const auto& [name, text] : line_job.fields) job.fields.emplace(name, text);
    for (const std::string& tag : line_job.tags)
      if (std::find(job.tags.begin(), job.tags.end(), tag) == job.tags.end()) job.tags.push_back(tag);
    if (std::any_of(job.perf.begin(), job.perf.end(), [&](const ReframePerfValue& p) { return p.name == perf.name; }))
      throw InputError(path, line_number, "performance variable '" + perf.name + "' twice for one job");
    job.perf.push_back(perf);
  }
  return jobs;
}

}  // namespace

bool LooksLikeReframePerflog(std::string_view text) {
  std::string_view first = FirstLine(text);
  return HeaderSeparator(first) != 0 || IsVersion3Line(first);
}

std::vector<ReframeJob> ReadReframePerflogJobs(const std::string& path, std::string_view text) {
  std::vector<std::string_view> lines = SplitLines(text);
  return HeaderSeparator(FirstLine(text)) != 0 ? ReadHeaderLog(path, lines) : ReadVersion3Log(path, lines);
}

}  // namespace qnm
