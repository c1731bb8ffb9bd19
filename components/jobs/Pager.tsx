import { Button } from '@/components/ui/Button'

export function Pager({ page, newer, older }: { page: number; newer?: () => void; older?: () => void }) {
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-2 text-sm text-stone-600">
      <Button size="sm" variant="secondary" onClick={newer} disabled={!newer}>
        ← Newer
      </Button>
      <span>Page {page}</span>
      <Button size="sm" variant="secondary" onClick={older} disabled={!older}>
        Older →
      </Button>
    </nav>
  )
}
