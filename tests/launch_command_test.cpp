// Launch command lines (launch/launch_command.h): the processes, layout, threads and program each
// launcher's options give, as the launchers' manuals name them (Open MPI's mpirun(1), MPICH's and Intel
// MPI's mpiexec, Slurm's srun(1), Flux's flux-run(1), Cray's aprun(1), IBM's jsrun, MVAPICH's mpirun_rsh),
// the shell words around them, and what is not a count.
#include "launch/launch_command.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {

using qnm::LaunchCommand;
using qnm::ParseLaunchCommand;

std::vector<std::string> Words(std::initializer_list<const char*> words) { return {words.begin(), words.end()}; }

}  // namespace

TEST_CASE("Launch commands: shell words, lists and redirections", "[launch]") {
  CHECK(qnm::ShellCommandWords("mpirun -np 4 ./a 'in put.dat' \"x \\\"y\\\"\" z\\ w") ==
        Words({"mpirun", "-np", "4", "./a", "in put.dat", "x \"y\"", "z w"}));
  // The command that runs a launcher, of a list; redirections and their targets dropped.
  CHECK(qnm::ShellCommandWords("cd run && mpirun -np 8 ./app > out.txt 2>&1; echo done") ==
        Words({"mpirun", "-np", "8", "./app"}));
  CHECK(qnm::ShellCommandWords("./app < in.dat | tee log &>all") == Words({"./app"}));
  CHECK(qnm::ShellCommandWords("srun -n 2 ./a 2> err.log >>out.log") == Words({"srun", "-n", "2", "./a"}));
  CHECK(qnm::ShellCommandWords("echo 'open").size() == 2);  // a quote left open closes at the end
  CHECK(qnm::ShellCommandWords("").empty());
}

TEST_CASE("Launch commands: Open MPI, MPICH and Intel MPI", "[launch]") {
  LaunchCommand a = ParseLaunchCommand("mpirun --allow-run-as-root --oversubscribe -np 16 ./stencil 4000000 100");
  CHECK(a.launcher == "mpirun");
  CHECK(a.procs == 16);
  CHECK(a.procs_from == "-np 16");
  CHECK(a.program == "stencil");
  CHECK(a.program_path == "./stencil");
  CHECK(a.arguments == Words({"4000000", "100"}));
  CHECK(a.threads == 0);
  // Open MPI's layout options; a value option (--bind-to core) is not the program.
  a = ParseLaunchCommand("mpirun -n 64 --map-by ppr:16:node:pe=4 --bind-to core -x OMP_NUM_THREADS=4 lmp -in in.lj");
  CHECK(a.procs == 64);
  CHECK(a.ranks_per_node == 16);
  CHECK(a.ranks_per_node_from == "--map-by ppr:16:node:pe=4");
  CHECK(a.threads == 4);
  CHECK(a.threads_from == "OMP_NUM_THREADS=4");
  CHECK(a.program == "lmp");
  CHECK(a.arguments == Words({"-in", "in.lj"}));
  a = ParseLaunchCommand("mpiexec -N 8 --mca btl self,vader -c 32 /opt/bin/app");
  CHECK(a.procs == 32);  // Open MPI's -c is -np
  CHECK(a.ranks_per_node == 8);
  CHECK(a.program == "app");
  a = ParseLaunchCommand("mpirun --map-by slot:PE=2 --np=6 ./a");
  CHECK(a.procs == 6);
  CHECK(a.procs_from == "--np=6");
  CHECK(a.threads == 2);  // the CPUs of each process, when no OMP_NUM_THREADS says
  CHECK(a.threads_from == "--map-by slot:PE=2 (CPUs per process)");
  // MPICH / Intel MPI: -ppn, -genv NAME VALUE.
  a = ParseLaunchCommand("mpiexec.hydra -n 96 -ppn 48 -genv OMP_NUM_THREADS 2 -f hosts ./xhpcg --nx=104");
  CHECK(a.launcher == "mpiexec.hydra");
  CHECK(a.procs == 96);
  CHECK(a.ranks_per_node == 48);
  CHECK(a.threads == 2);
  CHECK(a.program == "xhpcg");
  CHECK(a.arguments == Words({"--nx=104"}));
  // The environment set before the launcher, and wrappers on either side of it.
  a = ParseLaunchCommand("OMP_NUM_THREADS=8 time -f %e mpirun -np 4 numactl -N 0 -m 0 ./bin/app -s 48");
  CHECK(a.procs == 4);
  CHECK(a.threads == 8);
  CHECK(a.program == "app");
  CHECK(a.arguments == Words({"-s", "48"}));
  a = ParseLaunchCommand("mpirun_rsh -np 8 -hostfile hosts OMP_NUM_THREADS=2 MV2_ENABLE_AFFINITY=0 ./a.out");
  CHECK(a.procs == 8);
  CHECK(a.threads == 2);
  CHECK(a.program == "a.out");
  // A launcher inside a shell's -c string, and a container between the launcher and the program.
  a = ParseLaunchCommand("sh -c 'mpirun -np 3 ./stencil 2000000 100'");
  CHECK(a.procs == 3);
  CHECK(a.program == "stencil");
  a = ParseLaunchCommand("mpirun -np 2 singularity exec --bind /scratch lammps.sif lmp -in in.rhodo");
  CHECK(a.program == "lmp");
  CHECK(a.arguments == Words({"-in", "in.rhodo"}));
}

