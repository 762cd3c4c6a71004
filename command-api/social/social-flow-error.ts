/** A flow that ends on the error page (or errorCallbackURL) with `?error=<code>`. */
export class SocialFlowError extends Error {
  override readonly name = 'SocialFlowError'
  constructor(readonly code: string) {
    super(code)
  }
}
