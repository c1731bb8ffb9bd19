// Where a URL points, for loadConfig's production guards: the local stack's database and endpoints.

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

/** The host of a Postgres URL (a `host` query parameter wins, as in libpq); '' for a Unix socket. */
export function databaseHostOf(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl)
    return url.searchParams.get('host') ?? url.hostname
  } catch {
    return '(unparsable)'
  }
}

/** localhost, 127.0.0.1, ::1 or a Unix socket (a path): the database of the local stack. */
export function isLocalDatabase(databaseUrl: string): boolean {
  const host = databaseHostOf(databaseUrl)
  return LOCAL_HOSTS.has(host.toLowerCase()) || host === '' || host.startsWith('/')
}

/** localhost, ::1 or 127.0.0.0/8: an endpoint on this machine. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname
  return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.')
}
