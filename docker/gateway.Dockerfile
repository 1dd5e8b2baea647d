# syntax=docker/dockerfile:1.7
#
# The gateway image: the axum HTTP gateway plus the built web app it serves.
# The build context is the repository root (see gateway.Dockerfile.dockerignore).
#
#   docker build -f docker/gateway.Dockerfile -t evidentia-gateway .
#
# The gateway listens on 0.0.0.0:8081 and serves the PWA from WEB_DIST_DIR=/app/web/dist.

ARG RUST_VERSION=1.95
ARG NODE_VERSION=20
ARG DEBIAN_CODENAME=bookworm

# --- web app -----------------------------------------------------------------------------------
FROM node:${NODE_VERSION}-${DEBIAN_CODENAME}-slim AS web
WORKDIR /src/web
# Dependencies first: this layer is reused until package*.json change.
COPY web/package.json web/package-lock.json ./
RUN --mount=type=cache,id=evidentia-npm,target=/root/.npm,sharing=locked \
    npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

# --- gateway binary ----------------------------------------------------------------------------
FROM rust:${RUST_VERSION}-${DEBIAN_CODENAME} AS builder

# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends protobuf-compiler libprotobuf-dev cmake \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
ENV CARGO_TARGET_DIR=/cargo-target \
    CARGO_TERM_COLOR=never \
    CARGO_PROFILE_RELEASE_STRIP=debuginfo \
    SQLX_OFFLINE=true
# The whole allow-listed context: the workspace plus the optional .sqlx/ and .cargo/ (web/ is
# here too; unchanged Rust sources keep cargo's incremental state in the cache mount valid).
COPY . .
RUN --mount=type=cache,id=evidentia-cargo-registry,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,id=evidentia-cargo-git,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,id=evidentia-cargo-target,target=/cargo-target,sharing=locked \
    cargo build --release --locked --bin gateway \
 && install -D -m 0755 /cargo-target/release/gateway /out/gateway

# --- runtime -----------------------------------------------------------------------------------
FROM gcr.io/distroless/cc-debian12:nonroot AS runtime

LABEL org.opencontainers.image.title="evidentia-gateway" \
      org.opencontainers.image.description="Evidentia HTTP gateway and web app" \
      org.opencontainers.image.source="https://github.com/evidentia/evidentia"

ENV LOG_FORMAT=json \
    OTEL_SERVICE_NAME=gateway \
    HTTP_LISTEN_ADDR=0.0.0.0:8081 \
    WEB_DIST_DIR=/app/web/dist

WORKDIR /app
COPY --from=builder /out/gateway /usr/local/bin/gateway
COPY --from=web /src/web/dist /app/web/dist

EXPOSE 8081
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/gateway"]
