import { randomBytes } from 'node:crypto'
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  type LocalAccount,
  type TransactionReceipt,
  type TypedDataDefinition,
} from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { compileContract } from '@/contracts/compile'
import { barsHash, totalFineWei, vaultId } from '@/lib/chain/bars'
import { createChainClient } from '@/lib/chain/createChainClient'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import {
  barListTypedData,
  type ControlChange,
  type ControlChangeAction,
  controlChangeTypedData,
  encodeControlChange,
  type GoldMinterDomainParameters,
  type MintIntent,
  mintIntentTypedData,
  type SignerSignature,
  sortApprovals,
} from '@/lib/chain/typedData'
import { ANVIL_DEFAULT_CHAIN_ID, ANVIL_DEV_PRIVATE_KEY, startAnvil } from '@/scripts/stack/anvil'
import {
  DEV_MNEMONIC,
  deployGoldMinter,
  devGoldMinterSetup,
  devKeys,
  type GoldMinterSetup,
} from '@/scripts/stack/deployGoldMinter'
import { estimateMintGas } from '@/worker/chain/estimateMintGas'

// TEST ONLY: a fresh anvil with GoldToken + GoldMinter deployed by the dev setup, the keys
// that sign for it, a relayer key that only sends, and the helpers the GoldMinter tests
// share. Every transaction of a test goes out from the relayer's key.

export const ONE_OZ = 10n ** 18n
export const LDN = vaultId('LDN-1')

/** The relayer: a key of its own (index 15), with gas money and no authority. */
const relayerAccount = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 15 })
/** The desk's redemption address (index 16): holders send the tokens they redeem here. */
const redemptionAccount = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 16 })
/** A customer (anvil's funded dev account 1), who receives mints and redeems. */
const holderAccount = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 1 })

export type StartGoldMinterTestbedParameters = { setup?: Partial<GoldMinterSetup> }

