import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { standaloneWeb } from './standaloneWeb'

describe('standaloneWeb', () => {
  const roots: string[] = []
  afterEach(() => {
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true })
  })
  /** a repository folder as next build leaves it: .next/standalone/server.js, .next/static, public/ */
  function built(): string {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-standalone-'))
    roots.push(root)
    for (const dir of ['.next/standalone/.next/static/old', '.next/static/chunks', 'public'])
      mkdirSync(path.join(root, dir), { recursive: true })
    writeFileSync(path.join(root, '.next/standalone/server.js'), '')
    writeFileSync(path.join(root, '.next/standalone/.next/static/old/stale.js'), 'stale')
    writeFileSync(path.join(root, '.next/static/chunks/app.js'), 'app')
    writeFileSync(path.join(root, 'public/robots.txt'), 'robots')
    return root
  }

  it('runs server.js in .next/standalone as the image does, bound to 127.0.0.1 only, never `next start`', () => {
    const root = built()
    const web = standaloneWeb({ root, port: 3100 })
    expect(web).toEqual({
      cwd: path.join(root, '.next/standalone'),
      args: ['server.js'],
      env: { HOSTNAME: '127.0.0.1', PORT: '3100' },
    })
    expect(web.args.join(' ')).not.toContain('start')
    expect(JSON.stringify(web.env)).not.toMatch(/0\.0\.0\.0|::/)
  })

  it('copies the static files and public/ into the standalone folder afresh (nothing stale left)', () => {
    const root = built()
    standaloneWeb({ root, port: 3100 })
    expect(readFileSync(path.join(root, '.next/standalone/.next/static/chunks/app.js'), 'utf8')).toBe('app')
    expect(readFileSync(path.join(root, '.next/standalone/public/robots.txt'), 'utf8')).toBe('robots')
    expect(existsSync(path.join(root, '.next/standalone/.next/static/old/stale.js'))).toBe(false)
  })

  it('without a standalone build: says what to do', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-standalone-'))
    roots.push(root)
    expect(() => standaloneWeb({ root, port: 3100 })).toThrow(/\.next\/standalone\/server\.js is missing/)
  })
})
