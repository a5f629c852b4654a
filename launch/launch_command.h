#pragma once
// An MPI job's launch command line, as timing tools record it (hyperfine's export, GNU time's
// "Command being timed", a job's submit line): "mpirun -np 16 --map-by ppr:8:node ./app in.dat",
// "srun -N 2 --ntasks-per-node=8 -c 4 ./app", "OMP_NUM_THREADS=4 mpiexec -n 8 -ppn 4 ./app". What the
// launcher's options ask for is what the run was: its processes, nodes, ranks per node and threads,
// and the program it ran with its arguments (docs/formats/launch-command.md).
//
// The launchers and the options read, as each launcher's manual names them:
//   Open MPI  mpirun, mpiexec, orterun, prterun, prun, oshrun: -n/-np/-c/--np N processes; -N N,
//             --npernode N, --map-by ppr:N:node[:pe=T] per node (pe= the CPUs of each process)
//   MPICH, Intel MPI  mpiexec(.hydra), mpirun: -n/-np N; -ppn N, -perhost N per node
//   MVAPICH   mpirun_rsh: -np N; VAR=value words before the program are its environment
//   Slurm     srun: -n N, --ntasks=N; -N N, --nodes=N; --ntasks-per-node=N; -c N, --cpus-per-task=N
//   Flux      flux run|submit (also `flux mini run`): the same names as srun's
//   Cray      aprun: -n N; -N N per node; -d N CPUs per process
//   IBM       jsrun: --np N, else -n N resource sets x -a N tasks each; -r N sets per host; -c N CPUs
//             per set (per process: / -a)
//   TACC      ibrun: -n N
// Threads per process are OMP_NUM_THREADS when the command sets it (before the launcher, or passed by
// it: -x, -genv, -env, --export, --env, -e, -E), else the CPUs the launcher gives each process.
// Short options may hold their value (-n4), long ones after '=' (--ntasks=4). An option the tables
// below do not know is taken to have no value, so the word after it may be taken for the program.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

struct LaunchCommand {
  std::string launcher;    // the launcher's name ("mpirun", "srun", "flux run"); empty when the command has none
  int procs = 0;           // MPI processes; 0 = the command does not say
  int nodes = 0;           // nodes; 0 = not said
  int ranks_per_node = 0;  // processes per node; 0 = not said
  int threads = 0;         // threads per process: OMP_NUM_THREADS, else the CPUs of each; 0 = not said
  int cpus_per_proc = 0;   // the CPUs the launcher gives each process (srun -c, aprun -d); 0 = not said
  // The words that said each count ("-np 16", "--ntasks-per-node=8", "OMP_NUM_THREADS=4"), for derivations.
  std::string procs_from, nodes_from, ranks_per_node_from, threads_from, cpus_per_proc_from;
  std::string program;                 // the program's base name ("app"); empty when the command has no word
  std::string program_path;            // the program's word as written ("./bin/app")
  std::vector<std::string> arguments;  // the words after the program
  std::string error;  // a count the launcher was given that is no whole number >= 1 ("-np x"); empty when none
};

/// The words of a shell command line: blanks split words, quotes ('…', "…") and backslashes hold
/// them together and are removed. Only the first command that runs a launcher is kept of a list
/// (`cd run && mpirun -np 4 ./a`, `a; b`, `a | b`), else the first; redirections (`> out`, `2>&1`) are
/// dropped. A quote left open closes at the end.
std::vector<std::string> ShellCommandWords(std::string_view command);

/// The index of the program among `command`'s words (not empty): the first word that is no launcher
/// of a program (sudo, env, time, numactl, taskset, nice, chrt, stdbuf), no container runtime with its
/// options and image (singularity/apptainer exec [--opt value] IMAGE), no container image run as a
/// program (IMAGE.sif), no option and no VAR=value; a shell running a script is the script; of a command
/// of such words alone, the first. MPI launchers are not passed over here (ParseLaunchCommand).
std::size_t ProgramWord(const std::vector<std::string>& command);

/// Reads a launch command line (above). A command without a launcher is a program run alone:
/// `launcher` empty and the counts 0, its program and arguments read all the same.
LaunchCommand ParseLaunchCommand(std::string_view command);

/// "mpirun: -np 16, OMP_NUM_THREADS=4" style summary of what set `count`: "<launcher> <from>".
std::string LaunchDerivation(const LaunchCommand& launch, const std::string& from);

}  // namespace qnm
