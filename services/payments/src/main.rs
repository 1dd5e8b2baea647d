//! The payments service process.
fn main() -> anyhow::Result<()> {
    evidentia_common::service::main::<payments::PaymentsService>()
}
