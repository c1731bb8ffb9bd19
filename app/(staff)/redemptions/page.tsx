import type { Metadata } from 'next'
import { RedemptionList } from '@/components/redemptions/RedemptionList'
import { RedemptionsDesk } from '@/components/redemptions/RedemptionsDesk'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { PageHeading } from '@/components/ui/PageHeading'
import { requireUser } from '@/lib/web/auth/getSessionUser'
import { readsEveryOrder } from '@/lib/web/mint/readsEveryOrder'
import { listDeposits } from '@/lib/web/redemptions/listDeposits'
import { listRedemptions } from '@/lib/web/redemptions/listRedemptions'
import { REDEMPTION_REQUEST_ROLES } from '@/lib/web/redemptions/redemptionRoles'
import { readRedemptionAddress } from '@/lib/web/reserves/readRedemptionAddress'
import { getReservesReader, getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Redemptions' }
export const dynamic = 'force-dynamic'

/**
 * /redemptions (staff, approvers, admins, auditors): the redemption address a holder sends tokens to, the deposits
 * seen there (unmatched first), the request form for staff and admins (a deposit matched to whole backing bars of
 * the same fine weight), and the redemptions (staff: their own; the others: every one).
 */
export default async function RedemptionsPage() {
  const user = await requireUser()
  const { db } = getWebDb()
  const [deposits, firstPage, redemptionAddress] = await Promise.all([
    listDeposits(db, { limit: 200 }),
    listRedemptions(db, { limit: 50, requestedBy: readsEveryOrder(user.role) ? undefined : user.id }),
    readRedemptionAddress(getReservesReader()),
  ])
  const canRequest = REDEMPTION_REQUEST_ROLES.includes(user.role)
  return (
    <div className="space-y-6">
      <PageHeading title="Redemptions">
        A holder redeems by sending tokens to the redemption address. Staff match each deposit to whole bars of the same
        fine weight; approvers sign the burn, and the bars leave the reserve once it is burned.
      </PageHeading>
      <Card aria-labelledby="redemption-address-heading">
        <CardHeader>
          <CardTitle id="redemption-address-heading">Redemption address</CardTitle>
          <CardDescription>
            Tell a redeeming holder to send exactly the tokens of the bars they take here.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {redemptionAddress ? (
            <p className="break-all font-mono text-sm">{redemptionAddress}</p>
          ) : (
            <p className="text-sm text-stone-500">The chain cannot be read right now: try again in a minute.</p>
          )}
        </CardContent>
      </Card>
      <RedemptionsDesk initialDeposits={deposits.items} canRequest={canRequest} />
      <section aria-labelledby="redemptions-heading" className="space-y-3">
        <h2 id="redemptions-heading" className="text-lg font-semibold">
          {readsEveryOrder(user.role) ? 'Every redemption' : 'Your redemptions'}
        </h2>
        <RedemptionList initialPage={firstPage} showRequester={readsEveryOrder(user.role)} />
      </section>
    </div>
  )
}
