/* order: in which order the arms of a study run (pb-run --order). Each
 * phase of a run is n blocks, and a block holds one observation of each
 * of k arms (with k = 2, a block is a pair); place 1 of a block is the
 * observation that runs first.
 *   random     each block's arms in an order drawn from the run's
 *              generator: with k = 2 one coin, the top bit of one draw
 *   alternate  the first arm turns with each block, counted across the
 *              run's phases: AB, BA, AB ... (ABC, BCA, CAB ... for 3)
 *   blocked    place 1 of every block of the phase, then place 2 ...;
 *              place i holds arm i: all A, then all B */
#ifndef PB_ORDER_H
#define PB_ORDER_H

#include "rng.h"

enum order { ORDER_RANDOM, ORDER_ALTERNATE, ORDER_BLOCKED, NORDERS };
extern const char *const order_names[NORDERS];   /* "random", ... */
enum { ORDER_ARMS_MAX = 26 };                     /* arms A to Z */

/* The arms of block b (b counted from 0 across the phases of a run) in
 * the order they run: arm[0] at place 1. k is 2 to ORDER_ARMS_MAX. */
void order_block(enum order o, struct rng *r, long b, int k, int *arm);

/* One phase, observation by observation. */
struct order_walk {
	enum order order;
	struct rng *r;
	long first, n, step;    /* the phase's first block in the run; blocks; next */
	int k;
	int arm[ORDER_ARMS_MAX];   /* the arms of the current block (not blocked) */
};
void order_walk_begin(struct order_walk *w, enum order o, struct rng *r, long first,
                      long n, int k);
/* The next observation of the phase: its block (0 to n - 1), arm and
 * place (1 to k); 0 when the phase is done. */
int order_walk_next(struct order_walk *w, long *block, int *arm, int *place);
/* How many blocks are open at once in a phase of n (their first
 * observations held until the last): n when blocked, else 1. Block b's
 * are held in slot b % order_open_blocks(o, n). */
long order_open_blocks(enum order o, long n);

#endif
