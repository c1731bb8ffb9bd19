import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import { AnvilStartError } from '@/scripts/errors/stack'
import { startAnvil } from './anvil'

const dir = mkdtempSync(path.join(tmpdir(), 'mintdesk-anvil-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const rpc = async (rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> => {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  // a JSON-RPC response
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}
const blockNumber = async (rpcUrl: string) => Number(await rpc(rpcUrl, 'eth_blockNumber'))
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
const waitUntil = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  return check()
}

describe('startAnvil', () => {
  it('starts on a free port with the chain id asked for and stops on SIGTERM', async () => {
    const anvil = await startAnvil({ chainId: 1337 })
    expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`)
    expect(Number(await rpc(anvil.rpcUrl, 'eth_chainId'))).toBe(1337)
    await anvil.stop()
    expect(anvil.process.exitCode !== null || anvil.process.signalCode !== null).toBe(true)
    await expect(rpc(anvil.rpcUrl, 'eth_chainId')).rejects.toThrow()
    await anvil.stop() // a second stop is harmless
  })

  it('keeps the chain across a clean restart (state dumped on SIGTERM)', async () => {
    const stateFile = path.join(dir, 'clean.json')
    const first = await startAnvil({ stateFile })
    await rpc(first.rpcUrl, 'anvil_mine', ['0x5'])
    await first.stop()
    const second = await startAnvil({ stateFile })
    try {
      expect(await blockNumber(second.rpcUrl)).toBe(5)
    } finally {
      await second.stop()
    }
  })

  it('keeps the chain when the folder of the state file does not exist yet (a fresh .data)', async () => {
    const stateFile = path.join(dir, 'not', 'there', 'yet', 'state.json')
    const first = await startAnvil({ stateFile })
    await rpc(first.rpcUrl, 'anvil_mine', ['0x3'])
    await first.stop()
    const second = await startAnvil({ stateFile })
    try {
      expect(await blockNumber(second.rpcUrl)).toBe(3)
    } finally {
      await second.stop()
    }
  })

  it('loses at most the last second on SIGKILL (--state-interval 1)', async () => {
    const stateFile = path.join(dir, 'killed.json')
    const first = await startAnvil({ stateFile })
    await rpc(first.rpcUrl, 'anvil_mine', ['0x3'])
    await new Promise((r) => setTimeout(r, 1_600)) // at least one periodic dump after the 3 blocks
    await rpc(first.rpcUrl, 'anvil_mine', ['0x2'])
    first.process.kill('SIGKILL')
    await first.stop()
    const second = await startAnvil({ stateFile })
    try {
      const n = await blockNumber(second.rpcUrl)
      expect(n).toBeGreaterThanOrEqual(3)
      expect(n).toBeLessThanOrEqual(5)
    } finally {
      await second.stop()
    }
  })

  it('mines on its own with a block time', async () => {
    const anvil = await startAnvil({ blockTime: 1 })
    try {
      await new Promise((r) => setTimeout(r, 2_300))
      expect(await blockNumber(anvil.rpcUrl)).toBeGreaterThanOrEqual(2)
    } finally {
      await anvil.stop()
    }
  })

  it("fails with AnvilStartError, with anvil's output, when the port is taken", async () => {
    const taken = await startAnvil()
    try {
      const err = await startAnvil({ port: taken.port, startTimeoutMs: 5_000 }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(AnvilStartError)
      expect((err as Error).message).toMatch(/in use/i)
    } finally {
      await taken.stop()
    }
  })

  it('dies with its parent, even when the parent is SIGKILLed (and anvil is detached)', async () => {
    const script = path.join(dir, 'parent.mts')
    writeFileSync(
      script,
      `import { startAnvil } from ${JSON.stringify(path.join(import.meta.dirname, 'anvil.ts'))}\n` +
        `const a = await startAnvil({ detached: true })\nconsole.log('ANVIL_PID=' + a.process.pid)\nsetInterval(() => {}, 1000)\n`,
    )
    // node itself with tsx's loader (the tsx CLI would add a process in between)
    const parent = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: path.join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let anvilPid = 0
    try {
      anvilPid = await new Promise<number>((resolve, reject) => {
        createInterface({ input: parent.stdout }).on('line', (line) => {
          const m = /^ANVIL_PID=(\d+)$/.exec(line)
          if (m) resolve(Number(m[1]))
        })
        parent.once('exit', (code) => reject(new Error(`parent exited early with ${code}`)))
      })
      expect(alive(anvilPid)).toBe(true)
      process.kill(parent.pid ?? 0, 'SIGKILL')
      expect(await waitUntil(() => !alive(anvilPid), 5_000), 'anvil is gone after its parent died').toBe(true)
    } finally {
      if (anvilPid && alive(anvilPid)) process.kill(anvilPid, 'SIGKILL')
      if (parent.exitCode === null) parent.kill('SIGKILL')
    }
  })
})
