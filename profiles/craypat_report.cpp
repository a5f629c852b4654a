// CrayPat reports (craypat_report.h, docs/formats/craypat-report.md).
#include "profiles/craypat_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "profiles/profile_readers.h"
#include "reader/experiment_factors.h"
#include "reader/series_identity.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kLiteBanner = "CrayPat-lite Performance Statistics";
constexpr std::size_t kHeaderReach = 6;  // non-blank lines after "CrayPat/X:" that hold the header's first fields

// "CrayPat/X:  Version 20.09.0 Revision 430aefe03  08/13/20 20:40:23"
bool IsVersionLine(std::string_view t) { return StartsWith(t, "CrayPat/X:"); }

// A report's header follows its "CrayPat/X:" line; the line perftools-lite prints when the
// program starts is followed by the program's own output instead.
bool OpensReport(const std::vector<std::string_view>& lines, std::size_t i) {
  std::size_t seen = 0;
  for (std::size_t j = i + 1; j < lines.size() && seen < kHeaderReach; ++j) {
    const std::string_view t = Trim(lines[j]);
    if (t.empty()) continue;
    ++seen;
    if (StartsWith(t, "Experiment:") || StartsWith(t, "Number of PEs (MPI ranks):")) return true;
  }
  return false;
}

// "1,024" -> 1024; CrayPat groups thousands with commas.
std::string WithoutCommas(std::string_view token) {
  std::string out;
  for (char c : token)
    if (c != ',') out += c;
  return out;
}

int CountOf(std::string_view token, const std::string& path, int line, const char* what, int least) {
  return WholeCount(WithoutCommas(token), path, line, what, least);
}

// A table cell: "38.4%", "1,344,287.7", "--" (kUnknown), "" (kUnknown).
double Cell(std::string_view field, const std::string& path, int line) {
  std::string_view t = Trim(field);
  if (t.empty() || t == "--") return kUnknown;
  if (EndsWith(t, "%")) t.remove_suffix(1);
  return NonNegativeNumber(WithoutCommas(t), path, line, "a CrayPat table cell");
}

// "Table 1:  Profile by Function" -> "Profile by Function"; empty when the line is no table title.
std::string TableTitle(std::string_view t) {
  if (!StartsWith(t, "Table ")) return {};
  const std::size_t colon = t.find(':');
  if (colon == std::string_view::npos || colon < 7) return {};
  for (std::size_t k = 6; k < colon; ++k)
    if (!std::isdigit(static_cast<unsigned char>(t[k]))) return {};
  return std::string(Trim(t.substr(colon + 1)));
}

// The '|' characters a row starts with (its depth) and the rest of the row.
std::string_view RowBody(std::string_view t, int* depth) {
  std::size_t k = 0;
  while (k < t.size() && t[k] == '|') ++k;
  *depth = static_cast<int>(k);
  return t.substr(k);
}

bool IsRule(std::string_view body) {
  const std::string_view t = Trim(body);
  return !t.empty() && t.find_first_not_of("-=") == std::string_view::npos;
}

// A data row's first cell is a number, a percentage or "--"; a header line's is words or blank.
bool IsDataRow(std::string_view body) {
  const std::vector<std::string_view> fields = SplitFields(body, '|');
  if (fields.size() < 2) return false;
  const std::string_view first = Trim(fields.front());
  if (first == "--") return true;
  if (first.size() >= 2 && first.front() == '-' && std::isdigit(static_cast<unsigned char>(first[1])))
    return true;  // a negative number, which Cell refuses with the line
  return !first.empty() && (std::isdigit(static_cast<unsigned char>(first.front())) || first.front() == '.');
}

// Group names are upper case ("MPI", "MPI_SYNC", "USER", "ETC", "BLAS"); a depth-1 row of another
// name is a function that perftools 6.2 printed one '|' short.
bool IsGroupName(const std::string& label) {
  if (label.empty()) return false;
  for (char c : label)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return StartsWith(label, "MPI_") ? label == "MPI_SYNC" : true;
}

