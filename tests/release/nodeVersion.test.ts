import { describe, expect, it } from 'vitest'

// npm test runs a share of the suite a second time on the Node major of the production
// images (scripts/test.ts, runner "node-image"): this file proves which Node that was.
// Run by the main runner (no MINTDESK_EXPECT_NODE_MAJOR), it checks the local Node is one
// package.json allows.
describe('the Node this suite runs on', () => {
  it("is the major the runner asked for (the images' on the second run)", () => {
    const major = Number(process.versions.node.split('.')[0])
    const expected = process.env.MINTDESK_EXPECT_NODE_MAJOR
    if (expected !== undefined) expect(major).toBe(Number(expected))
    else expect(major).toBeGreaterThanOrEqual(20)
  })
})
