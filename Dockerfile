# Arbiter's image: `docker compose up` builds it (see docker-compose.yml), or `docker build -t arbiter .`.
# Build stage: install from the lockfile (npm ci also builds dist/: the `prepare` script), then drop
# the development dependencies. Runtime stage: the build, production dependencies and migrations only.
# Node 24 ("Krypton"), the current LTS (docs/operating.md, "Requirements and building").
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
# The embedded database's folder (used when DATABASE_URL is unset) belongs to the service's user.
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
EXPOSE 3000
# Node itself is the process: SIGTERM reaches it and it stops cleanly (run it with an init, e.g. `--init`).
CMD ["node", "dist/src/main.js"]
