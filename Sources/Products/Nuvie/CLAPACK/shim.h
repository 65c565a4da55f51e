// The LAPACK and BLAS routines the recommendation model and the evaluation's ALS baseline train
// with (OpenBLAS ships both).
// Fortran calling convention: every argument by reference, matrices column-major.
#ifndef NUVIE_CLAPACK_SHIM_H
#define NUVIE_CLAPACK_SHIM_H

/// Cholesky factorisation of a symmetric positive definite matrix (single precision), and its
/// inverse from that factor, in packed storage: one triangle column by column, n(n + 1)/2 floats.
void spptrf_(const char *uplo, const int *n, float *ap, int *info);
void spptri_(const char *uplo, const int *n, float *ap, int *info);

/// Solves A·X = B for a symmetric positive definite A (single precision); B is overwritten by X.
void sposv_(const char *uplo, const int *n, const int *nrhs, float *a, const int *lda, float *b, const int *ldb, int *info);
/// C = alpha·A·Aᵀ + beta·C (trans "N") on one triangle of the symmetric C.
void ssyrk_(const char *uplo, const char *trans, const int *n, const int *k, const float *alpha, const float *a, const int *lda,
            const float *beta, float *c, const int *ldc);

#endif
