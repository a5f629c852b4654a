// OTF-CPT (On-the-fly critical-path tool, RWTH-HPC) text output
// (docs/formats/otf-cpt.md): a "[pop] key:value:..." line, "MPI_*coll: <n>"
// counts, "=> Label (in s): value" results and the POP metrics tree
// ("  MPI Parallel Efficiency:          0.834923"). OTF-CPT reports no MPI time
// as such; POP defines MPI Parallel Efficiency as the mean time outside MPI
// over the run time, so the mean MPI time per process is runtime x (1 - MPI PE).
#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "profiles/profile_readers.h"
#include "textio/compressed_file.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

struct CptValue {
  int line = 0;
  double value = 0;
};

// "Load Balance" -> "pop_load_balance": the details key of a POP factor.
std::string PopKey(const std::string& label) {
  std::string key = "pop_";
  for (char c : label) key += c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

}  // namespace

bool SniffOtfCptReport(const std::string&, std::string_view text) {
  return text.find("CritPath Analysis Tool results") != std::string_view::npos &&
         text.find("POP metrics") != std::string_view::npos;
}

ReaderOutput ReadOtfCptReport(const ReaderInput& input) {
  const std::string& path = input.path;
  std::map<std::string, CptValue> values;  // "=> " results, POP factors, MPI counts, by label
  std::vector<std::string_view> lines = SplitLines(input.text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = Trim(lines[i]);
    if (line.empty() || line.front() == '-' || StartsWith(line, "[pop]")) continue;  // [pop] repeats the tree below
    if (StartsWith(line, "=> ")) line.remove_prefix(3);
    std::size_t colon = line.rfind(':');
    if (colon == std::string_view::npos) continue;
    std::string label(Trim(line.substr(0, colon)));
    std::string_view text = Trim(line.substr(colon + 1));
    auto number = ParseDouble(text);
    if (!number || !(*number >= 0) || std::isinf(*number))
      throw InputError(path, static_cast<int>(i + 1), "'" + label + "' needs a non-negative number, got '" +
                                                          std::string(text.substr(0, 40)) + "'");
    values[label] = CptValue{static_cast<int>(i + 1), *number};
  }
  auto need = [&](const std::string& label) -> const CptValue& {
    auto it = values.find(label);
    if (it == values.end()) throw InputError(path, 0, "OTF-CPT output without its '" + label + "' line");
    return it->second;
  };
  auto count = [&](const std::string& label) {
    const CptValue& entry = need(label);
    if (entry.value < 1 || entry.value != static_cast<double>(static_cast<int>(entry.value)))
      throw InputError(path, entry.line, "'" + label + "' needs a positive integer");
    return static_cast<int>(entry.value);
  };

  RunStats run;
  run.sources.push_back(path);
  run.tool_version = "OTF-CPT";
  run.procs = count("Number of processes");
  const int threads = count("Number of threads");  // over all processes
  if (threads % run.procs != 0)
    throw InputError(path, need("Number of threads").line, "threads (" + std::to_string(threads) +
                                                              ") are not a multiple of the processes");
  run.threads_per_proc = threads / run.procs;
  run.derivations["procs"] = "OTF-CPT 'Number of processes'";
  run.derivations["threads_per_proc"] = "OTF-CPT 'Number of threads' / 'Number of processes'";
  // OTF-CPT writes "<data_path>-<procs>x<threads>.txt": the stem is the name
  // the user gave the run (the tool does not record the application).
  std::string name = BaseName(WithoutCompressionSuffix(path));
  std::string suffix = "-" + std::to_string(run.procs) + "x" + std::to_string(run.threads_per_proc) + ".txt";
  run.app = EndsWith(name, suffix) ? name.substr(0, name.size() - suffix.size()) : name;
  run.derivations["app"] = "OTF-CPT data_path stem of the file name";

  run.wall_time_s = need("Total runtime (in s)").value;
  run.app_time_mean_s = run.wall_time_s;
  run.derivations["wall_time_s"] = run.derivations["app_time_mean_s"] = "OTF-CPT 'Total runtime'";
  run.compute_time_mean_s = need("Average Computation (in s)").value;
  const double compute_max = need("Maximum Computation (in s)").value;
  if (run.compute_time_mean_s > compute_max || compute_max > run.wall_time_s * (1 + 1e-9))
    throw InputError(path, need("Maximum Computation (in s)").line,
                     "average computation > maximum computation, or maximum > total runtime");
  run.derivations["compute_time_mean_s"] = "OTF-CPT 'Average Computation' (over threads)";
  run.details["compute_time_max_s"] = FormatDouble("%.10g", compute_max);
  // The imbalance measure POP calls load balance: average / maximum computation.
  run.details["compute_load_balance"] = FormatDouble("%.6f", run.compute_time_mean_s / compute_max);
  const CptValue& mpi_pe = need("MPI Parallel Efficiency");
  if (mpi_pe.value > 1) throw InputError(path, mpi_pe.line, "'MPI Parallel Efficiency' above 1");
  run.mpi_time_mean_s = run.wall_time_s * (1 - mpi_pe.value);
  run.derivations["mpi_time_mean_s"] = "OTF-CPT: Total runtime x (1 - MPI Parallel Efficiency) (POP definition)";
  if (values.count("MPI_*coll")) {
    // Collective calls over all processes (the count grows with P at a fixed count per process).
    run.details["mpi_collective_calls_total"] = FormatDouble("%.0f", values.at("MPI_*coll").value);
    run.details["mpi_collective_calls_per_proc"] = FormatDouble("%.6g", values.at("MPI_*coll").value / run.procs);
  }
  for (const char* factor : {"Parallel Efficiency", "Load Balance", "Communication Efficiency",
                             "Serialisation Efficiency", "Transfer Efficiency", "MPI Parallel Efficiency",
                             "MPI Load Balance", "MPI Communication Efficiency", "MPI Serialisation Efficiency",
                             "MPI Transfer Efficiency", "OMP Parallel Efficiency", "OMP Load Balance",
                             "OMP Communication Efficiency", "OMP Serialisation Efficiency", "OMP Transfer Efficiency"})
    if (values.count(factor)) run.details[PopKey(factor)] = FormatDouble("%.6f", values.at(factor).value);
  run.details["critical_path_computation_max_s"] = FormatDouble("%.10g", need("Max crit. computation (in s)").value);
  run.Derive();
  return OneRunOutput(std::move(run), input.name);
}

}  // namespace qnm
