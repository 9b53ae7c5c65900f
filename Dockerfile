# One image for both processes: `npm run api` or `npm run worker` (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY data ./data
ENV NODE_ENV=production
CMD ["npm", "run", "api"]
