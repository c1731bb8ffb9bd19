/** Says whether the page is following in-flight orders; a polite live region. */
export function LiveIndicator({ live, fetching }: { live: boolean; fetching: boolean }) {
  return (
    <p role="status" className="flex items-center gap-2 text-xs text-stone-500">
      <span
        aria-hidden="true"
        className={
          live
            ? 'inline-block size-2 animate-pulse rounded-full bg-emerald-500'
            : 'inline-block size-2 rounded-full bg-stone-300'
        }
      />
      {live
        ? `Live: refreshing every 2 s while orders are in flight${fetching ? '…' : ''}`
        : 'Up to date: nothing in flight'}
    </p>
  )
}
