# Warren in a container: the single executable on a slim Debian, data in the /data volume.
#   docker build -t warren .
#   docker run -p 3000:3000 -v warren-data:/data -e WARREN_URL=https://social.example warren
#   docker run --rm -v warren-data:/data warren /app/warren accounts create alice --email=a@example.com --confirmed

# Build stage: npm ci brings Bun (a devDependency) and the linux-x64/arm64 native packages; npm run build
# compiles and checks dist/warren (see docs/build.md).
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime stage: only the executable, and Debian's ffmpeg (with ffprobe) for video and audio uploads, found
# on PATH. libstdc++ (needed by sharp's libvips) is part of bookworm-slim.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates ffmpeg \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 warren \
 && useradd --system --uid 10001 --gid warren --home-dir /data --no-create-home warren \
 && mkdir -p /data /app \
 && chown warren:warren /data
COPY --from=build /src/dist/warren /app/warren
ENV WARREN_DATA_DIR=/data \
    WARREN_PORT=3000 \
    WARREN_HOST=0.0.0.0
USER warren
WORKDIR /data
VOLUME /data
EXPOSE 3000
# The executable unpacks its native libraries under $TMPDIR (/tmp): keep /tmp writable (tmpfs is fine).
CMD ["/app/warren", "serve"]
