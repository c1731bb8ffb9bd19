/**
 * The control change an operation applies, as its audit row names it: the change's id and
 * the admin who asked for it (the operation's actor is the admin who confirmed it).
 */
export type AppliedChange = { changeId: string; requestedBy: string }
