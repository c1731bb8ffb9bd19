// npm run worker: one more worker process joining the stack that `npm start` runs (its
// .data/stack.env), or any stack given by the environment (variables set win).
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readEnvFile } from './stack/envFile'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const fromStack = readEnvFile(path.join(root, '.data', 'stack.env'))
const env = { ...fromStack, ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' }

const child = spawn(process.execPath, [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'worker/runtime/main.ts'], {
  cwd: root,
  env,
  stdio: 'inherit',
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