// Reads the table whose title is at lines[i]; returns the index of its last line.
std::size_t ReadTable(const std::vector<std::string_view>& lines, std::size_t i, const std::string& path,
                      CrayPatTable* table) {
  table->line = static_cast<int>(i + 1);
  std::size_t k = i + 1;
  while (k < lines.size() && Trim(lines[k]).empty()) ++k;
  // Header lines: the column names, one word group per '|' column.
  std::vector<std::string> names;
  for (; k < lines.size(); ++k) {
    // Header lines start with blanks ("        |      | Samp% |  Function"); rows with '|' or a
    // number (" 100.0% | 3,499,929.6 | ... | Total").
    const std::string_view raw = lines[k];
    if (Trim(raw).empty() || raw.front() == '|' || IsDataRow(raw) || raw.find('|') == std::string_view::npos) break;
    const std::vector<std::string_view> fields = SplitFields(raw, '|');
    if (fields.size() > names.size()) names.resize(fields.size());
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const std::string_view word = Trim(fields[c]);
      if (!word.empty()) names[c] += (names[c].empty() ? "" : " ") + std::string(word);
    }
  }
  table->columns = names;
  if (names.size() < 2) return k;  // not a column table ("Table 4: Program HW Performance Counter Data")
  // Rows, after the blank line that may follow the header, up to the blank line that ends the table.
  while (k < lines.size() && Trim(lines[k]).empty()) ++k;
  std::string group;
  for (; k < lines.size(); ++k) {
    const std::string_view t = Trim(lines[k]);
    if (t.empty() || !TableTitle(t).empty() || StartsWith(t, "Notes for table")) break;
    int depth = 0;
    const std::string_view body = RowBody(t, &depth);
    if (IsRule(body)) continue;
    if (!IsDataRow(body)) {
      // "3|   |   |  vasp.5.4.4/hamil.f90": a source file under a function (+src tables).
      if (std::isdigit(static_cast<unsigned char>(t.front()))) continue;
      if (depth > 0 && SplitFields(body, '|').size() < 2)
        throw InputError(path, static_cast<int>(k + 1),
                         "malformed row of CrayPat table '" + table->title + "': no cells before its label");
      if (depth > 0) continue;  // a row of a label alone (a caller under a function)
      break;
    }
    const std::vector<std::string_view> fields = SplitFields(body, '|');
    const int line = static_cast<int>(k + 1);
    if (fields.size() != names.size())
      throw InputError(path, line, "CrayPat table '" + table->title + "' row with " + std::to_string(fields.size()) +
                                       " columns, its header names " + std::to_string(names.size()));
    CrayPatRow row;
    row.line = line;
    row.depth = depth;
    row.label = std::string(Trim(fields.back()));
    for (std::size_t c = 0; c + 1 < fields.size(); ++c) row.values.push_back(Cell(fields[c], path, line));
    if (depth == 1 && IsGroupName(row.label)) group = row.label;
    if (depth == 1 && !IsGroupName(row.label) && !group.empty()) row.depth = 2;
    row.group = depth == 0 ? "" : group;
    table->rows.push_back(std::move(row));
  }
  return k == 0 ? 0 : k - 1;
}

// "Numbers of PEs per Node:  128  PEs on each of  8  Nodes" / "24" / "1  PE on each of  16  Nodes".
void ReadPesPerNode(std::string_view value, const std::string& path, int line, CrayPatReport* r) {
  const std::vector<std::string_view> w = SplitWhitespace(value);
  if (w.empty()) throw InputError(path, line, "'Numbers of PEs per Node:' without a number");
  r->pes_per_node = CountOf(w[0], path, line, "'Numbers of PEs per Node:'", 1);
  for (std::size_t k = 0; k + 1 < w.size(); ++k) {
    if (w[k] == "of" && k >= 2 && w[k - 1] == "each") {
      r->nodes += CountOf(w[k + 1], path, line, "'PEs on each of N Nodes'", 1);
    }
  }
}

// "1", "2", "1,114", "1-12": the threads of the PEs; the largest count is the run's.
void ReadThreads(std::string_view value, const std::string& path, int line, CrayPatReport* r) {
  r->threads_text = std::string(Trim(value));
  const std::vector<std::string_view> w = SplitWhitespace(value);
  if (w.empty()) throw InputError(path, line, "'Numbers of Threads per PE:' without a number");
  int most = 0;
  std::string word(w[0]);
  for (char& c : word)
    if (c == '-') c = ',';
  for (std::string_view part : SplitFields(word, ','))
    most = std::max(most, WholeCount(part, path, line, "'Numbers of Threads per PE:'", 1));
  r->threads = most;
}

// "Exit Status:  0 for 128 PEs" (and "1 for 2 PEs, 0 for 126 PEs").
void ReadExitStatus(std::string_view value, int line, CrayPatReport* r) {
  r->exit_status = std::string(Trim(value));
  r->exit_status_line = line;
  const std::vector<std::string_view> w = SplitWhitespace(value);
  for (std::size_t k = 0; k + 1 < w.size(); ++k)
    if (w[k + 1] == "for") {
      std::string status(w[k]);
      while (!status.empty() && status.back() == ',') status.pop_back();
      if (status != "0") r->failed_exit = true;
    }
}

