import type { ProposedOnChainChangeKind } from '@/lib/changes/onChainChanges'

/** One input of a change that lives on chain: how the form reads it into the kind's params. */
export type OnChainChangeField = {
  name: string
  label: string
  /** address: 0x...; oz: a decimal of fine ounces; count: a whole number; text: as typed; or an address or blank */
  read: 'address' | 'oz' | 'count' | 'text' | 'addressOrNone'
  placeholder?: string
}

const address = (label: string): OnChainChangeField => ({ name: 'address', label, read: 'address', placeholder: '0x…' })

/** What the admin fills in per kind (lib/changes/onChainChanges.ts has the params' rules), and its label. */
export const ON_CHAIN_CHANGE_FORMS: Record<ProposedOnChainChangeKind, { label: string; fields: OnChainChangeField[] }> =
  {
    'approver.add': { label: 'Add an approver key', fields: [address('Approver key')] },
    'approver.remove': { label: 'Remove an approver key', fields: [address('Approver key')] },
    'approvals.rule': {
      label: 'Set the approval rule',
      fields: [
        { name: 'largeAmountOz', label: 'Large mint from (oz)', read: 'oz', placeholder: '10000.000' },
        { name: 'approvalsBelow', label: 'Approvals below it', read: 'count', placeholder: '1' },
        { name: 'approvalsAtOrAbove', label: 'Approvals at or above it', read: 'count', placeholder: '2' },
        { name: 'complianceApprovals', label: 'Approvals of a compliance action', read: 'count', placeholder: '1' },
      ],
    },
    'mint.rate_limit': {
      label: 'Set the on-chain mint rate limit',
      fields: [
        { name: 'capacityOz', label: 'Capacity (oz)', read: 'oz', placeholder: '100000.000' },
        { name: 'refillOzPerSecond', label: 'Refill (oz a second)', read: 'oz', placeholder: '1.000' },
      ],
    },
    'custodian.add': { label: 'Register a custodian key', fields: [address('Custodian key')] },
    'custodian.remove': { label: 'Unregister a custodian key', fields: [address('Custodian key')] },
    'custodian.vault': {
      label: "Set a vault's custodian key",
      fields: [
        { name: 'vault', label: 'Vault', read: 'text', placeholder: 'LDN-1' },
        {
          name: 'custodian',
          label: 'Custodian key (blank: the vault leaves)',
          read: 'addressOrNone',
          placeholder: '0x…',
        },
      ],
    },
    'admin.add': { label: 'Add an admin key', fields: [address('Admin key')] },
    'admin.remove': { label: 'Remove an admin key', fields: [address('Admin key')] },
    'admin.threshold': {
      label: "Set the admins' threshold",
      fields: [{ name: 'threshold', label: 'Admin signatures a change needs', read: 'count', placeholder: '2' }],
    },
  }

/** The kind's params from the form's values; the server's schema judges them (422 names each field). */
export function onChainChangeParams(
  kind: ProposedOnChainChangeKind,
  values: Record<string, string>,
): Record<string, unknown> {
  const params: Record<string, unknown> = {}
  for (const field of ON_CHAIN_CHANGE_FORMS[kind].fields) {
    const value = (values[field.name] ?? '').trim()
    params[field.name] =
      field.read === 'count'
        ? /^\d+$/.test(value)
          ? Number(value)
          : value
        : field.read === 'addressOrNone' && value === ''
          ? null
          : value
  }
  return params
}
