/* concat.c: a pb-run worker in C with share/pb/pb-worker.h, comparing two
 * ways to build a string of many pieces: strcat in a loop (A, which finds
 * the end of the string again for every piece) and memcpy to an end kept
 * at hand (B).
 *
 *   cc -O2 -Ishare/pb -o concat examples/worker/concat.c
 *   pb-run --worker ./concat --runs 10 --pairs 200 --warmup 20 > raw.tsv
 *   pb-pair --by-run raw.tsv | pb-logratio | pb-tint --finding
 *
 * (Installed, the header is in PREFIX/include: cc -O2 -o concat concat.c.)
 * Each arm is a function int f(void *ctx) that does one unit of work and
 * returns 0, or something else to have the observation fail. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "pb-worker.h"

enum { NPIECES = 400 };

struct job {
	const char *piece[NPIECES];
	size_t len[NPIECES];
	char *out;
	size_t total;
};

static int with_strcat(void *ctx)
{
	struct job *j = ctx;
	int i;

	j->out[0] = '\0';
	for (i = 0; i < NPIECES; i++)
		strcat(j->out, j->piece[i]);
	return strlen(j->out) == j->total ? 0 : 1;
}

static int with_memcpy(void *ctx)
{
	struct job *j = ctx;
	char *end = j->out;
	int i;

	for (i = 0; i < NPIECES; i++) {
		memcpy(end, j->piece[i], j->len[i]);
		end += j->len[i];
	}
	*end = '\0';
	return (size_t)(end - j->out) == j->total ? 0 : 1;
}

int main(void)
{
	static const char *words[] = { "alpha,", "beta,", "gamma,", "delta,", "epsilon," };
	struct job j;
	int i, rc;

	/* Set-up, once per worker: part of the run (the warm-up pairs absorb
	 * it), not of any observation. */
	j.total = 0;
	for (i = 0; i < NPIECES; i++) {
		j.piece[i] = words[i % 5];
		j.len[i] = strlen(j.piece[i]);
		j.total += j.len[i];
	}
	if (!(j.out = malloc(j.total + 1)))
		return 1;
	rc = pb_worker_serve(with_strcat, with_memcpy, &j);
	free(j.out);
	return rc;
}