// The value of "Field:  value" after the colon.
std::string_view After(std::string_view t, std::string_view field) { return Trim(t.substr(field.size())); }

// The next non-blank line after lines[i], trimmed.
std::string NextText(const std::vector<std::string_view>& lines, std::size_t i) {
  for (std::size_t k = i + 1; k < lines.size() && k <= i + 3; ++k)
    if (!Trim(lines[k]).empty()) return std::string(Trim(lines[k]));
  return {};
}

void ReadReport(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end,
                const std::string& path, CrayPatReport* r) {
  for (std::size_t i = begin; i < end; ++i) {
    const std::string_view t = Trim(lines[i]);
    const int line = static_cast<int>(i + 1);
    if (t.empty()) continue;
    if (i == begin) {
      const std::vector<std::string_view> w = SplitWhitespace(t);
      if (w.size() >= 3 && w[1] == "Version") r->version = std::string(w[2]);
      continue;
    }
    if (const std::string title = TableTitle(t); !title.empty()) {
      ++r->table_titles;
      CrayPatTable table;
      table.title = title;
      // "Profile by Function" (sampling reports), "Profile by Function Group and Function" (lite
      // summaries, tracing), "Sample Profile by Function" (perftools 23); not "... and Callers".
      const bool profile = title.find("Profile by Function") != std::string::npos && r->profile_table < 0 &&
                           title.find("Callers") == std::string::npos;
      const bool wall = title.find("Wall Clock Time") != std::string::npos && r->wall_table < 0;
      const bool messages = title.find("MPI Message Stats") != std::string::npos && r->message_table < 0;
      if (!profile && !wall && !messages) continue;
      i = ReadTable(lines, i, path, &table);
      if (table.columns.size() < 2) continue;
      r->tables.push_back(std::move(table));
      const int index = static_cast<int>(r->tables.size()) - 1;
      if (profile) r->profile_table = index;
      if (wall) r->wall_table = index;
      if (messages) r->message_table = index;
      continue;
    }
    if (StartsWith(t, "Experiment:") && r->experiment.empty()) {
      r->experiment = std::string(After(t, "Experiment:"));
    } else if (StartsWith(t, "Number of PEs (MPI ranks):") && r->pes_line == 0) {
      r->pes_line = line;
      const std::vector<std::string_view> w = SplitWhitespace(After(t, "Number of PEs (MPI ranks):"));
      if (w.empty()) throw InputError(path, line, "'Number of PEs (MPI ranks):' without a number");
      r->pes = CountOf(w[0], path, line, "'Number of PEs (MPI ranks):'", 1);
    } else if (StartsWith(t, "Numbers of PEs per Node:") && r->pes_per_node == 0) {
      ReadPesPerNode(After(t, "Numbers of PEs per Node:"), path, line, r);
    } else if (StartsWith(t, "Numbers of Threads per PE:") && r->threads == 0) {
      ReadThreads(After(t, "Numbers of Threads per PE:"), path, line, r);
    } else if (StartsWith(t, "Number of Cores per Socket:") && r->cores_per_socket == 0) {
      const std::vector<std::string_view> w = SplitWhitespace(After(t, "Number of Cores per Socket:"));
      if (!w.empty()) r->cores_per_socket = CountOf(w[0], path, line, "'Number of Cores per Socket:'", 1);
    } else if (StartsWith(t, "Execution start time:") && r->start_time.empty()) {
      r->start_time = std::string(After(t, "Execution start time:"));
    } else if (StartsWith(t, "System name and speed:") && r->host.empty()) {
      const std::vector<std::string_view> w = SplitWhitespace(After(t, "System name and speed:"));
      if (!w.empty()) r->host = std::string(w[0]);
    } else if (t.find(" Family:") != std::string_view::npos && t.find("CPU") != std::string_view::npos && r->cpu.empty() && r->table_titles == 0) {
      std::string cpu;
      for (std::string_view word : SplitWhitespace(t.substr(0, t.find("Family:"))))
        cpu += (cpu.empty() ? "" : " ") + std::string(word);
      r->cpu = cpu;
    } else if (StartsWith(t, "Accelerator Model:") && r->accelerator.empty()) {
      r->accelerator = std::string(After(t, "Accelerator Model:"));
    } else if (StartsWith(t, "Current path to data file:") && r->data_file.empty()) {
      const std::string_view rest = After(t, "Current path to data file:");
      r->data_file = rest.empty() ? NextText(lines, i) : std::string(rest);
    } else if (StartsWith(t, "Program invocation:") && r->invocation.empty()) {
      const std::string_view rest = After(t, "Program invocation:");
      r->invocation = rest.empty() ? NextText(lines, i) : std::string(rest);
    } else if (StartsWith(t, "Original program:") && r->original_program.empty()) {
      const std::string_view rest = After(t, "Original program:");
      r->original_program = rest.empty() ? NextText(lines, i) : std::string(rest);
    } else if (StartsWith(t, "Exit Status:") && r->exit_status_line == 0) {
      ReadExitStatus(After(t, "Exit Status:"), line, r);
    } else if (StartsWith(t, "Sampling interval:") && !Known(r->sampling_interval_us)) {
      const std::vector<std::string_view> w = SplitWhitespace(After(t, "Sampling interval:"));
      if (w.size() >= 2 && StartsWith(w[1], "microsec"))
        r->sampling_interval_us = NonNegativeNumber(WithoutCommas(w[0]), path, line, "'Sampling interval:'");
    } else if (StartsWith(t, "Avg Process Time:") && r->process_time_line == 0) {
      // perftools 20 on: "Avg Process Time:       0.47 secs"
      const std::vector<std::string_view> w = SplitWhitespace(After(t, "Avg Process Time:"));
      if (w.empty()) throw InputError(path, line, "'Avg Process Time:' without a number");
      r->process_time_line = line;
      r->avg_process_time_s = NonNegativeNumber(WithoutCommas(w[0]), path, line, "'Avg Process Time:'");
    } else if (StartsWith(t, "Process Time:") && r->process_time_line == 0) {
      // perftools 6: "Process Time:   1366  secs   85.368 secs per PE" (the sum over the PEs, then per PE)
      const std::vector<std::string_view> w = SplitWhitespace(After(t, "Process Time:"));
      if (w.size() >= 5 && w[4] == "per") {
        r->process_time_line = line;
        r->avg_process_time_s = NonNegativeNumber(WithoutCommas(w[2]), path, line, "'Process Time: ... secs per PE'");
      } else if (!w.empty()) {
        r->process_time_line = line;
        r->avg_process_time_s = NonNegativeNumber(WithoutCommas(w[0]), path, line, "'Process Time:'");
      }
    } else if (t.find("End of CrayPat-lite output") != std::string_view::npos) {
      r->lite_end = true;
    }
  }
}

