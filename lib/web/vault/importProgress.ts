/**
 * How far a bar-list import has come, in its three phases:
 * - `receive`: the body read and parsed as it arrives, `done` bytes of `total` (its Content-Length, null without);
 * - `check`: the list's root and total computed and the custodian's signature checked (`done` 0 until it ends);
 * - `apply`: the bars loaded and applied in one transaction, `done` bars of `total`.
 */
export type ImportProgress = { phase: 'receive' | 'check' | 'apply'; done: number; total: number | null }

export type OnImportProgress = (progress: ImportProgress) => void

/** the phases in their order, for a client drawing the whole */
export const IMPORT_PHASES = ['receive', 'check', 'apply'] as const
