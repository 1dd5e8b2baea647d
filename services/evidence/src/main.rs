//! The evidence service process.

/// mimalloc: glibc's malloc and free were a sixth of the gateway's CPU on the read path
/// (docs/benchmarks.md, "Where the read path's time goes").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    evidentia_common::service::main::<evidence::EvidenceService>()
}
