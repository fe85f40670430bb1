# syntax=docker/dockerfile:1
#
# The nardy rules service as a container: `docker build -t nardy-rules .`
# Node.js 24, the current LTS (package.json engines and README: Node 22.12+ and 24; 20.19+ still runs).
# Two stages: `build` compiles TypeScript with every dependency; `runtime` holds
# only the production dependencies (from the lockfile), the compiled code, the
# OpenAPI document the app validates against and the evaluators' data files, and runs as a non-root user.
# .ci/container-check.sh replays these steps without a container engine, so keep
# to the instructions it understands (FROM/WORKDIR/ENV/COPY/RUN/USER/EXPOSE/
# HEALTHCHECK/STOPSIGNAL/LABEL/CMD) and to paths relative to WORKDIR in RUN.

# ---- build stage: install everything from the lockfile and compile -------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
# src/contract/schema.ts links to the request and answer types generated from openapi.yaml (npm run client:types).
COPY packages/client/src/schema.ts ./packages/client/src/schema.ts
# The analysis board page (/board): bundled by esbuild into dist/board by `npm run build`.
COPY web ./web
COPY scripts/build/board.ts ./scripts/build/
RUN npm run build

# ---- runtime stage: production dependencies, compiled code, non-root ------------
FROM node:24-bookworm-slim AS runtime
LABEL org.opencontainers.image.title="nardy-rules-service" \
      org.opencontainers.image.description="Rules and analysis service for the nardy family of board games" \
      org.opencontainers.image.licenses="MIT"
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Read at run time: src/http/app.ts loads ../../openapi.yaml relative to dist/http/.
COPY openapi.yaml ./
# The trained networks and one-sided bear-off databases the evaluators read (../../../data from dist/service/analysis/).
COPY data ./data
# The files above belong to root and are read-only for the service: it writes nothing to disk.
USER node
EXPOSE 3000
# The slim image has no curl; Node's fetch probes the liveness endpoint.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# main.ts drains on SIGTERM (/ready answers 503, in-flight requests finish) and exits 0.
STOPSIGNAL SIGTERM
# Exec form, so node is PID 1 and receives SIGTERM itself (a shell would swallow it).
CMD ["node", "dist/main.js"]