TEST_CASE("Launch commands: Slurm, Flux, Cray, IBM and TACC launchers", "[launch]") {
  LaunchCommand a = ParseLaunchCommand("srun -N 4 --ntasks-per-node=32 -c 2 --cpu-bind cores ./app in.dat");
  CHECK(a.launcher == "srun");
  CHECK(a.procs == 128);
  CHECK(a.procs_from == "-N 4 x --ntasks-per-node=32");
  CHECK(a.nodes == 4);
  CHECK(a.ranks_per_node == 32);
  CHECK(a.threads == 2);
  CHECK(a.program == "app");
  CHECK(a.arguments == Words({"in.dat"}));
  CHECK(a.cpus_per_proc == 2);
  CHECK(a.cpus_per_proc_from == "-c 2");
  a = ParseLaunchCommand("srun -n64 --export=ALL,OMP_NUM_THREADS=3 -c4 --exclusive ./app");
  CHECK(a.procs == 64);
  CHECK(a.threads == 3);  // OMP_NUM_THREADS before the CPUs per task
  CHECK(a.cpus_per_proc == 4);
  CHECK(a.program == "app");
  a = ParseLaunchCommand("srun -N 2-4 -n 16 ./app");  // a range of nodes is no count
  CHECK(a.procs == 16);
  CHECK(a.nodes == 0);
  CHECK(a.error.empty());
  a = ParseLaunchCommand("flux run -N2 -n 8 --cores-per-task=4 ./app");
  CHECK(a.launcher == "flux run");
  CHECK(a.procs == 8);
  CHECK(a.nodes == 2);
  CHECK(a.threads == 4);
  a = ParseLaunchCommand("flux mini submit -n 4 ./app");
  CHECK(a.launcher == "flux submit");
  CHECK(a.procs == 4);
  a = ParseLaunchCommand("aprun -n 256 -N 32 -d 2 -e OMP_NUM_THREADS=2 ./wrf.exe");
  CHECK(a.procs == 256);
  CHECK(a.ranks_per_node == 32);
  CHECK(a.threads == 2);
  CHECK(a.program == "wrf.exe");
  a = ParseLaunchCommand("jsrun -n 12 -a 7 -c 42 -r 2 -g 6 ./app");  // 12 resource sets of 7 tasks
  CHECK(a.procs == 84);
  CHECK(a.ranks_per_node == 14);
  CHECK(a.threads == 6);
  CHECK(a.program == "app");
  a = ParseLaunchCommand("jsrun --np 24 ./app");
  CHECK(a.procs == 24);
  a = ParseLaunchCommand("ibrun -n 56 -o 0 ./app");
  CHECK(a.procs == 56);
}

TEST_CASE("Launch commands: a program alone, and what is no count", "[launch]") {
  LaunchCommand a = ParseLaunchCommand("./stencil 2000000 100");
  CHECK(a.launcher.empty());
  CHECK(a.procs == 0);
  CHECK(a.program == "stencil");
  CHECK(a.arguments == Words({"2000000", "100"}));
  a = ParseLaunchCommand("bash run.sh 16");
  CHECK(a.program == "run.sh");
  CHECK(a.arguments == Words({"16"}));
  a = ParseLaunchCommand("taskset -c 0-3 ./app");
  CHECK(a.program == "app");
  CHECK(ParseLaunchCommand("").program.empty());
  // A process count that is none is said, not guessed.
  CHECK(ParseLaunchCommand("mpirun -np x ./a").error == "-np x: not a whole number of at least 1");
  CHECK(ParseLaunchCommand("mpirun -np 0 ./a").error == "-np 0: not a whole number of at least 1");
  CHECK(ParseLaunchCommand("srun --ntasks=-4 ./a").error == "--ntasks=-4: not a whole number of at least 1");
  CHECK(ParseLaunchCommand("mpirun -np 99999999999 ./a").error == "-np 99999999999: not a whole number of at least 1");
  CHECK(ParseLaunchCommand("OMP_NUM_THREADS=many mpirun -np 2 ./a").error ==
        "OMP_NUM_THREADS=many: not a whole number of at least 1");
  CHECK(ParseLaunchCommand("mpirun -np").procs == 0);  // a value missing at the end
  // The program word of a Flux jobspec's command (job_records/flux_jobspec.cpp).
  CHECK(qnm::ProgramWord(Words({"env", "OMP_NUM_THREADS=2", "apptainer", "exec", "img.sif", "lmp"})) == 5);
  CHECK(qnm::ProgramWord(Words({"bash", "job.sh"})) == 1);
  CHECK(qnm::ProgramWord(Words({"--flag"})) == 0);
}
