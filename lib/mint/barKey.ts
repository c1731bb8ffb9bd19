/**
 * The key that identifies a physical bar: serial + refiner, ignoring letter case (the
 * database enforces the same with a unique index on lower(serial), lower(refiner)).
 */
export function barKey(bar: { serial: string; refiner: string }): string {
  return `${bar.serial.toLowerCase()}\u0000${bar.refiner.toLowerCase()}`
}
