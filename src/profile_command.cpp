// `qnm-predict profile FILES... --name NAME -o B.json`: a machine profile from
// OSU micro-benchmark, IMB-MPI1 and HPC Challenge outputs (microbench/).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "microbench/network_profile.h"
#include "src/commands.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {

void AddProfileCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    std::string name, description, allocation = "block", output, paths = "slowest";
    int cores_per_node = 0, nodes = 0;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "profile",
      "Build a machine profile (latency, bandwidth, allreduce) from OSU micro-benchmark outputs "
      "(osu_latency, osu_bw, osu_allreduce), IMB-MPI1 outputs (PingPong, Allreduce) and HPC Challenge "
      "outputs (hpccoutf.txt: b_eff ping-pong)");
  sub->add_option("FILES", args->files, "OSU, IMB-MPI1 or HPCC output files, or folders of them")->required();
  sub->add_option("--name", args->name, "the profile's name (default: the output file's name)");
  sub->add_option("--description", args->description, "one line describing the machine");
  sub->add_option("--cores-per-node", args->cores_per_node, "cores per node (default: unknown)")
      ->check(CLI::Range(1, 1000000));
  sub->add_option("--nodes", args->nodes, "nodes available (default: unknown)")->check(CLI::Range(1, 10000000));
  sub->add_option("--allocation", args->allocation, "how ranks are placed: block (default), cyclic, one-per-node")
      ->check(CLI::IsMember({"block", "cyclic", "one-per-node"}));
  sub->add_option("--paths", args->paths,
                  "several latency or bandwidth outputs: slowest (default; different paths, intra- and inter-node "
                  "or node pairs: the network is the slowest) or median (repetitions of one path: the middle one)")
      ->check(CLI::IsMember({"slowest", "median"}));
  sub->add_option("-o,--output", args->output, "write the profile JSON to FILE (atomically) instead of stdout");
  sub->callback([args] {
    NetworkProfileOptions options;
    options.name = args->name;
    if (options.name.empty() && !args->output.empty()) {
      std::string base = args->output.substr(args->output.find_last_of('/') + 1);
      options.name = base.substr(0, base.rfind(".json") == std::string::npos ? base.size() : base.rfind(".json"));
    }
    if (options.name.empty()) throw InputError("--name", 0, "give the profile a name (or an -o file)");
    options.description = args->description;
    options.cores_per_node = args->cores_per_node;
    options.nodes = args->nodes;
    ParseAllocation(args->allocation, &options.allocation);
    options.paths = args->paths == "median" ? PathChoice::kMedian : PathChoice::kSlowest;
    RefuseOutputOverInputs(args->output, args->files);
    std::vector<std::string> walked;
    const std::vector<MicroBenchmarkTable> tables = ReadMicroBenchmarkPaths(args->files, &walked);
    std::vector<std::string> notes;
    MachineProfile profile = BuildNetworkProfile(tables, options, &notes);
    notes.insert(notes.begin(), walked.begin(), walked.end());
    WriteOutput(args->output, MachineProfileToJson(profile));
    for (const std::string& note : notes) std::cerr << "qnm-predict: profile: " << note << "\n";
  });
}

}  // namespace qnm::cli
