import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import type { ApiComplianceChain } from '@/lib/web/compliance/apiTypes'

export type ComplianceChainStateProps = {
  /** as the chain says; null when it did not answer */
  chain: ApiComplianceChain | null
}

/** The token's pause state and frozen addresses as the chain says (GoldToken's paused() and isFrozen). */
export function ComplianceChainState({ chain }: ComplianceChainStateProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id="chain-state-title">On chain now</CardTitle>
        <CardDescription>
          Read from the token contract{chain ? ` ${chain.tokenAddress}` : ''}, not from the desk&apos;s records; each
          operation needs {chain ? chain.required : 'its'} approver signature(s).
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {chain === null ? (
          <Alert tone="warning" title="The chain did not answer: the pause state and frozen addresses are unknown." />
        ) : (
          <>
            <p>
              The token is{' '}
              {chain.paused ? <Badge tone="danger">paused</Badge> : <Badge tone="success">not paused</Badge>}
            </p>
            <div>
              <h3 className="text-sm font-medium">Frozen addresses ({chain.frozen.length})</h3>
              {chain.frozen.length === 0 ? (
                <p className="text-sm text-stone-500">No address is frozen.</p>
              ) : (
                <ul aria-labelledby="chain-state-title" className="mt-1 space-y-1 font-mono text-sm">
                  {chain.frozen.map((f) => (
                    <li key={f.address}>
                      {f.address} <span className="text-xs text-stone-500">since block {f.frozenAtBlock}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  )
}
