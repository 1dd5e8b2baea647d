//! Operators' commands (docs/decisions.md "Referral rewards"), against the service's database
//! (`DATABASE_URL` / the local default):
//! `payments referral-rewards held` lists the rewards held for review;
//! `payments referral-rewards release <friend's user id>` pays a held reward as any other;
//! `payments referral-rewards refuse <friend's user id>` refuses it.

use evidentia_common::config::Configuration as _;
use uuid::Uuid;

use crate::{app::rewards, config::Config, store::referral_rewards};

const USAGE: &str = "usage: payments referral-rewards held | release <user id> | refuse <user id>";

pub fn referral_rewards(args: &[String]) -> anyhow::Result<()> {
    let command = args.first().map(String::as_str);
    let friend = match (command, args.get(1)) {
        (Some("held"), None) => None,
        (Some("release" | "refuse"), Some(id)) => Some(Uuid::parse_str(id)?),
        _ => anyhow::bail!(USAGE),
    };
    let config = Config::from_env()?;
    let migrations = &crate::startup::MIGRATIONS;
    evidentia_common::db::run_with_pool(
        &config.service.database_url,
        migrations,
        |pool| async move {
            let mut tx = pool.begin().await?;
            let Some(friend) = friend else {
                for held in referral_rewards::held(&mut tx).await? {
                    println!(
                        "{} referred by {}: {}",
                        held.referred_id, held.referrer_id, held.reason
                    );
                }
                return Ok(());
            };
            let release = command == Some("release");
            if !rewards::review(&mut tx, &config.pricing, friend, release)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?
            {
                anyhow::bail!("{friend} has no reward held for review");
            }
            tx.commit().await?;
            println!("{friend}: {}", if release { "released" } else { "refused" });
            Ok(())
        },
    )
}
