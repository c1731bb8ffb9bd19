import type { RenderSectionParameters } from '../runs/BenchRun'
import { ms, rate, signersLabel } from './format'

/** The chain's baselines (the node's raw limit, the seed's sequential loop): section 1's table under the drains'. */
export function renderChainBaselines({ result: r, table }: RenderSectionParameters): void {
  table(
    ['chain baseline', 'tx/s', 'how'],
    [
      ...r.raw.map((x) => [
        `node's raw limit, ${signersLabel(x.signers)}`,
        rate(x.perSecond),
        `${x.txs} pre-signed mints in ${x.blocks} blocks (${x.gasPerTx} gas each; a ${x.blockGasLimit}-gas block holds ${x.txsPerBlockByGas})`,
      ]),
      [
        `sequential loop (the seed's worker), 1 signer`,
        rate(r.sequential.perSecond),
        `${r.sequential.txs} transactions, each: fees, KMS Sign, send, wait for the receipt (p50 ${ms(r.sequential.perTx.p50)} ms)`,
      ],
    ],
  )
}