export async function startGoldMinterTestbed({ setup }: StartGoldMinterTestbedParameters = {}) {
  const anvil = await startAnvil({ chainId: ANVIL_DEFAULT_CHAIN_ID })
  try {
    const chain = defineChain({
      id: ANVIL_DEFAULT_CHAIN_ID,
      name: 'anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const transport = http(anvil.rpcUrl, { retryCount: 0 })
    const publicClient = createChainClient({ rpcUrl: anvil.rpcUrl, chainId: chain.id, pollingMs: 50 })
    const testClient = createTestClient({ mode: 'anvil', chain, transport, pollingInterval: 50 })
    const wallet = (account: LocalAccount) => createWalletClient({ account, chain, transport })
    const deployer = wallet(privateKeyToAccount(ANVIL_DEV_PRIVATE_KEY))
    await testClient.setBalance({ address: relayerAccount.address, value: 100n * ONE_OZ })
    await testClient.setBalance({ address: redemptionAccount.address, value: 100n * ONE_OZ })
    const relayer = wallet(relayerAccount)
    const holder = wallet(holderAccount)

    const fullSetup = { ...devGoldMinterSetup({ redemptionAddress: redemptionAccount.address }), ...setup }
    const { tokenAddress, minterAddress } = await deployGoldMinter({ publicClient, deployer, setup: fullSetup })
    const domain: GoldMinterDomainParameters = { chainId: chain.id, verifyingContract: minterAddress }
    const minter = { address: minterAddress, abi: goldMinterAbi } as const
    const token = { address: tokenAddress, abi: goldTokenAbi } as const

    /** the chain's time: the latest block's timestamp */
    const now = async () => (await publicClient.getBlock()).timestamp
    /** a block's timestamp */
    const timestampOf = async (blockNumber: bigint) => (await publicClient.getBlock({ blockNumber })).timestamp
    /** mines one block `seconds` after the latest one, exactly (the chain's time, never the wall clock's) */
    const mineAfter = async (seconds: bigint) => {
      await testClient.setNextBlockTimestamp({ timestamp: (await now()) + seconds })
      await testClient.mine({ blocks: 1 })
    }

    /** each signer's signature of the typed data, sorted by signer as GoldMinter takes them */
    const signed = async (typedData: TypedDataDefinition, signers: readonly LocalAccount[]) =>
      sortApprovals(
        await Promise.all(
          signers.map(async (s): Promise<SignerSignature> => {
            if (!s.signTypedData) throw new Error(`${s.address} cannot sign typed data`)
            return { signer: s.address, signature: await s.signTypedData(typedData) }
          }),
        ),
      )

    /** waits for the transaction and insists it succeeded (a revert says how much of its gas it used) */
    const mined = async (hash: Promise<Hex>): Promise<TransactionReceipt> => {
      const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash })
      if (receipt.status !== 'success') {
        const { gas } = await publicClient.getTransaction({ hash: receipt.transactionHash })
        throw new Error(
          `transaction ${receipt.transactionHash} reverted, having used ${receipt.gasUsed} of its ${gas} gas`,
        )
      }
      return receipt
    }

    /** A fresh mint intent: 1 oz to the holder for a new order, one bar, an hour to go. */
    const mintIntent = async (overrides: Partial<MintIntent> = {}): Promise<MintIntent> => {
      const amount = overrides.amount ?? ONE_OZ
      return {
        orderId: randomId(),
        to: holderAccount.address,
        amount,
        barsHash: barsHash([{ serial: `T${randomBytes(6).toString('hex')}`, refiner: 'Valcambi SA', fineWei: amount }]),
        deadline: (await now()) + 3600n,
        ...overrides,
      }
    }

    // with the worker's gas margin (estimateMintGas): the rate limit writes block.timestamp, which costs more gas
    // when the block is mined in a later second than the estimate's, so a bare estimate runs out now and then
    // (a rate-limit change refills the bucket first, so it writes block.timestamp as a mint does)
    const sendWithMargin = async (data: Hex) => {
      const { gas } = await estimateMintGas(publicClient, {
        minterAddress: minter.address,
        from: relayerAccount.address,
        data,
      })
      return mined(relayer.sendTransaction({ to: minter.address, data, gas }))
    }
    const mint = (intent: MintIntent, approvals: readonly SignerSignature[]) =>
      sendWithMargin(encodeFunctionData({ abi: minter.abi, functionName: 'mint', args: [intent, approvals] }))
    const simulateMint = (intent: MintIntent, approvals: readonly SignerSignature[]) =>
      publicClient.simulateContract({
        ...minter,
        account: relayerAccount,
        functionName: 'mint',
        args: [intent, approvals],
      })

    /** The custodian (or `signer`) signs a list of LDN-1 (or `vault`) with this total; the relayer sends it. */
    const barList = async (p: { totalFineWei: bigint; asOf?: bigint; vault?: Hex }) => {
      const bars = [{ serial: `L${randomBytes(6).toString('hex')}`, refiner: 'PAMP SA', fineWei: p.totalFineWei }]
      return {
        vault: p.vault ?? LDN,
        asOf: p.asOf ?? (await now()),
        barsRoot: barsHash(bars),
        totalFineWei: totalFineWei(bars),
      }
    }
    const attest = async (list: Awaited<ReturnType<typeof barList>>, signer: LocalAccount = devKeys.custodian) => {
      const [{ signature }] = await signed(barListTypedData(domain, list), [signer])
      return {
        signature,
        send: () =>
          mined(
            relayer.writeContract({
              ...minter,
              functionName: 'attestReserve',
              args: [list, signer.address, signature],
            }),
          ),
      }
    }

    /** A control change, signed by the given keys (both dev admins by default), sent by the relayer. */
    const controlChange = async (
      change: ControlChangeAction,
      signers: readonly LocalAccount[] = [devKeys.admin, devKeys.admin2],
    ) => {
      const message: ControlChange = {
        changeId: randomId(),
        ...encodeControlChange(change),
        deadline: (await now()) + 3600n,
      }
      const signatures = await signed(controlChangeTypedData(domain, message), signers)
      return {
        message,
        signatures,
        send: () =>
          sendWithMargin(
            encodeFunctionData({ abi: minter.abi, functionName: 'applyControlChange', args: [message, signatures] }),
          ),
        simulate: () =>
          publicClient.simulateContract({
            ...minter,
            account: relayerAccount,
            functionName: 'applyControlChange',
            args: [message, signatures],
          }),
      }
    }

    /**
     * What the rate limit leaves after `amount` was minted in the receipt's block: the bucket
     * of the block before, refilled for the seconds between the two blocks (up to the
     * capacity), less the amount.
     */
    const availableAfterMint = async (receipt: TransactionReceipt, amount: bigint) => {
      const [capacity, rate] = await publicClient.readContract({ ...minter, functionName: 'rateLimit' })
      const previous = receipt.blockNumber - 1n
      const before = await publicClient.readContract({
        ...minter,
        functionName: 'availableToMint',
        blockNumber: previous,
      })
      const elapsed = (await timestampOf(receipt.blockNumber)) - (await timestampOf(previous))
      let refilled = before + elapsed * rate
      if (refilled > capacity) refilled = capacity
      return refilled - amount
    }

    const read = {
      balanceOf: (a: Address) => publicClient.readContract({ ...token, functionName: 'balanceOf', args: [a] }),
      totalSupply: () => publicClient.readContract({ ...token, functionName: 'totalSupply' }),
      reserve: () => publicClient.readContract({ ...minter, functionName: 'reserve' }),
      /** as of a block (the latest by default): the bucket refilled to that block's timestamp */
      availableToMint: (blockNumber?: bigint) =>
        publicClient.readContract({ ...minter, functionName: 'availableToMint', blockNumber }),
    }

    return {
      anvil,
      chain,
      publicClient,
      testClient,
      deployer,
      relayer,
      relayerAccount,
      holder,
      holderAccount,
      redemptionAccount,
      setup: fullSetup,
      tokenAddress,
      minterAddress,
      minter,
      token,
      domain,
      now,
      timestampOf,
      mineAfter,
      availableAfterMint,
      signed,
      mined,
      mintIntent,
      mintTypedData: (intent: MintIntent) => mintIntentTypedData(domain, intent),
      mint,
      simulateMint,
      barList,
      attest,
      controlChange,
      read,
      stop: () => anvil.stop(),
    }
  } catch (err) {
    await anvil.stop()
    throw err
  }
}

export type GoldMinterTestbed = Awaited<ReturnType<typeof startGoldMinterTestbed>>

/** A new random bytes32 id (an order, redemption, operation or change id). */
export function randomId(): Hex {
  return `0x${randomBytes(32).toString('hex')}`
}

/** The custom error a call reverted with (name and arguments), as GoldMinter's ABI decodes it. */
export async function refusal(call: Promise<unknown>): Promise<{ name: string | undefined; args: readonly unknown[] }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (error === undefined) throw new Error('the call succeeded; a revert was expected')
  if (!(error instanceof BaseError)) throw error
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  if (!(reverted instanceof ContractFunctionRevertedError)) throw error
  return { name: reverted.data?.errorName, args: reverted.data?.args ?? [] }
}

/** Compiles a test-only contract of contracts/testing/ (ERC1271Wallet, BarsProbe). */
export function compileTestContract(name: 'ERC1271Wallet' | 'BarsProbe') {
  return compileContract({ unit: `contracts/testing/${name}.sol`, contractName: name })
}
