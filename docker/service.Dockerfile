# syntax=docker/dockerfile:1.7
#
# One image per Rust gRPC service without ffmpeg (accounts, payments, referrals); evidence and
# sharing, which need it, have docker/media.Dockerfile.
# The build context is the repository root; the ignore file beside this one lets in only what
# cargo needs.
#
#   docker build -f docker/service.Dockerfile --build-arg SERVICE=accounts -t evidentia-accounts .
#
# The binary is the entrypoint: `docker run IMAGE` serves gRPC, `docker run IMAGE migrate` applies
# the service's migrations and exits (the chart's migration Jobs do that). Listen addresses default
# to 127.0.0.1 in the binaries, so a container must set GRPC_LISTEN_ADDR=0.0.0.0:<port>
# (the chart does).

ARG RUST_VERSION=1.95
ARG DEBIAN_CODENAME=bookworm

# --- build -------------------------------------------------------------------------------------
# Builder and runtime share the Debian release, so the binary's glibc matches the runtime's.
FROM rust:${RUST_VERSION}-${DEBIAN_CODENAME} AS builder

# protoc and the well-known types every contract imports (google/protobuf/timestamp.proto is in
# libprotobuf-dev, only a recommendation of protobuf-compiler) for tonic-prost-build; cmake in
# case aws-lc-sys falls back to its CMake build.
# Versions come from the Debian release pinned above.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends protobuf-compiler libprotobuf-dev cmake \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# SQLX_OFFLINE: compile-checked queries use the committed `cargo sqlx prepare` cache, no database.
ENV CARGO_TARGET_DIR=/cargo-target \
    CARGO_TERM_COLOR=never \
    CARGO_PROFILE_RELEASE_STRIP=debuginfo \
    SQLX_OFFLINE=true
COPY . .

ARG SERVICE
# Cache mounts keep the registry and the target dir between builds of every service image.
RUN --mount=type=cache,id=evidentia-cargo-registry,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,id=evidentia-cargo-git,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,id=evidentia-cargo-target,target=/cargo-target,sharing=locked \
    case "${SERVICE}" in \
      accounts|payments|referrals) ;; \
      evidence|sharing) echo "${SERVICE} needs ffmpeg: build it with docker/media.Dockerfile" >&2; exit 1 ;; \
      *) echo "build arg SERVICE must be one of accounts payments referrals (got '${SERVICE}'); the gateway has docker/gateway.Dockerfile" >&2; exit 1 ;; \
    esac \
 && cargo build --release --locked --bin "${SERVICE}" \
 && install -D -m 0755 "/cargo-target/release/${SERVICE}" /out/evidentia-service

# --- runtime -----------------------------------------------------------------------------------
# distroless/cc: glibc, libgcc, CA certificates and tzdata; no shell, no package manager.
FROM gcr.io/distroless/cc-debian12:nonroot AS runtime

ARG SERVICE
LABEL org.opencontainers.image.title="evidentia-${SERVICE}" \
      org.opencontainers.image.description="Evidentia ${SERVICE} gRPC service" \
      org.opencontainers.image.source="https://github.com/evidentia/evidentia"

ENV LOG_FORMAT=json \
    OTEL_SERVICE_NAME=${SERVICE}

WORKDIR /app
COPY --from=builder /out/evidentia-service /usr/local/bin/evidentia-service

# The distroless `nonroot` user, numeric so Kubernetes can verify runAsNonRoot.
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/evidentia-service"]
