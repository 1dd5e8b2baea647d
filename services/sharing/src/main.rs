//! The sharing service process.
fn main() -> anyhow::Result<()> {
    evidentia_common::service::main::<sharing::SharingService>()
}
