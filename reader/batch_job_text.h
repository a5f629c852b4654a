#pragma once
// Words of batch systems' job records (Slurm's sacct, PBS's qstat -f): elapsed times as they print
// them, and job names and command lines without the words that name a run's own size, so that the
// runs of one campaign at several sizes (`lmp-64`, `lmp-128`) share one name.
#include <optional>
#include <string>
#include <string_view>

namespace qnm {

/// Seconds of a clock time "[D-]HH:MM:SS", "HH:MM:SS" (hours past 24, as PBS prints "72:00:00"),
/// "MM:SS", each with an optional fraction of the last field ("00:01.234", as sacct's TotalCPU);
/// none when the text is not one.
std::optional<double> ClockTimeSeconds(std::string_view text);

/// A job name without the words that name the run's own process or node count: "lmp-64" of a
/// 64-process run -> "lmp", "wrf_4nodes_n128" -> "wrf", "bench" -> "bench".
std::string JobNameWithoutCounts(const std::string& name, int procs, int nodes);

/// The arguments `program` was started with in an srun command line (sacct's SubmitLine of a step:
/// "srun --mpi=pmix -n 4 ./lmp -in in.lj -log log.64"), each without the words naming the run's own
/// process or node count: "-in in.lj -log log". Empty when the line does not start `program`.
std::string ProgramArguments(const std::string& submit_line, const std::string& program, int procs, int nodes);

}  // namespace qnm
