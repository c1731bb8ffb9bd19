import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeVersionNotice, QUIET_NODE_VERSION_ENV } from './nodeVersionNotice'

const dockerfile = readFileSync(path.join(process.cwd(), 'Dockerfile'), 'utf8')

describe('nodeVersionNotice', () => {
  it("names the Node of the local stack and the images' (read from the Dockerfile), once", () => {
    const line = nodeVersionNotice({ nodeVersion: 'v22.11.0', dockerfile })
    expect(line).toBe(
      "Node v22.11.0 runs this stack (the web's standalone server, the worker, the tools); the images run node:22-bookworm-slim.",
    )
  })

  it('below Node 22 it says what to do, as the AWS SDK warning it replaces does not', () => {
    const line = nodeVersionNotice({ nodeVersion: 'v20.20.2', dockerfile })
    expect(line).toContain('Node v20.20.2 runs this stack')
    expect(line).toContain('the images run node:22-bookworm-slim')
    expect(line).toContain('install Node 22')
  })

  it("quiets the AWS SDK's own warning, which the SDK reads from this variable", () => {
    const sdk = readFileSync(
      path.join(process.cwd(), 'node_modules/@aws-sdk/core/dist-cjs/submodules/client/index.js'),
      'utf8',
    )
    for (const [name, value] of Object.entries(QUIET_NODE_VERSION_ENV))
      expect(sdk).toContain(`process.env.${name} === "${value}"`)
  })
})
