#include "paraver/paraver_trace.h"

#include <filesystem>
#include <string_view>

#include "paraver/paraver_header.h"
#include "paraver/paraver_names.h"
#include "paraver/paraver_record_sums.h"
#include "textio/compressed_file.h"
#include "textio/line_reader.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// A .pcf or .row beside a trace is small; a larger one is not a configuration.
constexpr long long kCompanionMaxBytes = 64LL << 20;

// "epoch_16proc" with 16 tasks -> "epoch": the name without a trailing process count, so that
// traces of one code at several counts form one series.
std::string AppName(std::string stem, int procs) {
  const std::string count = std::to_string(procs);
  const std::string lower = ToLower(stem);
  for (const char* separator : {"_", "-", ".", ""})
    for (const char* before : {"", "p", "np", "n"})
      for (const char* after : {"", "p", "proc", "procs", "ranks", "tasks", "mpi"}) {
        const std::string suffix = std::string(separator) + before + count + after;
        if (std::string_view(separator).empty() && std::string_view(before).empty()) continue;
        if (lower.size() > suffix.size() && EndsWith(lower, suffix)) return stem.substr(0, stem.size() - suffix.size());
      }
  return stem;
}

// The trace's name without .prv; Extrae's default name TRACE.prv names no program, so a trace of
// that name is named after its folder (lulesh_64/TRACE.prv -> lulesh_64).
std::string StemOfTrace(const std::string& path) {
  const std::string plain = WithoutCompressionSuffix(path);
  const std::string name = BaseName(plain);
  const std::string stem = EndsWith(ToLower(name), ".prv") ? name.substr(0, name.size() - 4) : name;
  if (ToLower(stem) != "trace") return stem;
  const std::string folder = std::filesystem::path(plain).parent_path().filename().string();
  return folder.empty() ? stem : folder;
}

}  // namespace

RunStats ReadParaverTrace(LineReader& lines, const std::string& path, const ParaverCompanions& companions) {
  // The header line(s): "new format" may come before "#Paraver (...".
  std::string header_text;
  std::string_view line;
  if (lines.Next(&line)) header_text = line;
  if (StartsWithParaverNewFormat(header_text) && lines.Next(&line)) header_text.append("\n").append(line);
  const ParaverHeader header = ParseParaverHeader(header_text, path);
  if (header.applications.size() > 1)
    throw InputError(path, header.header_lines,
                     "Paraver header: " + std::to_string(header.applications.size()) +
                         " applications in one trace; qnm-predict reads a trace of one (MPI) application");
  if (header.end_time == 0) throw InputError(path, header.header_lines, "Paraver header: the trace's end time is 0");
  // The communicator lines ("c:..." / "i:...") after the header.
  for (int c = 1; c <= header.communicators; ++c) {
    if (!lines.Next(&line))
      throw InputError(path, lines.ErrorLine() + 1,
                       "Paraver trace: the header announces " + std::to_string(header.communicators) +
                           " communicator lines, but the file ends after " + std::to_string(c - 1));
    const char kind = line.empty() ? '\n' : line.front();
    if (kind != 'c' && kind != 'C' && kind != 'i' && kind != 'I')
      throw InputError(path, lines.ErrorLine(), "Paraver trace: communicator line " + std::to_string(c) + " of " +
                                                    std::to_string(header.communicators) +
                                                    " does not start with 'c:'");
  }
  ParaverNames names;
  if (!companions.pcf_path.empty()) ParseParaverPcf(companions.pcf_text, companions.pcf_path, &names);
  if (!companions.row_path.empty()) ParseParaverRow(companions.row_text, companions.row_path, &names);

  ParaverRecordSums sums(header, path);
  sums.Read(lines);
  RunStats run = sums.ToRun(names);
  run.app = AppName(StemOfTrace(path), run.procs);
  run.derivations["app"] = "Paraver trace's file name (its folder's for Extrae's TRACE.prv) without its process count";
  run.sources = {path};
  for (const std::string* companion : {&companions.pcf_path, &companions.row_path})
    if (!companion->empty()) run.sources.push_back(*companion);
  run.Derive();
  return run;
}

RunStats ReadParaverTrace(std::string_view text, const std::string& path, const ParaverCompanions& companions) {
  LineReader lines(text);
  return ReadParaverTrace(lines, path, companions);
}

RunStats ReadParaverTraceFile(const std::string& path, long long max_bytes, const ParaverCompanions& companions,
                              std::string* digest) {
  RunStats run;
  ReadLinesOfFile(path, max_bytes, kParaverMaxLineBytes,
                  [&](LineReader& lines) { run = ReadParaverTrace(lines, path, companions); }, digest);
  return run;
}

ParaverCompanions FindParaverCompanions(const std::string& path, double* bytes_read) {
  ParaverCompanions companions;
  const std::string format_path = WithoutCompressionSuffix(path);
  if (!EndsWith(ToLower(format_path), ".prv")) return companions;
  const std::string stem = format_path.substr(0, format_path.size() - 4);
  std::error_code error;
  if (std::filesystem::is_regular_file(stem + ".pcf", error)) {
    companions.pcf_path = stem + ".pcf";
    companions.pcf_text = ReadFile(companions.pcf_path, kCompanionMaxBytes);
  }
  if (std::filesystem::is_regular_file(stem + ".row", error)) {
    companions.row_path = stem + ".row";
    companions.row_text = ReadFile(companions.row_path, kCompanionMaxBytes);
  }
  if (bytes_read) *bytes_read += static_cast<double>(companions.pcf_text.size() + companions.row_text.size());
  return companions;
}

bool IsPartOfParaverTrace(const std::string& path) {
  const std::string lower = ToLower(path);
  if (!EndsWith(lower, ".pcf") && !EndsWith(lower, ".row")) return false;
  const std::string stem = path.substr(0, path.size() - 4);
  std::error_code error;
  for (const char* suffix : {".prv", ".prv.gz", ".prv.bz2", ".prv.xz", ".prv.zst", ".prv.lz4", ".prv.Z"})
    if (std::filesystem::exists(stem + suffix, error)) return true;
  return false;
}

}  // namespace qnm
