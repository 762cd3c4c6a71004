/// The shape every domain event shares: a dotted, aggregate-first type and a JSON-serialisable payload.

export type DomainEvent<Type extends string = string, Data extends object = object> = {
  type: Type
  data: Data
}
