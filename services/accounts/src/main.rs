//! The accounts service process.
fn main() -> anyhow::Result<()> {
    evidentia_common::service::main::<accounts::AccountsService>()
}
