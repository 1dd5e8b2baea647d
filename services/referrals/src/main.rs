//! The referrals service process; `referrals promo-code create ...` is the operators' command.

/// mimalloc: glibc's malloc and free were a sixth of the gateway's CPU on the read path
/// (docs/benchmarks.md, "Where the read path's time goes").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("promo-code") {
        return referrals::cli::promo_code(&args[2..]);
    }
    evidentia_common::service::main::<referrals::ReferralsService>()
}
