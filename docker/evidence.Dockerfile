# syntax=docker/dockerfile:1.7
#
# The evidence service's image. Like docker/service.Dockerfile, plus ffmpeg at run time: the
# thumbnails consumer spawns it to make video poster frames (EVIDENCE_FFMPEG, default `ffmpeg` on
# the PATH). Distroless has no ffmpeg, so the runtime is Debian slim with only ffmpeg added.
# The build context is the repository root (see evidence.Dockerfile.dockerignore).
#
#   docker build -f docker/evidence.Dockerfile -t evidentia-evidence .
#
# `docker run IMAGE` serves gRPC; `docker run IMAGE migrate` applies the migrations and exits.
# A container must set GRPC_LISTEN_ADDR=0.0.0.0:50053 (the chart does).

ARG RUST_VERSION=1.95
ARG DEBIAN_CODENAME=bookworm

# --- build -------------------------------------------------------------------------------------
FROM rust:${RUST_VERSION}-${DEBIAN_CODENAME} AS builder

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
    cargo build --release --locked --bin evidence \
 && install -D -m 0755 /cargo-target/release/evidence /out/evidence

# --- runtime -----------------------------------------------------------------------------------
# The same Debian release as the builder, so the binary's glibc matches.
FROM debian:${DEBIAN_CODENAME}-slim AS runtime

# ffmpeg for poster frames; CA certificates for S3 and an online geocoder over HTTPS; tzdata.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/*

LABEL org.opencontainers.image.title="evidentia-evidence" \
      org.opencontainers.image.description="Evidentia evidence gRPC service (with ffmpeg)" \
      org.opencontainers.image.source="https://github.com/evidentia/evidentia"

ENV LOG_FORMAT=json \
    OTEL_SERVICE_NAME=evidence \
    EVIDENCE_FFMPEG=/usr/bin/ffmpeg

WORKDIR /app
COPY --from=builder /out/evidence /usr/local/bin/evidentia-service

# A numeric non-root user, so Kubernetes can verify runAsNonRoot (the same id as distroless).
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/evidentia-service"]
