#include "ingest/run_archive.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

#include "app_outputs/wrf_rsl.h"
#include "cube/cube_archive.h"
#include "cube/cube_profile.h"
#include "hpctoolkit/hpctoolkit_database.h"
#include "profiles/mpitrace_profile.h"
#include "profiles/tau_profile.h"
#include "textio/compressed_file.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {

namespace fs = std::filesystem;

bool IsArchiveOfRuns(const std::string& path, std::string_view head) {
  const std::string lower = ToLower(WithoutCompressionSuffix(path));
  if (IsZipHead(head)) return EndsWith(lower, ".zip");  // not an office document or a Java archive
  return IsTarHead(head) && !LooksLikeCubeProfile(head) && !EndsWith(lower, ".cubex");
}

void ArchivedTraces::Add(const std::string& name, std::string bytes) {
  const fs::path relative = fs::path(name).lexically_normal();
  if (relative.empty() || relative.is_absolute() || *relative.begin() == "..")
    throw InputError(archive_path_ + "/" + name, 0, "a trace member named outside its archive");
  if (!folder_) {
    std::error_code unset;
    const fs::path temp = fs::temp_directory_path(unset);
    folder_ = std::make_unique<TempDirectory>(unset ? "/tmp" : temp.string(), "qnm-archived-trace-");
  }
  const fs::path target = fs::path(folder_->path()) / relative;
  std::error_code error;
  fs::create_directories(target.parent_path(), error);
  std::ofstream out(target, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (error || !out)
    throw InputError(archive_path_ + "/" + name, 0, "cannot unpack the trace into " + folder_->path());
  if (EndsWith(ToLower(name), ".otf2") || relative.filename() == "profile.0.0.0" ||
      relative.filename() == "experiment.xml" || relative.filename() == "meta.db")
    anchors_.push_back({archive_path_ + "/" + relative.string(), target.string(), std::move(bytes)});
  // A Paraver trace (X.prv, or compressed: ingest unpacks it as it reads it) is read with the X.pcf
  // and X.row unpacked beside it.
  if (EndsWith(ToLower(WithoutCompressionSuffix(name)), ".prv"))
    anchors_.push_back({archive_path_ + "/" + relative.string(), target.string(), std::move(bytes)});
}

std::string ArchivedTraces::InArchive(const std::string& text) const {
  if (!folder_) return text;
  std::string out = text;
  for (std::size_t at = out.find(folder_->path()); at != std::string::npos;
       at = out.find(folder_->path(), at + archive_path_.size()))
    out.replace(at, folder_->path().size(), archive_path_);
  return out;
}

void ForEachArchivedFile(std::string_view bytes, const std::string& path, long long max_member_bytes,
                         const std::function<void(ArchivedFile)>& visit,
                         ArchivedTraces* traces, std::size_t* shared_left) {
  ArchiveLimits limits;
  limits.max_member_bytes = static_cast<std::size_t>(max_member_bytes);
  limits.shared_left = shared_left;
  const auto visit_members = IsZipHead(bytes) ? VisitZipMembers : VisitTarMembers;
  // First the names (no member is kept): an OTF2 trace is read through its anchor X.otf2, and X.def and
  // the X/ folder are its own, not runs (as ingest's walk of a folder on disk has it).
  // An HPCToolkit database is read through its experiment.xml; its metric-db files and src/ are its own.
  // A database of format 4 is read through its meta.db and profile.db; cct.db, trace.db, FORMATS.md,
  // metrics/ and src/ are its own and not unpacked (the traces may be large).
  // WRF's rsl files of a run: process 0's is the run, the other tasks' files are its own (wrf_rsl.h).
  std::vector<std::string> trace_stems, databases, format4, paraver_stems;
  std::set<std::string> rsl_process_zero;  // "<folder>/rsl.error.0000", "<folder>/rsl.out.0000" (less compression)
  std::set<std::string> mpitrace_profiles;  // "<folder>/mpi_profile.<jobid>.<rank>"
  visit_members(bytes, path, limits, [&](const std::string& name) {
    if (StartsWith(fs::path(name).filename().string(), "mpi_profile.")) mpitrace_profiles.insert(name);
    if (const std::string plain = WithoutCompressionSuffix(name);
        fs::path(plain).filename() == "rsl.error.0000" || fs::path(plain).filename() == "rsl.out.0000")
      rsl_process_zero.insert(plain);
    if (EndsWith(ToLower(name), ".otf2")) trace_stems.push_back(name.substr(0, name.size() - 5));
    if (fs::path(name).filename() == "experiment.xml") databases.push_back(fs::path(name).parent_path().string());
    if (fs::path(name).filename() == "meta.db") format4.push_back(fs::path(name).parent_path().string());
    if (const std::string plain = WithoutCompressionSuffix(name); EndsWith(ToLower(plain), ".prv"))
      paraver_stems.push_back(plain.substr(0, plain.size() - 4));
    return false;
  }, {});
  auto in_folder = [](const std::string& name, const std::string& folder, const char* sub) {
    return StartsWith(name, (folder.empty() ? "" : folder + "/") + sub);
  };
  auto in_database = [&](const std::string& name) {
    const fs::path member(name);
    MetricDbName metric_db;
    for (const std::string& folder : databases)
      if (member.parent_path() == folder ? member.filename() == "experiment.xml" ||
                                               ParseMetricDbName(name, &metric_db)
                                         : in_folder(name, folder, "src/"))
        return true;
    return false;
  };
  // 1: a format-4 member to unpack (meta.db, profile.db), 2: one of its own to leave, 0: none.
  auto in_format4 = [&](const std::string& name) {
    const fs::path member(name);
    const std::string file = member.filename().string();
    for (const std::string& folder : format4) {
      if (member.parent_path() == folder && (file == "meta.db" || file == "profile.db")) return 1;
      if (member.parent_path() == folder && (file == "cct.db" || file == "trace.db" || file == "FORMATS.md")) return 2;
      if (in_folder(name, folder, "src/") || in_folder(name, folder, "metrics/")) return 2;
    }
    return 0;
  };
  auto of_a_trace = [&](const std::string& name) {
    int node = 0, context = 0, thread = 0;
    if (ParseTauProfileName(name, &node, &context, &thread)) return true;  // a TAU profile folder's file
    if (in_database(name)) return true;
    for (const std::string& stem : paraver_stems)  // a Paraver trace, its .pcf and .row
      if (StartsWith(name, stem + ".") &&
          (EndsWith(ToLower(WithoutCompressionSuffix(name)), ".prv") || name == stem + ".pcf" || name == stem + ".row"))
        return true;
    for (const std::string& stem : trace_stems)
      if (name == stem + ".otf2" || name == stem + ".def" || name == stem + ".qnm-manifest" ||
          StartsWith(name, stem + "/"))
        return true;
    return false;
  };
  visit_members(bytes, path, limits, {}, [&](const std::string& name, std::string contents) {
    std::string_view inner = name;
    while (StartsWith(inner, "./")) inner.remove_prefix(2);
    while (StartsWith(inner, "/")) inner.remove_prefix(1);
    if (inner.empty()) return;
    if (const int part = in_format4(name); part != 0) {
      if (part == 1 && traces) traces->Add(std::string(inner), std::move(contents));
      return;
    }
    if (IsMpitraceCompanion(name, [&](const std::string& zero) {
          return mpitrace_profiles.count((fs::path(name).parent_path() / zero).string()) > 0;
        }))
      return;
    if (IsWrfRslCompanion(name, [&](const std::string& zero) {
          return rsl_process_zero.count((fs::path(name).parent_path() / zero).string()) > 0;
        }))
      return;
    if (of_a_trace(name)) {
      if (traces) traces->Add(std::string(inner), std::move(contents));
      return;
    }
    visit(ArchivedFile{path + "/" + std::string(inner), std::move(contents)});
  });
}

}  // namespace qnm
