import { describe, expect, it } from 'vitest'
import { nextStartArgs } from './nextStartArgs'

describe('nextStartArgs', () => {
  it('binds the local web to 127.0.0.1, never every interface', () => {
    const args = nextStartArgs({ root: '/repo', port: 3100 })
    expect(args).toEqual(['/repo/node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', '3100'])
    expect(args.join(' ')).not.toMatch(/0\.0\.0\.0|::/)
  })
})