// "Numbers" and "secs" values of the wall clock table: the average row and the PE rows.
struct WallTimes {
  double mean_s = kUnknown, max_s = kUnknown, min_s = kUnknown;
  std::string max_pe;
  int line = 0;
};

WallTimes ReadWallTimes(const CrayPatReport& r) {
  WallTimes w;
  if (r.wall_table < 0) return w;
  const CrayPatTable& table = r.tables[r.wall_table];
  const int column = table.Column("Process Time");
  if (column < 0) return w;
  w.line = table.line;
  for (const CrayPatRow& row : table.rows) {
    const double value = row.values[column];
    if (!Known(value)) continue;
    if (row.depth == 0) {
      if (!Known(w.mean_s)) w.mean_s = value;  // "Total" / "Avg of PE values": the average PE
    } else {
      if (!Known(w.max_s) || value > w.max_s) w.max_s = value, w.max_pe = row.label;
      if (!Known(w.min_s) || value < w.min_s) w.min_s = value;
    }
  }
  return w;
}

// "MPI_ALLREDUCE", "mpi_alltoallv", "MPI_Allreduce(sync)" -> "Allreduce", "Alltoallv".
std::string MpiFunctionName(const std::string& label) {
  std::string name = label;
  if (const std::size_t paren = name.find('('); paren != std::string::npos) name.resize(paren);
  if (ToLower(name.substr(0, 4)) == "mpi_") name = name.substr(4);
  name = ToLower(name);
  if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

// "/lus/.../vasp_ncl+pat+211743-1003s" or "…/vasp_ncl+pat" -> "vasp_ncl": the executable pat_build
// instrumented, before the first '+' of the instrumented name.
std::string ExecutableName(const std::string& word) {
  std::string name = BaseName(word);
  if (const std::size_t plus = name.find('+'); plus != std::string::npos && plus > 0) name.resize(plus);
  return name;
}

}  // namespace

int CrayPatTable::Column(const std::string& name) const {
  for (std::size_t c = 0; c + 1 < columns.size(); ++c)
    if (columns[c] == name) return static_cast<int>(c);
  return -1;
}

