#include "order.h"

const char *const order_names[NORDERS] = { "random", "alternate", "blocked" };

void order_block(enum order o, struct rng *r, long b, int k, int *arm)
{
	int i, j, t;

	for (i = 0; i < k; i++)
		arm[i] = o == ORDER_ALTERNATE ? (int)((b + i) % k) : i;
	if (o != ORDER_RANDOM)
		return;
	if (k == 2) {   /* the one coin pb-run has always drawn */
		arm[0] = (int)(rng_next(r) >> 63);
		arm[1] = !arm[0];
		return;
	}
	for (i = k - 1; i > 0; i--) {   /* Fisher-Yates */
		j = (int)rng_below(r, (uint32_t)i + 1);
		t = arm[i], arm[i] = arm[j], arm[j] = t;
	}
}

void order_walk_begin(struct order_walk *w, enum order o, struct rng *r, long first,
                      long n, int k)
{
	w->order = o;
	w->r = r;
	w->first = first;
	w->n = n;
	w->step = 0;
	w->k = k;
}

int order_walk_next(struct order_walk *w, long *block, int *arm, int *place)
{
	long s = w->step;

	if (s >= w->n * w->k)
		return 0;
	w->step++;
	if (w->order == ORDER_BLOCKED) {
		*block = s % w->n;
		*place = (int)(s / w->n) + 1;
		*arm = *place - 1;
		return 1;
	}
	*block = s / w->k;
	*place = (int)(s % w->k) + 1;
	if (*place == 1)
		order_block(w->order, w->r, w->first + *block, w->k, w->arm);
	*arm = w->arm[*place - 1];
	return 1;
}

long order_open_blocks(enum order o, long n)
{
	return o == ORDER_BLOCKED ? n : 1;
}
