import { readFileSync } from 'node:fs'
import os from 'node:os'
import type { MachineInfo } from '../BenchResult'

/** The machine the bench runs on: cores, CPU model, memory, Node and the OS (its pretty name when it has one). */
export function machineInfo(): MachineInfo {
  let osName = `${os.type()} ${os.release()}`
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1]
    if (pretty) osName = `${pretty}, kernel ${os.release()}`
  } catch {}
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: osName,
  }
}
