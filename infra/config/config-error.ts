/// Thrown for any configuration the server cannot start with; the message names the variable or
/// option at fault and says what would be accepted, because it is the only thing an operator sees.

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  /** The environment variable, `.env` line or config-file option at fault. */
  readonly key: string
  constructor(key: string, message: string) {
    super(message)
    this.key = key
  }
}
