//! The referrals service process.
fn main() -> anyhow::Result<()> {
    evidentia_common::service::main::<referrals::ReferralsService>()
}
