/// `Access-Control-Expose-Headers`: lets a browser app on another origin read a response header
/// (`set-auth-jwt`, `set-auth-token`). Merged with what the answer already exposes, as better-auth does.

import type { FastifyReply } from 'fastify'

export const exposeHeader = (reply: FastifyReply, name: string): void => {
  const current = reply.getHeader('access-control-expose-headers')
  const listed = [current ?? []]
    .flat()
    .flatMap((value) => String(value).split(','))
    .map((header) => header.trim())
    .filter(Boolean)
  if (!listed.some((header) => header.toLowerCase() === name.toLowerCase())) listed.push(name)
  reply.header('access-control-expose-headers', listed.join(', '))
}
