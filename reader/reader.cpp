#include "reader/reader.h"

#include <algorithm>
#include <set>
#include <utility>

#include "util/input_error.h"

namespace qnm {

void ApplyFileName(const FileNameInfo& info, RunStats* run) {
  if (run->procs == 0 && info.mpip_tasks > 0) {  // concise mpiP reports have no per-rank rows
    run->procs = info.mpip_tasks;
    run->derivations["procs"] = "mpiP file name <app>.<tasks>.<pid>.<index>.mpiP";
  }
  run->data_set = info.data_set;
  run->variant = info.Variant();
  if (run->nodes == 0 && info.nodes_word > 0)  // the run's own files did not say
    run->SetNodes(info.nodes_word, "file name '" + info.nodes_token + "'");
  if (run->app.empty()) {
    std::string app, problem_class;
    if (!info.mpip_app.empty() && SplitNpbBinaryName(info.mpip_app, &app, &problem_class)) {
      run->app = app;
      run->problem_class = problem_class;
      run->derivations["app"] = run->derivations["problem_class"] = "mpiP file name: " + info.mpip_app;
    } else if (!info.app.empty()) {
      run->app = info.app;
      run->problem_class = info.problem_class;
      run->derivations["app"] = run->derivations["problem_class"] = "NPB name in the file name: " + info.original_name;
    } else if (!info.mpip_app.empty()) {
      run->app = info.mpip_app;
      run->derivations["app"] = "mpiP file name: " + info.mpip_app;
    }
  }
  if (run->threads_per_proc == 1 && info.threads_total > 0 && run->procs > 0 &&
      run->derivations.count("threads_per_proc") == 0 && info.threads_total % run->procs == 0) {
    run->threads_per_proc = info.threads_total / run->procs;
    run->derivations["threads_per_proc"] = "file name th<total threads> / procs";
  }
}

void AppendConfiguration(std::string words, RunStats* run) {
  std::replace(words.begin(), words.end(), ' ', '-');
  run->variant = run->variant.empty() ? words : std::string(run->variant) + "-" + words;
}

void DropNameNodesOfDifferingRuns(const FileNameInfo& info, std::vector<RunStats>* runs) {
  if (info.nodes_word <= 0) return;
  std::set<int> procs;
  for (const RunStats& run : *runs) procs.insert(run.procs);
  if (procs.size() < 2) return;
  for (RunStats& run : *runs)
    if (run.nodes == info.nodes_word) {
      run.nodes = 0;
      run.ranks_per_node = 0;
      run.derivations.erase("nodes");
      run.derivations.erase("ranks_per_node");
    }
}

void UnfinishedRuns::Finish(const std::string& path, std::size_t total, const std::string& what,
                            ReaderOutput* output) const {
  if (output->runs.empty()) throw InputError(path, first_line, first_why);
  if (count > 0)
    output->notes.push_back(path + ": " + std::to_string(count) + " of its " + std::to_string(total) + " " + what +
                            " (the first at line " + std::to_string(first_line) + ": " + first_why + "): not read");
}

ReaderOutput OneRunOutput(RunStats run, const FileNameInfo& info) {
  ApplyFileName(info, &run);
  ReaderOutput output;
  output.runs.push_back(std::move(run));
  return output;
}

ReaderOutput AppOutputRun(RunStats run, const FileNameInfo& info) {
  ReaderOutput output = OneRunOutput(std::move(run), info);
  output.role = PairingRole::kAppOutput;
  return output;
}

ReaderOutput FolderRunOutput(RunStats run, const FileNameInfo& info, const std::string& folder_name,
                             const std::string& how, double bytes_beside) {
  if (run.app.empty()) {
    run.app = folder_name;
    run.derivations["app"] = how;
  }
  ReaderOutput output = OneRunOutput(std::move(run), info);
  output.bytes_beside = bytes_beside;
  return output;
}

}  // namespace qnm
