#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 4000000, iters = argc > 2 ? atoi(argv[2]) : 400;
  int local = n / size;
  double *u = calloc(local + 2, sizeof(double)), *v = calloc(local + 2, sizeof(double));
  if (rank == 0) u[0] = 1.0;
  double t0 = MPI_Wtime();
  for (int it = 0; it < iters; ++it) {
    int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    MPI_Sendrecv(&u[local], 1, MPI_DOUBLE, up, 0, &u[0], 1, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, down, 1, &u[local + 1], 1, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= local; ++i) v[i] = 0.5 * (u[i - 1] + u[i + 1]);
    double* t = u; u = v; v = t;
    if (it % 50 == 0) { double r = 0, s = 0; for (int i = 1; i <= local; ++i) r += u[i]; MPI_Allreduce(&r, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
  }
  double t1 = MPI_Wtime();
  if (rank == 0) printf("jacobi n=%d iters=%d procs=%d time=%.3f s\n", n, iters, size, t1 - t0);
  MPI_Finalize();
  return 0;
}
