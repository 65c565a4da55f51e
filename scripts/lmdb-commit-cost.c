/*
 * What one durable LMDB commit costs on this disk, by how many B-trees it writes at scattered keys.
 * BENCHMARKS.md ("Durable appends") quotes it. Build and run:
 *
 *   cc -O2 scripts/lmdb-commit-cost.c -llmdb -o /tmp/lmdb-commit-cost
 *   /tmp/lmdb-commit-cost DIR EVENTS_PER_COMMIT COMMITS SCATTERED_TREES [unsynced]
 *
 * Each commit appends EVENTS_PER_COMMIT 200-byte records to an `events` tree in key order (as the
 * log does) and, per record, puts one 16-byte key at a random place in each of SCATTERED_TREES
 * further trees (as a stream index written by concurrent writers does). With `unsynced`, those
 * further trees live in a second environment opened with MDB_NOSYNC, committed right after the
 * durable one: what keeping the indexes out of the durable commit would cost. DIR must not exist.
 */
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(int rc, const char *what) {
    if (rc) { fprintf(stderr, "%s: %s\n", what, mdb_strerror(rc)); exit(1); }
}

static MDB_env *open_env(const char *dir, unsigned flags) {
    MDB_env *env;
    check(mdb_env_create(&env), "env_create");
    check(mdb_env_set_maxdbs(env, 8), "set_maxdbs");
    check(mdb_env_set_mapsize(env, 1L << 32), "set_mapsize");
    check(mdb_env_open(env, dir, MDB_NOTLS | flags, 0644), "env_open");
    return env;
}

int main(int argc, char **argv) {
    if (argc < 5 || argc > 6 || (argc == 6 && strcmp(argv[5], "unsynced"))) {
        fprintf(stderr, "usage: %s DIR EVENTS_PER_COMMIT COMMITS SCATTERED_TREES [unsynced]\n", argv[0]);
        return 2;
    }
    int perCommit = atoi(argv[2]), commits = atoi(argv[3]), scattered = atoi(argv[4]);
    if (scattered < 0 || scattered > 6) { fprintf(stderr, "SCATTERED_TREES: 0 to 6\n"); return 2; }
    int unsynced = argc == 6;
    char logDir[4096], indexDir[4096];
    snprintf(logDir, sizeof logDir, "%s/log", argv[1]);
    snprintf(indexDir, sizeof indexDir, "%s/index", argv[1]);
    if (mkdir(argv[1], 0755) || mkdir(logDir, 0755) || mkdir(indexDir, 0755)) { perror(argv[1]); return 1; }
    MDB_env *env = open_env(logDir, 0), *indexEnv = unsynced ? open_env(indexDir, MDB_NOSYNC) : env;
    MDB_txn *txn, *indexTxn;
    MDB_dbi trees[8];
    check(mdb_txn_begin(env, NULL, 0, &txn), "txn_begin");
    check(mdb_dbi_open(txn, "events", MDB_CREATE, &trees[0]), "dbi_open");
    check(mdb_txn_commit(txn), "txn_commit");
    check(mdb_txn_begin(indexEnv, NULL, 0, &txn), "txn_begin");
    for (int i = 1; i <= scattered; i++) {
        char name[16];
        snprintf(name, sizeof name, "tree%d", i);
        check(mdb_dbi_open(txn, name, MDB_CREATE, &trees[i]), "dbi_open");
    }
    check(mdb_txn_commit(txn), "txn_commit");

    char record[200];
    memset(record, 'x', sizeof record);
    unsigned long long position = 0;
    srand(7);
    double started = now();
    for (int c = 0; c < commits; c++) {
        check(mdb_txn_begin(env, NULL, 0, &txn), "txn_begin");
        indexTxn = txn;
        if (unsynced) check(mdb_txn_begin(indexEnv, NULL, 0, &indexTxn), "txn_begin");
        for (int e = 0; e < perCommit; e++) {
            unsigned long long key = __builtin_bswap64(++position);
            MDB_val k = {sizeof key, &key}, v = {sizeof record, record};
            check(mdb_put(txn, trees[0], &k, &v, MDB_APPEND), "put events");
            for (int t = 1; t <= scattered; t++) {
                unsigned long long random[2] = {((unsigned long long)rand() << 32) ^ rand(), rand()};
                MDB_val rk = {sizeof random, random}, rv = {sizeof key, &key};
                check(mdb_put(indexTxn, trees[t], &rk, &rv, 0), "put index");
            }
        }
        check(mdb_txn_commit(txn), "txn_commit"); /* durable: LMDB's default fsyncs here */
        if (unsynced) check(mdb_txn_commit(indexTxn), "txn_commit");
    }
    double seconds = now() - started;
    printf("%d events per commit, %d scattered trees%s: %.3f ms per commit, %.0f events/s\n",
           perCommit, scattered, unsynced ? " (unsynced)" : "", seconds * 1000 / commits, perCommit * commits / seconds);
    if (unsynced) mdb_env_close(indexEnv);
    mdb_env_close(env);
    return 0;
}
