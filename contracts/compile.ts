import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'
import type { Abi, Hex } from 'viem'
import { BaseError } from '@/lib/errors/BaseError'

/**
 * Compiles contracts/GoldToken.sol with solc-js (the npm `solc` package: no native
 * compiler, no download) from standard JSON, resolving `@openzeppelin/...` imports from
 * node_modules. The result is what `npm run contracts:build` writes to
 * contracts/GoldToken.json, and what contracts/compile.test.ts compares that file with.
 */

export const GOLD_TOKEN_SOURCE_UNIT = 'contracts/GoldToken.sol'

export type GoldTokenArtifactJson = {
  contractName: 'GoldToken'
  abi: Abi
  bytecode: Hex
  solcVersion: string
  /** sha256 over every source unit (ours and the OpenZeppelin ones it imports) */
  sourceHash: Hex
}

export type CompileGoldTokenParameters = {
  /** the repository root; defaults to this file's parent folder */
  root?: string
}

export type CompileGoldTokenReturnType = GoldTokenArtifactJson

export class ContractCompileError extends BaseError {
  override name = 'ContractCompileError'
  constructor(
    message: string,
    readonly details: string[] = [],
    options?: { cause?: unknown },
  ) {
    super('internal_error', details.length > 0 ? `${message}:\n${details.join('\n')}` : message, options)
  }
}

/** The part of solc's standard JSON output that we read. */
type SolcOutput = {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[]
  sources?: Record<string, { id: number }>
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

type SolcCompiler = {
  version(): string
  compile(input: string, callbacks: { import: (p: string) => { contents: string } | { error: string } }): string
}

// solc's bundled typings declare every member `any`; this is the subset we use.
const compiler = solc as unknown as SolcCompiler

export function compileGoldToken({
  root = defaultRoot(),
}: CompileGoldTokenParameters = {}): CompileGoldTokenReturnType {
  const sources = new Map<string, string>()
  sources.set(GOLD_TOKEN_SOURCE_UNIT, readFileSync(path.join(root, GOLD_TOKEN_SOURCE_UNIT), 'utf8'))
  const requireFromRoot = createRequire(path.join(root, 'package.json'))

  const findImports = (unit: string): { contents: string } | { error: string } => {
    if (!unit.startsWith('@openzeppelin/')) return { error: `import outside @openzeppelin/: ${unit}` }
    try {
      const contents = readFileSync(requireFromRoot.resolve(unit), 'utf8')
      sources.set(unit, contents)
      return { contents }
    } catch (err) {
      return { error: `cannot read ${unit}: ${err instanceof Error ? err.message : String(err)}` }
    }
  }

  const input = {
    language: 'Solidity',
    sources: { [GOLD_TOKEN_SOURCE_UNIT]: { content: sources.get(GOLD_TOKEN_SOURCE_UNIT) } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      // no absolute paths reach the metadata: the bytecode is the same on every machine
      metadata: { bytecodeHash: 'ipfs' },
      outputSelection: { [GOLD_TOKEN_SOURCE_UNIT]: { GoldToken: ['abi', 'evm.bytecode.object'] } },
    },
  }

  let output: SolcOutput
  try {
    // solc returns its standard JSON output as a string; the shape is SolcOutput
    output = JSON.parse(compiler.compile(JSON.stringify(input), { import: findImports })) as SolcOutput
  } catch (err) {
    throw new ContractCompileError('solc failed to run', [], { cause: err })
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0)
    throw new ContractCompileError(
      'GoldToken.sol does not compile',
      errors.map((e) => e.formattedMessage),
    )

  const contract = output.contracts?.[GOLD_TOKEN_SOURCE_UNIT]?.GoldToken
  if (!contract?.evm.bytecode.object) throw new ContractCompileError('solc produced no GoldToken bytecode')

  // every unit solc used, in a stable order: a change in any of them changes the hash
  const units = Object.keys(output.sources ?? {}).sort()
  const hash = createHash('sha256')
  for (const unit of units) {
    const content = sources.get(unit)
    if (content === undefined)
      throw new ContractCompileError(`source unit ${unit} was not read through the import callback`)
    hash.update(unit).update('\0').update(content).update('\0')
  }

  return {
    contractName: 'GoldToken',
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    solcVersion: compiler.version(),
    sourceHash: `0x${hash.digest('hex')}`,
  }
}

function defaultRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
}
