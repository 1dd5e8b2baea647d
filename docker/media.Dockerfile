# syntax=docker/dockerfile:1.7
#
# The image of a service that runs ffmpeg: evidence (video poster frames, EVIDENCE_FFMPEG) and
# sharing (watermarked video and audio copies, SHARING_FFMPEG). Like docker/service.Dockerfile,
# but distroless has no ffmpeg, so the runtime is Debian slim with only ffmpeg added.
# The build context is the repository root (see media.Dockerfile.dockerignore).
#
#   docker build -f docker/media.Dockerfile --build-arg SERVICE=evidence -t evidentia-evidence .
#   docker build -f docker/media.Dockerfile --build-arg SERVICE=sharing -t evidentia-sharing .
#
# `docker run IMAGE` serves gRPC; `docker run IMAGE migrate` applies the migrations and exits.
# A container must set GRPC_LISTEN_ADDR (the chart does).

ARG RUST_VERSION=1.95
ARG DEBIAN_CODENAME=bookworm

# --- build -------------------------------------------------------------------------------------
FROM rust:${RUST_VERSION}-${DEBIAN_CODENAME} AS builder
ARG SERVICE

# protoc (and the well-known types) for tonic-prost-build; cmake in case aws-lc-sys falls back
# to its CMake build.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends protobuf-compiler libprotobuf-dev cmake \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
ENV CARGO_TARGET_DIR=/cargo-target \
    CARGO_TERM_COLOR=never \
    CARGO_PROFILE_RELEASE_STRIP=debuginfo
COPY . .

RUN --mount=type=cache,id=evidentia-cargo-registry,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,id=evidentia-cargo-git,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,id=evidentia-cargo-target,target=/cargo-target,sharing=locked \
    cargo build --release --locked --bin "${SERVICE}" \
 && install -D -m 0755 "/cargo-target/release/${SERVICE}" /out/evidentia-service

# --- runtime -----------------------------------------------------------------------------------
# The same Debian release as the builder, so the binary's glibc matches.
FROM debian:${DEBIAN_CODENAME}-slim AS runtime

ARG SERVICE
# ffmpeg; CA certificates for S3, SMTP and an online geocoder over TLS; tzdata.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/*

LABEL org.opencontainers.image.title="evidentia-${SERVICE}" \
      org.opencontainers.image.description="Evidentia ${SERVICE} gRPC service (with ffmpeg)" \
      org.opencontainers.image.source="https://github.com/evidentia/evidentia"

ENV LOG_FORMAT=json \
    OTEL_SERVICE_NAME=${SERVICE} \
    EVIDENCE_FFMPEG=/usr/bin/ffmpeg \
    SHARING_FFMPEG=/usr/bin/ffmpeg

WORKDIR /app
COPY --from=builder /out/evidentia-service /usr/local/bin/evidentia-service

# A numeric non-root user, so Kubernetes can verify runAsNonRoot (the same id as distroless).
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/evidentia-service"]
