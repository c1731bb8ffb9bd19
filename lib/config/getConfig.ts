import { type Config, type ConfigRole, loadConfig } from './loadConfig'

let cached: Config | undefined

/** The process's configuration, parsed once. */
export function getConfig(role: ConfigRole = 'tool'): Config {
  cached ??= loadConfig({ role })
  return cached
}
