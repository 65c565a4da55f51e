// The two LAPACK routines the recommendation model trains with (OpenBLAS ships LAPACK).
// Fortran calling convention: every argument by reference, matrices column-major.
#ifndef NUVIE_CLAPACK_SHIM_H
#define NUVIE_CLAPACK_SHIM_H

/// Cholesky factorisation of a symmetric positive definite matrix (single precision).
void spotrf_(const char *uplo, const int *n, float *a, const int *lda, int *info);
/// Inverse of that matrix from its Cholesky factor.
void spotri_(const char *uplo, const int *n, float *a, const int *lda, int *info);

#endif
