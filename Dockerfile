# One image for both processes: `npm run api` or `npm run worker` (see docker-compose.yml).
# Node 24, an LTS line (Node 20's support ended 2026-04-30). package.json's engines is the floor the code and its
# dependencies need (test/unit/supported-runtimes.test.ts keeps both in step).
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY data ./data
ENV NODE_ENV=production
CMD ["npm", "run", "api"]
