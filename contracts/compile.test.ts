import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileGoldMinter, compileGoldToken, type GoldMinterArtifactJson, type GoldTokenArtifactJson } from './compile'

const artifactPath = path.join(import.meta.dirname, 'GoldToken.json')

describe('contracts/GoldToken.json', () => {
  // the committed artifact, as written by `npm run contracts:build`
  const committed = JSON.parse(readFileSync(artifactPath, 'utf8')) as GoldTokenArtifactJson
  const fresh = compileGoldToken()

  it('is up to date with GoldToken.sol and the OpenZeppelin sources (else run npm run contracts:build)', () => {
    expect(committed.sourceHash).toBe(fresh.sourceHash)
    expect(committed.solcVersion).toBe(fresh.solcVersion)
    expect(committed.bytecode).toBe(fresh.bytecode)
    expect(committed.abi).toEqual(fresh.abi)
    expect(committed.contractName).toBe('GoldToken')
  })

  it('changes sourceHash when any source changes, ours or an imported OpenZeppelin one', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'mintdesk-compile-'))
    try {
      mkdirSync(path.join(root, 'contracts'))
      writeFileSync(path.join(root, 'package.json'), '{}')
      const source = readFileSync(path.join(import.meta.dirname, 'GoldToken.sol'), 'utf8')
      writeFileSync(path.join(root, 'contracts', 'GoldToken.sol'), source)
      // a private copy of the OpenZeppelin package, so one of its files can change
      const oz = path.join(root, 'node_modules', '@openzeppelin', 'contracts')
      cpSync(path.join(import.meta.dirname, '..', 'node_modules', '@openzeppelin', 'contracts'), oz, {
        recursive: true,
      })
      expect(compileGoldToken({ root }).sourceHash).toBe(fresh.sourceHash)

      const erc20 = path.join(oz, 'token', 'ERC20', 'ERC20.sol')
      writeFileSync(erc20, `${readFileSync(erc20, 'utf8')}\n// changed\n`)
      const ozChanged = compileGoldToken({ root }).sourceHash
      expect(ozChanged).not.toBe(fresh.sourceHash)

      writeFileSync(path.join(root, 'contracts', 'GoldToken.sol'), `${source}\n// changed\n`)
      expect(compileGoldToken({ root }).sourceHash).not.toBe(ozChanged)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('contracts/GoldMinter.json', () => {
  it('is up to date with GoldMinter.sol, GoldToken.sol and the OpenZeppelin sources (else run npm run contracts:build)', () => {
    const committed = JSON.parse(
      readFileSync(path.join(import.meta.dirname, 'GoldMinter.json'), 'utf8'),
    ) as GoldMinterArtifactJson
    const fresh = compileGoldMinter()
    expect(committed.sourceHash).toBe(fresh.sourceHash)
    expect(committed.solcVersion).toBe(fresh.solcVersion)
    expect(committed.bytecode).toBe(fresh.bytecode)
    expect(committed.abi).toEqual(fresh.abi)
    expect(committed.contractName).toBe('GoldMinter')
  }, 120_000)

  it('changes sourceHash when GoldToken.sol, which it imports, changes', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'mintdesk-compile-'))
    try {
      mkdirSync(path.join(root, 'contracts'))
      writeFileSync(path.join(root, 'package.json'), '{}')
      for (const file of ['GoldMinter.sol', 'GoldToken.sol'])
        cpSync(path.join(import.meta.dirname, file), path.join(root, 'contracts', file))
      // OpenZeppelin as the repository has it: only our sources change here
      symlinkSync(realpathSync(path.join(import.meta.dirname, '..', 'node_modules')), path.join(root, 'node_modules'))
      const before = compileGoldMinter({ root }).sourceHash
      const token = path.join(root, 'contracts', 'GoldToken.sol')
      writeFileSync(token, `${readFileSync(token, 'utf8')}\n// changed\n`)
      expect(compileGoldMinter({ root }).sourceHash).not.toBe(before)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
