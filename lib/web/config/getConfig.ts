import { type Config, type ConfigRole, loadConfig } from '@/lib/config/loadConfig'

const cached = new Map<ConfigRole, Config>()

/** The process's configuration, parsed once per role (the role decides what is required). */
export function getConfig(role: ConfigRole = 'tool'): Config {
  let config = cached.get(role)
  if (!config) {
    config = loadConfig({ role })
    cached.set(role, config)
  }
  return config
}
