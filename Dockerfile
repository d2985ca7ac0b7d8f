# One image for every process of the service; docker-compose.yml picks the command.
FROM node:20-bookworm-slim

# ffmpeg and espeak-ng draw and voice the videos; the fonts are what the renderer types with
# (RENDER_FONTS in packages/render/src/system-packages.ts: text, CJK, emoji, code, brand fonts).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg espeak-ng fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
    fonts-jetbrains-mono fonts-inter fonts-roboto fonts-open-sans fonts-lato ca-certificates \
 && rm -rf /var/lib/apt/lists/*
RUN npm install -g pnpm@10.34.8

WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile

ENV NODE_ENV=production
# DATA_DIR in docker-compose.yml: the blob store's volume and the render farm's scratch space.
RUN mkdir -p /data && chown node:node /data
USER node
CMD ["node", "--import", "tsx", "services/gateway/src/main.ts"]
