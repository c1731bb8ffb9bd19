import { describe, expect, it } from 'vitest'
import { createKmsClient } from './createKmsClient'

const credentialsOf = async (client: ReturnType<typeof createKmsClient>) => {
  const provider = client.config.credentials
  return provider()
}

describe('createKmsClient', () => {
  it('uses the dev credentials only for an endpoint on loopback', async () => {
    const local = createKmsClient({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:4599', env: {} })
    expect(await credentialsOf(local)).toMatchObject({
      accessKeyId: 'mintdesk-local',
      secretAccessKey: 'mintdesk-local',
    })
    expect(await local.config.region()).toBe('eu-west-1')
    const endpoint = await local.config.endpoint?.()
    expect(endpoint?.hostname).toBe('127.0.0.1')
    expect(endpoint?.port).toBe(4599)
    local.destroy()
  })

  it('prefers AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY from the environment', async () => {
    const client = createKmsClient({
      region: 'us-east-1',
      endpoint: 'http://localhost:4599',
      env: { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' },
    })
    expect(await credentialsOf(client)).toMatchObject({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' })
    client.destroy()
  })

  it("takes a remote endpoint's credentials from the environment, never the dev pair", async () => {
    // (without them the SDK's default chain would run, which probes the network: not here)
    const client = createKmsClient({
      region: 'us-east-1',
      endpoint: 'https://kms.example.internal',
      env: { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' },
    })
    expect(await credentialsOf(client)).toMatchObject({ accessKeyId: 'AKIDEXAMPLE' })
    client.destroy()
  })
})
