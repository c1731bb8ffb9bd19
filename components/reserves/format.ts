/** Display helpers of the reserves page: exact decimal strings stay strings (never a float for weight). */

/** '12345.678' -> '12,345.678 oz': thousands grouped, every decimal kept. */
export function formatOunces(oz: string): string {
  const negative = oz.startsWith('-')
  const [whole = '0', fraction] = (negative ? oz.slice(1) : oz).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''} oz`
}

/** Whether an exact decimal string is above zero. */
export function isPositive(oz: string): boolean {
  return !oz.startsWith('-') && /[1-9]/.test(oz)
}