bool LooksLikeCrayPatReport(std::string_view text) {
  for (std::size_t at = text.find(kLiteBanner); at != std::string_view::npos; at = text.find(kLiteBanner, at + 1)) {
    // The banner's own line: "#            CrayPat-lite Performance Statistics                #"
    const std::size_t begin = text.rfind('\n', at) == std::string_view::npos ? 0 : text.rfind('\n', at) + 1;
    if (StartsWith(Trim(text.substr(begin, at - begin)), "#")) return true;
  }
  for (std::size_t at = text.find("CrayPat/X:"); at != std::string_view::npos; at = text.find("CrayPat/X:", at + 1)) {
    const std::size_t begin = text.rfind('\n', at) == std::string_view::npos ? 0 : text.rfind('\n', at) + 1;
    if (!Trim(text.substr(begin, at - begin)).empty()) continue;  // not at the start of its line
    const std::string_view after = text.substr(at, 2000);
    const std::size_t pes = after.find("Number of PEs (MPI ranks):");
    const std::size_t experiment = after.find("\nExperiment:");
    if (pes != std::string_view::npos || experiment != std::string_view::npos) return true;
  }
  return false;
}

std::vector<CrayPatReport> ParseCrayPatReports(std::string_view text, const std::string& path) {
  const std::vector<std::string_view> lines = SplitLines(text);
  std::vector<std::size_t> starts;
  int first_version_line = 0, banner_line = 0;
  std::vector<int> banners;  // lines of the lite banner
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view t = Trim(lines[i]);
    if (StartsWith(t, "#") && t.find(kLiteBanner) != std::string_view::npos) {
      banners.push_back(static_cast<int>(i + 1));
      if (banner_line == 0) banner_line = static_cast<int>(i + 1);
    }
    if (!IsVersionLine(t)) continue;
    if (first_version_line == 0) first_version_line = static_cast<int>(i + 1);
    if (OpensReport(lines, i)) starts.push_back(i);
  }
  if (starts.empty()) {
    if (banner_line > 0)
      throw InputError(path, banner_line,
                       "CrayPat-lite banner without its report (no 'CrayPat/X:' header with 'Number of PEs' after "
                       "it): the summary was cut");
    if (first_version_line > 0)
      throw InputError(path, first_version_line,
                       "only CrayPat's start-up line ('CrayPat/X:  Version ...'), no report: the program did not "
                       "reach its end (perftools-lite prints its summary when the program exits)");
    throw InputError(path, 0, "no CrayPat report (no 'CrayPat/X:  Version' header)");
  }
  std::vector<CrayPatReport> reports;
  for (std::size_t s = 0; s < starts.size(); ++s) {
    const std::size_t end = s + 1 < starts.size() ? starts[s + 1] : lines.size();
    CrayPatReport r;
    r.line = static_cast<int>(starts[s] + 1);
    for (int b : banners)
      if (b < r.line && (s == 0 || b > static_cast<int>(starts[s - 1] + 1))) r.lite = true;
    ReadReport(lines, starts[s], end, path, &r);
    reports.push_back(std::move(r));
  }
  return reports;
}

std::string CrayPatReportUnfinished(const CrayPatReport& r, int* line) {
  *line = r.line;
  if (r.pes_line == 0) return "CrayPat report without 'Number of PEs (MPI ranks):' in its header";
  if (r.failed_exit) {
    *line = r.exit_status_line;
    return "CrayPat report of a run that failed: 'Exit Status: " + r.exit_status + "'";
  }
  if (r.table_titles == 0)
    return "CrayPat report header without its tables: the program or pat_report stopped before the report "
           "(the run did not finish, or the output was cut)";
  if (!Known(r.avg_process_time_s) && !Known(ReadWallTimes(r).mean_s) && !Known(ReadWallTimes(r).max_s))
    return "CrayPat report without a process time (no 'Avg Process Time:' line and no 'Wall Clock Time' table): "
           "the report was cut or written without its program_time table";
  return {};
}

