/**
 * Bars per bench bar list (each bench vault has one): 2,000, the size of the stack's dev list. Every mint the worker
 * relays carries its vault's whole list, which it verifies bar by bar (worker/approvals/verifyBarList.ts) inside the
 * image's worker heap (the Dockerfile's --max-old-space-size); a bench vault of the import's limit (100,000 bars)
 * makes the worker run out of memory, and it is what the bar-list import row measures, not the pipeline.
 */
export const BENCH_LIST_BARS = 2_000
