# syntax=docker/dockerfile:1
# The partner API as a container: `docker compose up` runs it on PostgreSQL + pgvector (compose.yaml); alone, it
# runs on the embedded database in the /data volume. Not built on the development machine (no Docker there);
# kept correct against Docker's and Node's image documentation.

# ── build: install everything, compile src/ to dist/, then drop the dev dependencies ──
FROM node:20.19-bookworm-slim AS build
WORKDIR /app
# onnxruntime-node's install script would download CUDA binaries; the CPU binaries ship inside the package.
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY tools ./tools
COPY schema ./schema
COPY src ./src
RUN npm run build && npm prune --omit=dev

# ── runtime: compiled code, production dependencies, the contract; a non-root user ──
FROM node:20.19-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/data \
    METADATA_SERVER_DETECTION=none \
    AWS_EC2_METADATA_DISABLED=true \
    MALLOC_ARENA_MAX=1
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/schema ./schema
USER node
VOLUME ["/data"]
EXPOSE 4000
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1's only process (no npm, no shell): SIGTERM reaches the server, which drains and exits.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=64", "--no-allocation-site-pretenuring", "--enable-source-maps", "dist/main.js"]
