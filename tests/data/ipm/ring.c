#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = 1 << 16; double* a = malloc(n * sizeof(double)); double* b = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) a[i] = rank + i;
  double s = 0;
  for (int it = 0; it < 200; ++it) {
    for (int k = 0; k < 2000000 / size; ++k) s += k * 1e-9;
    MPI_Sendrecv(a, n, MPI_DOUBLE, (rank + 1) % size, 0, b, n, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("s = %g\n", s);
  MPI_Finalize();
  return 0;
}
