//! The evidence service process.
fn main() -> anyhow::Result<()> {
    evidentia_common::service::main::<evidence::EvidenceService>()
}
