/// GET /ok (liveness), GET /ready (readiness: 503 with the reasons while the read models cannot
/// be trusted to show a command's effect, readiness.ts), GET /metrics (the same figures in
/// Prometheus' text format) and GET /error (a small page for failures that end in a browser
/// redirect, e.g. OAuth: it names the error and links back to the application).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { escapeHtml } from '../../infra/mail/templates.js'
import type { QueryContext } from '../context.js'
import type { Readiness } from './readiness.js'

const ERROR_CODE = /^[A-Za-z0-9_]{1,100}$/

const errorPage = (code: string | null, homeUrl: string) => `<!doctype html>
<html lang="en" dir="ltr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Something went wrong</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2328}
code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}a{color:#0b57d0}</style></head>
<body><h1>Something went wrong</h1>
<p>We could not finish what you asked for.${code ? ` Error: <code>${escapeHtml(code)}</code>.` : ''}</p>
<p><a href="${escapeHtml(homeUrl)}">Go back to the application</a></p></body></html>`

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()])

const ReadinessReport = Type.Object({
  ready: Type.Boolean(),
  reasons: Type.Array(Type.String()),
  projector: Type.Object({
    group: Type.String(),
    mode: Type.String(),
    state: Type.String(),
    checkpoint: Type.String({ description: 'Position the read models include, `tx:seq`' }),
    failures: Type.Integer(),
    failuresTotal: Type.Integer(),
    lastError: Nullable(Type.String()),
    fault: Nullable(Type.String()),
  }),
  lag: Type.Object({
    behindEvents: Type.Integer(),
    behindSeconds: Type.Number(),
    heldByHorizon: Type.Integer({ description: 'Events held back by a transaction still running' }),
    oldestTransactionSeconds: Nullable(Type.Number()),
    pendingRevocations: Type.Integer(),
  }),
})

export const healthRoutes =
  ({
    config,
    readiness,
  }: Pick<QueryContext, 'config'> & { readiness: Readiness }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/ready',
      {
        schema: {
          summary:
            'Readiness check: 503 with the reasons while the read models lag, or the projector is stopped or halted',
          tags: ['Health'],
          response: { 200: ReadinessReport, 503: ReadinessReport },
        },
      },
      async (_request, reply) => {
        const report = await readiness.check()
        return reply.status(report.ready ? 200 : 503).send(report)
      },
    )

    app.get(
      '/metrics',
      {
        schema: {
          summary: 'Projector, consistency, event-loop and GC metrics, Prometheus text format',
          tags: ['Health'],
        },
      },
      async (_request, reply) =>
        reply.type('text/plain; version=0.0.4; charset=utf-8').send(await readiness.metrics()),
    )

    app.get(
      '/ok',
      {
        schema: {
          summary: 'Liveness check',
          tags: ['Health'],
          response: { 200: Type.Object({ ok: Type.Boolean() }) },
        },
      },
      async () => ({
        ok: true,
      }),
    )

    app.get(
      '/error',
      {
        schema: {
          summary: 'An HTML page for failures that end in a browser redirect',
          tags: ['Health'],

          querystring: Type.Object({ error: Type.Optional(Type.String({ maxLength: 200 })) }),
        },
      },
      async (request, reply) => {
        const { error } = request.query
        const code = error && ERROR_CODE.test(error) ? error : null
        return reply.type('text/html; charset=utf-8').send(errorPage(code, `${config.baseUrl}/`))
      },
    )
  }
