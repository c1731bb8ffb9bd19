import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'
import type { Abi, Hex } from 'viem'
import { BaseError } from '@/lib/errors/BaseError'

/**
 * Compiles the contracts (contracts/GoldToken.sol, contracts/GoldMinter.sol) with solc-js
 * (the npm `solc` package: no native compiler, no download) from standard JSON, resolving
 * `@openzeppelin/...` imports from node_modules and `contracts/...` ones (a contract's
 * `./X.sol`) from the repository. The results are what `npm run contracts:build` writes to
 * contracts/GoldToken.json and contracts/GoldMinter.json, and what
 * contracts/compile.test.ts compares those files with.
 */

export const GOLD_TOKEN_SOURCE_UNIT = 'contracts/GoldToken.sol'
export const GOLD_MINTER_SOURCE_UNIT = 'contracts/GoldMinter.sol'

export type ContractArtifactJson<Name extends string = string> = {
  contractName: Name
  abi: Abi
  bytecode: Hex
  solcVersion: string
  /** sha256 over every source unit (ours and the OpenZeppelin ones it imports) */
  sourceHash: Hex
}

export type GoldTokenArtifactJson = ContractArtifactJson<'GoldToken'>
export type GoldMinterArtifactJson = ContractArtifactJson<'GoldMinter'>

export type CompileContractParameters<Name extends string> = {
  /** the repository root; defaults to this file's parent folder */
  root?: string
  /** the source unit, a repository path: contracts/GoldToken.sol */
  unit: string
  /** the contract in that unit to return */
  contractName: Name
}

export type CompileContractReturnType<Name extends string> = ContractArtifactJson<Name>

export type CompileGoldTokenParameters = {
  /** the repository root; defaults to this file's parent folder */
  root?: string
}

export type CompileGoldTokenReturnType = GoldTokenArtifactJson
export type CompileGoldMinterParameters = CompileGoldTokenParameters
export type CompileGoldMinterReturnType = GoldMinterArtifactJson

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

export function compileGoldToken({ root }: CompileGoldTokenParameters = {}): CompileGoldTokenReturnType {
  return compileContract({ root, unit: GOLD_TOKEN_SOURCE_UNIT, contractName: 'GoldToken' })
}

export function compileGoldMinter({ root }: CompileGoldMinterParameters = {}): CompileGoldMinterReturnType {
  return compileContract({ root, unit: GOLD_MINTER_SOURCE_UNIT, contractName: 'GoldMinter' })
}

export function compileContract<Name extends string>({
  root = defaultRoot(),
  unit: mainUnit,
  contractName,
}: CompileContractParameters<Name>): CompileContractReturnType<Name> {
  const sources = new Map<string, string>()
  sources.set(mainUnit, readFileSync(path.join(root, mainUnit), 'utf8'))
  const requireFromRoot = createRequire(path.join(root, 'package.json'))

  const findImports = (unit: string): { contents: string } | { error: string } => {
    const local = unit.startsWith('contracts/') && !unit.split('/').includes('..')
    if (!local && !unit.startsWith('@openzeppelin/'))
      return { error: `import outside @openzeppelin/ and contracts/: ${unit}` }
    try {
      const contents = readFileSync(local ? path.join(root, unit) : requireFromRoot.resolve(unit), 'utf8')
      sources.set(unit, contents)
      return { contents }
    } catch (err) {
      return { error: `cannot read ${unit}: ${err instanceof Error ? err.message : String(err)}` }
    }
  }

  const input = {
    language: 'Solidity',
    sources: { [mainUnit]: { content: sources.get(mainUnit) } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      // no absolute paths reach the metadata: the bytecode is the same on every machine
      metadata: { bytecodeHash: 'ipfs' },
      outputSelection: { [mainUnit]: { [contractName]: ['abi', 'evm.bytecode.object'] } },
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
      `${path.basename(mainUnit)} does not compile`,
      errors.map((e) => e.formattedMessage),
    )

  const contract = output.contracts?.[mainUnit]?.[contractName]
  if (!contract?.evm.bytecode.object) throw new ContractCompileError(`solc produced no ${contractName} bytecode`)

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
    contractName,
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    solcVersion: compiler.version(),
    sourceHash: `0x${hash.digest('hex')}`,
  }
}

function defaultRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
}
