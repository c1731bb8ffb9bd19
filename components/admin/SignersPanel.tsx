import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import { ScrollX } from '@/components/ui/ScrollX'
import type { KeySignerKind } from '@/lib/web/signing/availableSigners'
import type { SystemStatus } from './adminApi'
import { formatEth, shortHex } from './format'
import { balanceHealth, nonceHealth } from './health'
import { RpcEndpointsPanel } from './RpcEndpointsPanel'
import { SignerNonces } from './signers/SignerNonces'

export type SignersPanelProps = {
  system: SystemStatus
  /** who signs a nonce's cancel: the injected wallet, and in dev mode also the dev signer */
  keySigners: readonly KeySignerKind[]
}

/**
 * Each signer: nonce in Postgres against the chain (latest and pending), in flight, gas balance; under it, its
 * pending nonces with an admin's speed-up, cancel and resync (SignerNonces).
 */
export function SignersPanel({ system, keySigners }: SignersPanelProps) {
  const low = system.signers.filter((s) => s.lowBalance)
  return (
    <div className="space-y-3">
      {!system.chain.available ? (
        <Alert tone="warning" title="Chain unavailable">
          {system.chain.error ?? 'The RPC did not answer.'} The figures below come from Postgres only.
        </Alert>
      ) : null}
      {low.length > 0 ? (
        <Alert tone="error" title={`Low gas balance on ${low.length} ${low.length === 1 ? 'signer' : 'signers'}`}>
          Under {formatEth(system.lowBalanceWei)}: top up {low.map((s) => shortHex(s.address)).join(', ')} before mints
          stall.
        </Alert>
      ) : null}
      {system.feeCappedOrders > 0 ? (
        <Alert
          tone="warning"
          title={`${system.feeCappedOrders} ${system.feeCappedOrders === 1 ? 'mint' : 'mints'} held back by the fee ceiling`}
        >
          The chain asks for more than MAX_FEE_PER_GAS / MAX_PRIORITY_FEE allow: nothing is paid above them. The mints
          go out when the fees fall or the ceiling is raised.
        </Alert>
      ) : null}
      {system.signers.length === 0 ? <p className="text-sm text-stone-500">No signer is registered yet.</p> : null}
      {system.signers.length > 0 ? (
        <ScrollX label="Signers, their nonces and balances">
          <table className="w-full text-sm [&_td]:whitespace-nowrap">
            <caption className="sr-only">Signers</caption>
            <thead>
              <tr className="border-b border-stone-200 text-left text-xs uppercase tracking-wide text-stone-500">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Signer
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  Next nonce (Postgres)
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  Chain latest
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  Chain pending
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  In flight
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  Nonces
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  Gas balance
                </th>
              </tr>
            </thead>
            <tbody>
              {system.signers.map((s) => {
                const nonce = nonceHealth(s)
                const balance = balanceHealth(s.balanceWei, system.lowBalanceWei)
                return [
                  <tr key={s.address} className="border-t border-stone-200">
                    <th
                      scope="row"
                      className="py-2 pr-3 text-left font-mono font-normal whitespace-nowrap"
                      title={s.address}
                    >
                      {shortHex(s.address, 6)} {s.active ? null : <Badge>inactive</Badge>}
                    </th>
                    <td className="tabular px-2 py-2 text-right">{s.nextNonce}</td>
                    <td className="tabular px-2 py-2 text-right">{s.chainNonce ?? '—'}</td>
                    <td className="tabular px-2 py-2 text-right">{s.pending ?? '—'}</td>
                    <td className="tabular px-2 py-2 text-right">{s.inFlight}</td>
                    <td className="px-2 py-2">
                      <Badge tone={nonce.tone}>{nonce.label}</Badge>
                    </td>
                    <td className="px-2 py-2 text-right">
                      <span className="tabular mr-2">{formatEth(s.balanceWei)}</span>
                      {balance.tone !== 'success' ? <Badge tone={balance.tone}>{balance.label}</Badge> : null}
                    </td>
                  </tr>,
                  <tr key={`${s.address}-nonces`}>
                    <td colSpan={7} className="pb-3 pl-4">
                      <SignerNonces signer={s} keySigners={keySigners} />
                    </td>
                  </tr>,
                ]
              })}
            </tbody>
          </table>
        </ScrollX>
      ) : null}
      <p className="text-xs text-stone-500">
        Chain {system.chainId ?? '—'}
        {system.chain.blockNumber !== null ? ` · block ${system.chain.blockNumber}` : ''} · {system.confirmations}{' '}
        {system.confirmations === 1 ? 'confirmation' : 'confirmations'}
        {system.tokenAddress ? (
          <>
            {' '}
            · token{' '}
            <span className="font-mono" title={system.tokenAddress}>
              {shortHex(system.tokenAddress)}
            </span>
          </>
        ) : null}
        {system.rpcUrl ? (
          <>
            {' '}
            · RPC <span className="font-mono">{system.rpcUrl}</span>
          </>
        ) : null}
      </p>
      <RpcEndpointsPanel system={system} />
    </div>
  )
}
