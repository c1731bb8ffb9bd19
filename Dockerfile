# syntax=docker/dockerfile:1.7
#
# mintdesk: two images from one build.
#
#   docker build --target web    -t mintdesk-web:$TAG .
#   docker build --target worker -t mintdesk-worker:$TAG .
#
# One script (scripts/build-release.ts) builds both the Next.js standalone server and the
# worker bundles into dist/release/{web,worker}; each runtime stage copies exactly one of
# those folders and nothing else. tests/release/standalone.int.test.ts copies the same
# folders the way the COPY lines below do (it reads this file) and runs them in production
# mode, so what is tested is what ships. The worker image also runs the one-off migration
# task of each deploy (`node migrate.mjs`) and the other tools of cli/. No dev default is
# baked in: configuration comes from the ECS task definitions (deploy/lib/MintdeskStack.ts)
# and Secrets Manager.

# Node 22 LTS on Debian bookworm, pinned by digest: a rebuild gets the same base image, not
# whatever the tag points to that day. docs/deploy.md says how to refresh it
# (`docker buildx imagetools inspect node:22-bookworm-slim`). The code also runs on Node 20
# (the local machines) and uses nothing that either version lacks.
ARG NODE_IMAGE=node:22-bookworm-slim@sha256:83f487e0a63425e5b4d146fb5e5be574bcbe1b7b843d3ebafdd95eaf7767a7e5
# SHA-256 of RDS's CA bundle (global-bundle.pem, 111 certificates as of 2026-10): the build
# fails when the downloaded file differs, instead of silently trusting other CAs. AWS
# republishes it when it rotates CAs: review the new bundle, then update this (docs/deploy.md).
ARG RDS_CA_BUNDLE_SHA256=fe45bbebf92ad3e27a583bbb2ddd1553c521ed4d49af5514dc0a40372ea5395c

# ---- deps: the locked dependencies, dev ones included (next, esbuild, tsx, typescript)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# ---- build: next build (standalone) + esbuild bundles -> dist/release/{web,worker}
FROM deps AS build
COPY . .
RUN node node_modules/tsx/dist/cli.mjs scripts/build-release.ts

# ---- web: the Next.js standalone server behind the load balancer
FROM ${NODE_IMAGE} AS web
WORKDIR /app
# Memory (docs/decisions/022, measured by `npm run bench`): after the intake's load the
# web's live heap is ~55 MB, but V8 kept 220 MB of old space reserved (357 MB resident).
# A 16 MB young generation (V8's default), 160 MB of old space (the 100,000-bar list import, the largest
# request, fits: the bench runs it) and two malloc arenas keep it under 300 MB.
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-semi-space-size=16 --max-old-space-size=160" \
    MALLOC_ARENA_MAX=2 \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/rds-global-bundle.pem
# RDS's CA bundle, so DATABASE_URL can say sslmode=verify-full; checked against its SHA-256
ARG RDS_CA_BUNDLE_SHA256
ADD --chmod=644 https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem /etc/ssl/certs/rds-global-bundle.pem
RUN echo "${RDS_CA_BUNDLE_SHA256}  /etc/ssl/certs/rds-global-bundle.pem" | sha256sum -c -
RUN groupadd --system --gid 10001 mintdesk \
 && useradd --system --uid 10001 --gid mintdesk --no-create-home --shell /usr/sbin/nologin mintdesk
# the code belongs to root (read-only for the app); only Next's cache folder is writable
COPY --from=build /app/dist/release/web ./
RUN mkdir -p /app/.next/cache && chown mintdesk:mintdesk /app/.next/cache
USER 10001:10001
EXPOSE 3000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["node", "healthcheck.mjs"]
CMD ["node", "server.js"]

# ---- worker: the graphile-worker process (its own ECS service), and the migrate task
FROM ${NODE_IMAGE} AS worker
WORKDIR /app
# Memory (docs/decisions/017, measured by `npm run bench`): the worker's live heap is ~36 MB
# after a burst, but V8 and glibc sized for a big machine let it peak at 237 MB. A 4 MB young
# generation, 96 MB of old space (~2.7x that live set; the working set is bounded by
# MINT_SEND_BATCH and MAX_IN_FLIGHT_PER_SIGNER, not by the queue) and two malloc arenas keep
# it near 130 MB. No --enable-source-maps: Node decodes worker.mjs.map into ~60 MB of live
# heap at start. The maps still ship beside the bundles, which keep their identifiers (only
# whitespace and comments are minified), so stack traces name their functions: map a trace
# offline, or run `node --enable-source-maps worker.mjs` to debug.
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-semi-space-size=4 --max-old-space-size=96" \
    MALLOC_ARENA_MAX=2 \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/rds-global-bundle.pem
ARG RDS_CA_BUNDLE_SHA256
ADD --chmod=644 https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem /etc/ssl/certs/rds-global-bundle.pem
RUN echo "${RDS_CA_BUNDLE_SHA256}  /etc/ssl/certs/rds-global-bundle.pem" | sha256sum -c -
RUN groupadd --system --gid 10001 mintdesk \
 && useradd --system --uid 10001 --gid mintdesk --no-create-home --shell /usr/sbin/nologin mintdesk
COPY --from=build /app/dist/release/worker ./
USER 10001:10001
# ECS sends SIGTERM, waits stopTimeout (30 s), then SIGKILL; the worker stops taking
# jobs and finishes those in flight within ~25 s
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["node", "healthcheck.mjs"]
CMD ["node", "worker.mjs"]
