/// `tessera webhooks list | add <url> <type,type…> [--organization <id>] | remove <endpointId> |
/// replay <endpointId> --from <cursor|ISO time>`: an operator's console for webhook endpoints. It
/// runs the same use cases as the routes, as the system (an operator's authority).

import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { createWebhook, deleteWebhook, replayWebhook } from '../../command-api/webhooks/manage-webhooks.js'
import type { WebhookCaller } from '../../http/guards/webhook-caller.js'
import { endpointJson } from '../../http/presenters/webhook-json.js'
import { ConfigError, loadConfig } from '../../infra/config/config.js'
import { type EventStore, type GlobalPosition, START } from '../../infra/event-store/event-store.js'
import { encodeCursor } from '../../infra/webhooks/cursor.js'
import { allEndpoints } from '../../projections/webhooks/webhook-endpoints.repository.js'
import { createTessera, type Tessera } from '../server/tessera.js'

const USAGE =
  'Usage: tessera webhooks list | add <url> <type,type...> [--organization <id>] | remove <endpointId> | replay <endpointId> --from <cursor|time>'

const operator: WebhookCaller = { authority: { kind: 'operator' }, actor: { type: 'system' }, userId: null }

const optionOf = (args: readonly string[], name: string): string | undefined => {
  const index = args.indexOf(name)
  return index === -1 ? undefined : args[index + 1]
}

/** The cursor just before the first event recorded at or after `time`. */
const cursorAt = async (store: EventStore, time: Date): Promise<string> => {
  let before: GlobalPosition = START
  for (;;) {
    const page = await store.readAll(before, 1000)
    for (const event of page) {
      if (event.recordedAt >= time) return encodeCursor(before)
      before = event.position
    }
    if (page.length < 1000) return encodeCursor(before)
  }
}

const fromOption = async (tessera: Tessera, from: string | undefined): Promise<string> => {
  if (from === undefined) throw new ConfigError('webhooks', USAGE)
  const time = /^\d{4}-\d{2}-\d{2}/.test(from) ? new Date(from) : null
  if (time && !Number.isNaN(time.getTime())) return cursorAt(tessera.store, time)
  return from
}

const run = async (tessera: Tessera, args: readonly string[]): Promise<void> => {
  const [action, first, second] = args
  const origin = { requestId: randomUUID(), ip: null, userAgent: 'tessera-cli' }
  const ctx = tessera.ctx
  if (action === 'list') {
    for (const endpoint of (await allEndpoints(ctx.db)).map(endpointJson))
      console.log(
        `${endpoint.id}  ${endpoint.enabled ? 'enabled ' : 'disabled'}  ${endpoint.organizationId ?? 'service-wide'}  ${endpoint.url}  ${endpoint.eventTypes.join(',')}`,
      )
    return
  }
  if (action === 'add' && first && second) {
    const organizationId = optionOf(args, '--organization')
    const { endpoint, secret } = await createWebhook(ctx, origin, operator, {
      url: first,
      eventTypes: second.split(','),
      ...(organizationId ? { organizationId } : {}),
    })
    console.log(`Endpoint ${endpoint.id} added. Signing secret (shown once): ${secret}`)
    return
  }
  if (action === 'remove' && first) {
    await deleteWebhook(ctx, origin, operator, first)
    console.log(`Endpoint ${first} removed.`)
    return
  }
  if (action === 'replay' && first) {
    await replayWebhook(ctx, origin, operator, first, await fromOption(tessera, optionOf(args, '--from')))
    console.log(`Endpoint ${first} will receive the events again from there.`)
    return
  }
  throw new ConfigError('webhooks', USAGE)
}

export const webhooksCommand = async (args: readonly string[]) => {
  const tessera = await createTessera({
    config: loadConfig(),
    logger: pino({ level: 'warn' }),
    role: 'projector',
  })
  try {
    await run(tessera, args)
  } finally {
    await tessera.close()
  }
}
