/// A repository function as a port method: the same parameters without the leading database, which
/// the composition root binds once. Keeps a port's method in step with the repository it wraps.

// biome-ignore lint/suspicious/noExplicitAny: matches any repository function's database parameter
export type Bound<F> = F extends (db: any, ...rest: infer A) => infer R ? (...args: A) => R : never
