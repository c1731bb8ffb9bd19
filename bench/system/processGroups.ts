/**
 * The processes the bench watches, by role: each group is a set of root pids, counted
 * with all their descendants (`tree`), or the roots alone (the bench process itself,
 * whose descendants are the other groups).
 */
export type ProcessGroup = {
  name: string
  roots: number[]
  tree: boolean
  /** count only each process's main thread (where Node.js runs JavaScript: the event loop), not its helper threads */
  mainThread?: boolean
}

export type ProcessGroupsSource = () => ProcessGroup[]
