/**
 * attempts of a delivery or an email: graphile-worker's backoff spreads 8 attempts over about 30 minutes (docs/api.md:
 * at least 5 over at least 10)
 */
export const NOTIFY_MAX_ATTEMPTS = 8
