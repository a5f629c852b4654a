#include "pipeline/extrap_export.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "util/text_format.h"
#include "util/utf8_text.h"

namespace qnm {
namespace {

// Shortest text that reads back as the same double (Extra-P and our reader parse it).
std::string Number(double value) {
  for (const char* format : {"%.15g", "%.16g"}) {
    std::string text = FormatDouble(format, value);
    if (std::strtod(text.c_str(), nullptr) == value) return text;
  }
  return FormatDouble("%.17g", value);
}

class Table {
 public:
  explicit Table(std::size_t points) : points_(points) {}
  void Add(const std::string& callpath, const std::string& metric, std::size_t point, double value) {
    auto key = std::make_pair(callpath, metric);
    auto it = index_.find(key);
    if (it == index_.end()) {
      it = index_.emplace(key, rows_.size()).first;
      rows_.push_back(ExportedMeasurement{callpath, metric, std::vector<std::vector<double>>(points_)});
    }
    rows_[it->second].values[point].push_back(value);
  }
  std::vector<ExportedMeasurement>& rows() { return rows_; }

 private:
  std::size_t points_;
  std::map<std::pair<std::string, std::string>, std::size_t> index_;
  std::vector<ExportedMeasurement> rows_;
};

}  // namespace

ExtrapExport BuildExtrapExport(const Series& series, const ExtrapExportOptions& options) {
  ExtrapExport out;
  out.strong_scaling = options.strong_scaling;
  const RunStats* first = series.groups.empty() || series.groups[0].runs.empty() ? nullptr : &series.groups[0].runs[0];
  const std::string root = first && !first->app.empty() ? first->app : "main";
  out.identity = {{"series", series.name}};
  if (first) {
    if (!first->app.empty()) out.identity.emplace_back("app", first->app);
    if (!first->problem_class.empty()) out.identity.emplace_back("class", first->problem_class);
    out.identity.emplace_back("threads_per_proc", std::to_string(first->threads_per_proc));
    out.identity.emplace_back("machine", first->machine.empty() ? "unknown" : first->machine);
    if (!first->variant.empty()) out.identity.emplace_back("variant", first->variant);
  }
  out.identity.emplace_back("scaling", options.strong_scaling ? "strong" : "none");
  out.identity.emplace_back(
      "values", options.strong_scaling
                    ? "summed over the p processes: time = run time x p (process-seconds), counts = per process x p"
                    : "per process: time = run time (s), counts = mean per process");

  Table table(series.groups.size());
  bool capped = false, sites_dropped = false;
  for (std::size_t g = 0; g < series.groups.size(); ++g) {
    const RunGroup& group = series.groups[g];
    out.points.push_back(group.procs);
    const double scale = options.strong_scaling ? group.procs : 1.0;
    for (const RunStats& run : group.runs) {
      const double total = run.TotalTimeSeconds();
      if (!Known(total)) continue;
      table.Add(root, "time", g, total * scale);
      if (Known(run.messages_per_rank)) table.Add(root, "messages", g, run.messages_per_rank * scale);
      if (Known(run.bytes_sent_per_rank)) table.Add(root, "bytes_sent", g, run.bytes_sent_per_rank * scale);
      if (!Known(run.mpi_time_mean_s)) continue;
      // One definition down the tree: MPI as measured, compute the rest of the
      // run time, so MPI + compute = the root (never more, whichever tool timed it).
      double mpi = run.mpi_time_mean_s;
      if (mpi > total) {
        mpi = total;
        capped = true;
      }
      table.Add(root + "->MPI", "time", g, mpi * scale);
      if (Known(run.mpi_calls_per_rank)) table.Add(root + "->MPI", "visits", g, run.mpi_calls_per_rank * scale);
      table.Add(root + "->compute", "time", g, (total - mpi) * scale);
      // MPI functions: call sites summed per function, mean per process (x p when strong).
      struct PerFunction {
        double time_s = 0, calls = 0, bytes = 0;
        bool calls_known = true, bytes_known = true;
      };
      std::map<std::string, PerFunction> functions;
      double sites_s = 0;
      bool sites_known = run.procs > 0 && !run.call_sites.empty();
      for (const CallSiteStats& site : run.call_sites) {
        if (!Known(site.total_time_s)) {
          sites_known = false;
          break;
        }
        PerFunction& f = functions["MPI_" + site.mpi_function];
        f.time_s += site.total_time_s / run.procs;
        sites_s += site.total_time_s / run.procs;
        if (Known(site.total_calls)) f.calls += site.total_calls / run.procs;
        else f.calls_known = false;
        if (Known(site.total_bytes_sent)) f.bytes += site.total_bytes_sent / run.procs;
        else f.bytes_known = false;
      }
      // Children must not exceed "MPI". mpiP rounds the MPI time and every
      // call site's time on its own, so their sum can lie a little above the
      // MPI time (0.2 % on the bundled series): within 1 % the functions share
      // the MPI time in proportion to their call-site times; beyond that the
      // report disagrees with itself and keeps only the MPI total.
      double share = 1;
      if (sites_known && sites_s > mpi) {
        if (sites_s <= mpi * 1.01) {
          share = mpi / sites_s;
        } else {
          sites_known = false;
          sites_dropped = true;
        }
      }
      if (!sites_known) continue;
      for (const auto& [function, f] : functions) {
        table.Add(root + "->MPI->" + function, "time", g, f.time_s * share * scale);
        if (f.calls_known) table.Add(root + "->MPI->" + function, "visits", g, f.calls * scale);
        if (f.bytes_known && f.bytes > 0) table.Add(root + "->MPI->" + function, "bytes_sent", g, f.bytes * scale);
      }
    }
  }
  if (capped) out.notes.push_back("MPI time above the run time at some point: written as the run time (compute 0)");
  if (sites_dropped) out.notes.push_back("MPI call sites adding up to more than 1 % above the MPI time: per-function paths left out");
  // Extra-P needs a value at every point: keep only what is measured at all of them.
  std::vector<ExportedMeasurement> kept;
  for (ExportedMeasurement& m : table.rows()) {
    if (std::all_of(m.values.begin(), m.values.end(), [](auto& v) { return !v.empty(); })) kept.push_back(std::move(m));
    else if (m.metric == "time" && m.callpath.find("->MPI->") == std::string::npos)
      out.notes.push_back(m.callpath + " " + m.metric + " is not known at every p: left out");
  }
  // Grouped by call path (the text format's REGION blocks), root first.
  std::stable_sort(kept.begin(), kept.end(), [&](const ExportedMeasurement& a, const ExportedMeasurement& b) {
    auto rank = [&](const std::string& path) {
      return path == root ? 0 : path == root + "->MPI" ? 1 : path == root + "->compute" ? 2 : 3;
    };
    if (rank(a.callpath) != rank(b.callpath)) return rank(a.callpath) < rank(b.callpath);
    return a.callpath < b.callpath;
  });
  out.measurements = std::move(kept);
  return out;
}

std::string WriteExportText(const ExtrapExport& experiment) {
  std::string out = "# qnm-predict export: Extra-P text format over p (docs/formats/extrap.md)\n";
  for (const auto& [key, value] : experiment.identity) out += "# " + key + ": " + value + "\n";
  for (const std::string& note : experiment.notes) out += "# note: " + note + "\n";
  out += "PARAMETER p\nPOINTS";
  for (int point : experiment.points) out += " (" + std::to_string(point) + ")";
  out += "\n";
  std::string region;
  for (const ExportedMeasurement& m : experiment.measurements) {
    if (m.callpath != region) out += "\nREGION " + (region = m.callpath) + "\n";
    out += "METRIC " + m.metric + "\n";
    for (const std::vector<double>& values : m.values) {
      out += "DATA";
      for (double value : values) out += " " + Number(value);
      out += "\n";
    }
  }
  return out;
}

std::string WriteExportJsonLines(const ExtrapExport& experiment) {
  std::string out;
  bool first = true;
  for (const ExportedMeasurement& m : experiment.measurements)
    for (std::size_t p = 0; p < experiment.points.size(); ++p)
      for (double value : m.values[p]) {
        nlohmann::json line = {{"params", {{"p", experiment.points[p]}}},
                               {"callpath", ValidUtf8(m.callpath)},
                               {"metric", m.metric},
                               {"value", value}};
        if (first) {  // Extra-P reads params/callpath/metric/value and ignores other keys
          nlohmann::json identity;
          for (const auto& [key, text] : experiment.identity) identity[key] = ValidUtf8(text);
          line["experiment"] = identity;
          first = false;
        }
        out += line.dump() + "\n";
      }
  return out;
}

}  // namespace qnm
