import { BaseError } from './BaseError'

/** Errors of the process configuration (lib/config/loadConfig.ts). */

/** The environment is refused; `variables` names each offending variable. A process exits on it at startup. */
export class ConfigError extends BaseError<'config_invalid'> {
  override name = 'ConfigError'
  readonly variables: string[]

  constructor(variables: string[], message: string) {
    super('config_invalid', message)
    this.variables = variables
  }
}
