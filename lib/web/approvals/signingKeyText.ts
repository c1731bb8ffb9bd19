/**
 * The text a key personal_signs to be bound to a user (GET /api/me/signing-key): it names the
 * user's id and email, so a binding signature made for one user binds the key to nobody else.
 */
export function signingKeyText(user: { id: string; email: string }): string {
  return `mintdesk: bind this signing key to ${user.email} (user ${user.id})`
}
