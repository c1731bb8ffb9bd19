/**
 * Bars per bench bar list (each bench vault has one): 20,000, so the node's raw limit and
 * the sequential loop (about 2,000 baseline mints) relay calls of one vault whose list the
 * first, untimed call attests. Every mint the worker relays carries its vault's list, which
 * it verifies once per list (worker/approvals/verifyBarList.ts: sorted leaves in one byte
 * array, 640 KB for 20,000 bars) inside the image's worker heap.
 */
export const BENCH_LIST_BARS = 20_000
