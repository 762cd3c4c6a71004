# Tessera's image: built in one stage, run from another that holds only the compiled server, the
# built portal and the production dependencies, as the unprivileged `node` user.
#
#   docker build -t tessera .
#   docker run -e AUTH_SECRET=… -e BASE_URL=https://auth.example.com -e DATABASE_URL=postgres://… \
#     -p 3000:3000 tessera                       # API + projector (default: serve --role all)
#   docker run … tessera serve --role api        # more API instances behind a load balancer
#   docker run … tessera serve --role projector  # exactly one projector per database
#   docker run … tessera migrate | replay | export | import …   (the other CLI commands)

# Build: every dependency (TypeScript, Vite), then the server (dist/) and the portal (web/dist/).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only; no install scripts run (none of them needs one).
FROM node:20-bookworm-slim AS production-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY package.json ./
# The embedded database's directory (used when DATABASE_URL is unset): the only place the process writes.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 3000
# Readiness, not liveness: 503 while the database is unreachable or the read models lag or halt.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/auth/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The compiled CLI directly: bin/tessera.js would try to rebuild, and the compilers are not here.
ENTRYPOINT ["node", "dist/app/cli/main.js"]
CMD ["serve"]
