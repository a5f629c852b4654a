/* A strong-scaling test program whose campaign runs two problems (tests/data/caliper/SOURCES.md): the
 * ring's loop, of a length given on the command line, split over the ranks, and an Allreduce per step.
 * The problem size goes to Adiak (`InputSize`, as the CSCE 435 sorting campaigns and RAJAPerf's
 * `ProblemSizeRunParam` do), so the profiles of one program at one process count differ only there. */
#include <adiak.h>
#include <caliper/cali.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  adiak_init(&comm);
  adiak_executable();
  adiak_cmdline();
  adiak_clustername();
  adiak_job_size();
  adiak_launchdate();
  const long input_size = argc > 1 ? atol(argv[1]) : 100000000L;
  adiak_namevalue("InputSize", adiak_general, NULL, "%ld", input_size);
  adiak_namevalue("Algorithm", adiak_general, NULL, "%s", "loop-allreduce");
  CALI_MARK_BEGIN("main");
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const long work = input_size / size;
  const int steps = 20;
  double x = rank, sum = 0;
  for (int step = 0; step < steps; ++step) {
    CALI_MARK_BEGIN("compute");
    for (long i = 0; i < work / steps; ++i) x = x * 0.999999 + 1e-7;
    CALI_MARK_END("compute");
    CALI_MARK_BEGIN("exchange");
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    CALI_MARK_END("exchange");
  }
  MPI_Barrier(comm);
  CALI_MARK_END("main");
  if (rank == 0) printf("sizes: %d ranks, input %ld, sum %g\n", size, input_size, sum);
  adiak_fini();
  MPI_Finalize();
  return 0;
}