RunStats CrayPatReportToRunStats(const CrayPatReport& r, const std::string& path) {
  if (r.pes <= 0) throw InputError(path, r.line, "CrayPat report without 'Number of PEs (MPI ranks):'");
  RunStats run;
  run.sources.push_back(path);
  run.tool_version = "CrayPat " + r.version;
  const std::string where = r.lite ? "CrayPat-lite summary" : "CrayPat report";

  // The program: its invocation, else the program pat_build instrumented, else the data file.
  std::string program;
  std::string program_from;
  if (!r.invocation.empty()) {
    program = ExecutableName(std::string(SplitWhitespace(r.invocation).front()));
    program_from = "'Program invocation:' " + r.invocation;
    SetCommandArguments(r.invocation, &run);
  } else if (!r.original_program.empty()) {
    program = ExecutableName(r.original_program);
    program_from = "'Original program:' " + r.original_program;
  } else if (!r.data_file.empty()) {
    program = ExecutableName(std::string(SplitWhitespace(r.data_file).front()));
    program_from = "'Current path to data file:' " + r.data_file;
  }
  if (!program.empty()) {
    run.app = program;
    run.derivations["app"] = where + ": the executable of " + program_from + " (pat_build's '+pat' suffix dropped)";
  }

  run.procs = r.pes;
  run.derivations["procs"] = where + " 'Number of PEs (MPI ranks):' line " + std::to_string(r.pes_line);
  if (r.threads > 0) {
    run.threads_per_proc = r.threads;
    run.derivations["threads_per_proc"] =
        where + " 'Numbers of Threads per PE: " + r.threads_text + "'" +
        (r.threads_text.find_first_of(",-") != std::string::npos ? ", the largest count it names" : "");
  }
  if (r.nodes > 0) {
    run.SetNodes(r.nodes, where + " 'Numbers of PEs per Node: ... PEs on each of N Nodes'");
  } else if (r.pes_per_node > 0 && r.pes_per_node == r.pes) {
    run.SetNodes(1, where + " 'Numbers of PEs per Node:' equal to the PEs: one node");
  } else if (r.pes_per_node > 0) {
    run.SetRanksPerNode(r.pes_per_node, where + " 'Numbers of PEs per Node:'");
  }
  // The host CrayPat names is the node of PE 0 (or the launcher's, "mom4", on Cray XC systems under
  // aprun); "nid" nodes are named by the processor too ("nid rome"): the CPU line's model words,
  // lower case, as 6.x printed "haswell" and 20.x "Haswell".
  if (!r.host.empty())
    ApplyHosts({r.host}, where + " 'System name and speed:'", &run, ToLower(r.cpu));

  // The times.
  const WallTimes wall = ReadWallTimes(r);
  double mean_s = Known(wall.mean_s) ? wall.mean_s : r.avg_process_time_s;
  const std::string mean_from =
      Known(wall.mean_s) ? where + " table '" + r.tables[r.wall_table].title + "' (line " +
                               std::to_string(wall.line) + "): Process Time of its Total row, the average PE"
                         : where + " 'Avg Process Time:' line " + std::to_string(r.process_time_line) +
                               ", the average over the PEs";
  if (Known(mean_s)) {
    run.app_time_mean_s = mean_s;
    run.derivations["app_time_mean_s"] = mean_from;
  }
  if (Known(wall.max_s)) {
    run.app_time_max_s = wall.max_s;
    run.wall_time_s = wall.max_s;
    run.derivations["app_time_max_s"] = where + " table '" + r.tables[r.wall_table].title + "' (line " +
                                        std::to_string(wall.line) + "): Process Time of the slowest PE (" +
                                        wall.max_pe + ")";
    run.derivations["wall_time_s"] = "the slowest PE's process time (app_time_max_s): from its start to its exit";
    if (Known(wall.min_s)) run.details["craypat_process_time_min_s"] = NumberText(wall.min_s);
  } else if (Known(mean_s)) {
    run.wall_time_s = mean_s;
    run.derivations["wall_time_s"] =
        "the average PE's process time (app_time_mean_s): the report gives no slowest PE's, so the run's time is "
        "below its real length by the spread between the PEs";
  }

  // The MPI time: the MPI group of the profile (and MPI_SYNC of a tracing experiment).
  if (r.profile_table >= 0) {
    const CrayPatTable& table = r.tables[r.profile_table];
    const int time_column = table.Column("Time");
    const int samp_pct = table.Column("Samp%");
    const int time_pct = table.Column("Time%");
    const bool tracing = time_column >= 0;
    const int pct = tracing ? time_pct : samp_pct;
    const int calls_column = table.Column("Calls");
    const int imb_value = table.Column(tracing ? "Imb. Time" : "Imb. Samp");
    const int imb_pct = table.Column(tracing ? "Imb. Time%" : "Imb. Samp%");
    const bool grouped = StartsWith(table.columns.back(), "Group");
    run.details["craypat_experiment_kind"] = tracing ? "tracing" : (samp_pct >= 0 ? "sampling" : "unknown");
    run.details["craypat_profile_table"] = table.title;
    const std::string table_at = where + " table '" + table.title + "' (line " + std::to_string(table.line) + ")";
    if (pct >= 0 || tracing) {
      // Seconds per PE of a row: a tracing table's Time; a sampling table's share of the samples times
      // the average PE's process time.
      auto seconds = [&](const CrayPatRow& row) {
        if (tracing) return row.values[time_column];
        if (!Known(mean_s) || !Known(row.values[pct])) return kUnknown;
        return row.values[pct] / 100.0 * mean_s;
      };
      double mpi_s = 0, sync_s = 0, mpi_calls = 0;
      bool mpi_group = false, sync_group = false, calls_known = calls_column >= 0;
      const CrayPatRow* group_row = nullptr;
      for (const CrayPatRow& row : table.rows) {
        if (grouped && row.depth == 1 && (row.label == "MPI" || row.label == "MPI_SYNC")) {
          const double s = seconds(row);
          if (!Known(s)) continue;
          (row.label == "MPI" ? mpi_s : sync_s) += s;
          (row.label == "MPI" ? mpi_group : sync_group) = true;
          if (row.label == "MPI") group_row = &row;
          if (calls_column >= 0 && Known(row.values[calls_column])) mpi_calls += row.values[calls_column];
          continue;
        }
        const bool mpi_function = grouped ? row.depth == 2 && (row.group == "MPI" || row.group == "MPI_SYNC")
                                          : row.depth == 1 && ToLower(row.label.substr(0, 4)) == "mpi_";
        if (!mpi_function) continue;
        const double s = seconds(row);
        if (!grouped && Known(s)) {
          mpi_s += s;
          mpi_group = true;
          if (calls_column >= 0 && Known(row.values[calls_column])) mpi_calls += row.values[calls_column];
        }
        CallSiteStats site;
        site.id = static_cast<int>(run.call_sites.size()) + 1;
        site.mpi_function = MpiFunctionName(row.label);
        site.source_location = where + " " + (row.group == "MPI_SYNC" ? "MPI_SYNC group: " : "") + row.label +
                               " (line " + std::to_string(row.line) + ")";
        site.activity = ClassifyMpiCall(site.mpi_function);
        site.ranks_complete = false;  // averages over the PEs (PE=HIDE), no rank rows
        if (Known(s)) site.total_time_s = s * run.procs;
        if (calls_column >= 0 && Known(row.values[calls_column])) site.total_calls = row.values[calls_column] * run.procs;
        run.call_sites.push_back(std::move(site));
      }
      if (mpi_group || sync_group) {
        run.mpi_time_mean_s = mpi_s + sync_s;
        std::string how =
            tracing ? table_at + ": Time of the MPI group" + std::string(sync_group ? " plus the MPI_SYNC group" : "") +
                          " (seconds, averaged over the PEs)"
                    : table_at + ": Samp% of the MPI group x the average PE's process time (" + NumberText(mean_s) +
                          " s): the share of the samples that fell in MPI";
        if (sync_group)
          how += "; MPI_SYNC is the time PEs waited at the barrier CrayPat puts before each collective "
                 "(PAT_RT_MPI_SYNC), which without it they would wait inside the collective";
        if (!grouped) how += "; the table has no groups: the sum of its MPI_ function rows, which it shows only "
                             "above its threshold (a lower bound)";
        run.derivations["mpi_time_mean_s"] = how;
        run.details["craypat_mpi_group_s"] = NumberText(mpi_s);
        if (sync_group) run.details["craypat_mpi_sync_group_s"] = NumberText(sync_s);
        if (group_row && pct >= 0 && Known(group_row->values[pct]))
          run.details["craypat_mpi_group_percent"] = NumberText(group_row->values[pct]);
        if (group_row && imb_value >= 0) {
          const double imbalance = group_row->values[imb_value];
          run.details["craypat_mpi_group_imbalance"] =
              Known(imbalance) ? NumberText(imbalance) + (tracing ? " s" : " samples") : "not printed (--)";
          if (imb_pct >= 0 && Known(group_row->values[imb_pct]))
            run.details["craypat_mpi_group_imbalance_percent"] = NumberText(group_row->values[imb_pct]);
        }
        if (tracing && calls_known && mpi_calls > 0) {
          run.mpi_calls_per_rank = mpi_calls;
          run.derivations["mpi_calls_per_rank"] = table_at + ": Calls of the MPI group" +
                                                  std::string(sync_group ? " and MPI_SYNC" : "") +
                                                  ", averaged over the PEs";
        }
      } else {
        run.details["craypat_mpi_group_s"] = "0";
        run.mpi_time_mean_s = 0;
        run.derivations["mpi_time_mean_s"] =
            table_at + ": no MPI group (no MPI function above the table's threshold): MPI time taken as 0";
      }
      if (!run.call_sites.empty()) {
        run.per_rank_complete = false;
        run.derivations["call_sites"] =
            table_at + ": one per MPI function row, its time per PE x PEs as the time summed over the ranks" +
            std::string(tracing ? ", its Calls x PEs as the calls" : " (sampling: no calls)") +
            "; the table shows only functions above its threshold, so they may sum below the MPI group";
      }
      if (!tracing && Known(r.sampling_interval_us))
        run.details["craypat_sampling_interval_us"] = NumberText(r.sampling_interval_us);
      if (!table.rows.empty() && table.rows.front().depth == 0 && !table.rows.front().values.empty()) {
        const int total_column = tracing ? time_column : table.Column("Samp");
        if (total_column >= 0 && Known(table.rows.front().values[total_column]))
          run.details[tracing ? "craypat_profile_total_s" : "craypat_profile_total_samples"] =
              NumberText(table.rows.front().values[total_column]);
      }
    }
  } else {
    run.derivations["mpi_time_mean_s"] = "not read: the report has no 'Profile by Function' table";
  }

  // Messages (tracing): the Total row of "MPI Message Stats by Caller", kept as printed. Whether a
  // PE=HIDE Total is the average PE's or the sum over the PEs is not checked on a report that tells,
  // so the record's per-rank message fields stay unknown.
  if (r.message_table >= 0) {
    const CrayPatTable& table = r.tables[r.message_table];
    const int bytes = table.Column("MPI Msg Bytes");
    const int count = table.Column("MPI Msg Count");
    if (!table.rows.empty() && table.rows.front().depth == 0) {
      if (bytes >= 0 && Known(table.rows.front().values[bytes]))
        run.details["craypat_msg_bytes_total_row"] = NumberText(table.rows.front().values[bytes]);
      if (count >= 0 && Known(table.rows.front().values[count]))
        run.details["craypat_msg_count_total_row"] = NumberText(table.rows.front().values[count]);
    }
    run.derivations["messages_per_rank"] =
        "not read: the 'MPI Message Stats' table's Total row is kept as craypat_msg_*_total_row; whether it is "
        "the average PE's or the sum over the PEs was not verified";
  }

  if (!r.version.empty()) run.details["craypat_version"] = r.version;
  run.details["craypat_summary"] = r.lite ? "perftools-lite" : "pat_report";
  if (!r.experiment.empty()) run.details["craypat_experiment"] = r.experiment;
  if (!r.start_time.empty()) run.details["craypat_start_time"] = r.start_time;
  if (!r.cpu.empty()) run.details["craypat_cpu"] = r.cpu;
  if (r.cores_per_socket > 0) run.details["craypat_cores_per_socket"] = std::to_string(r.cores_per_socket);
  if (!r.accelerator.empty()) run.details["craypat_accelerator"] = r.accelerator;
  if (!r.data_file.empty()) run.details["craypat_data_file"] = r.data_file;
  if (!r.exit_status.empty()) run.details["craypat_exit_status"] = r.exit_status;
  if (!r.threads_text.empty()) run.details["craypat_threads_per_pe"] = r.threads_text;
  run.derivations["app_time_s_per_rank"] = "not given: PE=HIDE tables average over the PEs";
  run.derivations["variant"] =
      where + ": 'CrayPat/X: Version' and the experiment (sampling or tracing, by the profile table's columns)";
  run.Derive();
  return run;
}

bool SniffCrayPatReport(const std::string&, std::string_view text) { return LooksLikeCrayPatReport(text); }

ReaderOutput ReadCrayPatReport(const ReaderInput& input) {
  const std::vector<CrayPatReport> reports = ParseCrayPatReports(input.text, input.path);
  ReaderOutput output;
  UnfinishedRuns unfinished;
  for (std::size_t k = 0; k < reports.size(); ++k) {
    const CrayPatReport& r = reports[k];
    int line = 0;
    if (const std::string why = CrayPatReportUnfinished(r, &line); !why.empty()) {
      unfinished.Add(line, why);
      continue;
    }
    RunStats run = CrayPatReportToRunStats(r, input.path);
    ApplyFileName(input.name, &run);
    AppendConfiguration(JoinNonEmpty({"craypat" + r.version, run.details.count("craypat_experiment_kind")
                                                                 ? run.details.at("craypat_experiment_kind")
                                                                 : std::string()},
                                     " "),
                        &run);
    output.runs.push_back(std::move(run));
  }
  DropNameNodesOfDifferingRuns(input.name, &output.runs);
  unfinished.Finish(input.path, reports.size(), "CrayPat reports are not runs", &output);
  return output;
}

}  // namespace qnm
