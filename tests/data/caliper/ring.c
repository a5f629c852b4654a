/* A strong-scaling test program for Caliper profiles (tests/data/caliper/SOURCES.md): a fixed amount of
 * work split over the ranks, a neighbour exchange and an Allreduce per step. */
#include <caliper/cali.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CALI_MARK_BEGIN("main");
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long work = 400000000L / size;
  const int steps = 20;
  double halo[1024], recv[1024], x = rank, sum = 0;
  for (int i = 0; i < 1024; ++i) halo[i] = i;
  for (int step = 0; step < steps; ++step) {
    CALI_MARK_BEGIN("compute");
    for (long i = 0; i < work / steps; ++i) x = x * 0.999999 + 1e-7;
    CALI_MARK_END("compute");
    CALI_MARK_BEGIN("exchange");
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Sendrecv(halo, 1024, MPI_DOUBLE, right, 0, recv, 1024, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CALI_MARK_END("exchange");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  CALI_MARK_END("main");
  if (rank == 0) printf("ring: %d ranks, sum %g\n", size, sum);
  MPI_Finalize();
  return 0;
}
