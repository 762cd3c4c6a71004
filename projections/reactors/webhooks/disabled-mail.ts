/// The mail that tells an endpoint's owner (whoever registered it) that it was disabled after three
/// days of failed deliveries, and how to turn it on again. A backend's endpoint has no owner to mail.

import type { Kysely } from 'kysely'
import type { MailTransport } from '../../../infra/mail/mail.js'
import { buildLink, render } from '../../../infra/mail/templates.js'
import type { Database } from '../../database.js'
import { findUserById } from '../../users/users.repository.js'
import type { WebhookEndpointRow } from '../../webhooks/webhook-endpoints.table.js'

export const webhookDisabledNotifier =
  (db: Kysely<Database>, transport: MailTransport, baseUrl: string) =>
  async (endpoint: WebhookEndpointRow, failingSince: Date): Promise<void> => {
    const owner = endpoint.created_by === null ? undefined : await findUserById(db, endpoint.created_by)
    if (!owner) return
    const mail = render({
      subject: 'A webhook endpoint was disabled',
      name: owner.name,
      paragraphs: [
        `Deliveries to ${endpoint.url} have failed since ${failingSince.toISOString()}, so the endpoint was disabled.`,
        'Events are kept: once the endpoint answers again, enable it and replay from where it stopped.',
      ],
      action: 'Open the portal',
      url: buildLink(baseUrl, '/'),
      footer: 'You registered this endpoint; nobody else was told.',
    })
    await transport.send({
      ...mail,
      to: owner.email,
      idempotencyKey: `webhook-disabled-${endpoint.id}-${failingSince.getTime()}`,
    })
  }
