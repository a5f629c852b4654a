#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
/* A 1-D Jacobi sweep over a fixed global grid: strong scaling. */
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long n = argc > 1 ? atol(argv[1]) : 4000000;
  int iters = argc > 2 ? atoi(argv[2]) : 200;
  long local = n / size;
  double* a = calloc(local + 2, sizeof(double));
  double* b = calloc(local + 2, sizeof(double));
  for (long i = 1; i <= local; ++i) a[i] = (double)((rank * local + i) % 7);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double norm = 0;
  for (int it = 0; it < iters; ++it) {
    MPI_Sendrecv(&a[1], 1, MPI_DOUBLE, left, 0, &a[local + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&a[local], 1, MPI_DOUBLE, right, 1, &a[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double s = 0;
    for (long i = 1; i <= local; ++i) { b[i] = 0.5 * a[i] + 0.25 * (a[i - 1] + a[i + 1]); s += b[i] * b[i]; }
    MPI_Allreduce(&s, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double* t = a; a = b; b = t;
  }
  if (rank == 0) printf("stencil n=%ld iters=%d ranks=%d norm=%.6e\n", n, iters, size, norm);
  free(a); free(b);
  MPI_Finalize();
  return 0;
}
