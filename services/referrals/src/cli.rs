//! Operators' commands (docs/decisions.md "Promo codes"):
//! `referrals promo-code create --code "ABC 123" --amount-cents 500 [--max-redemptions N] [--expires-at RFC3339]`
//! against the service's database (`DATABASE_URL` / the local default).

use chrono::{DateTime, Utc};
use evidentia_common::config::Configuration as _;

use crate::{app::promo, config::Config, error::ReferralsError};

const USAGE: &str = "usage: referrals promo-code create --code <AAA AAA> --amount-cents <n> \
                     [--max-redemptions <n>] [--expires-at <RFC 3339 time>]";

pub fn promo_code(args: &[String]) -> anyhow::Result<()> {
    if args.first().map(String::as_str) != Some("create") {
        anyhow::bail!(USAGE);
    }
    let mut code = None;
    let mut amount = None;
    let mut max = None;
    let mut expires: Option<DateTime<Utc>> = None;
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        let value = rest
            .next()
            .ok_or_else(|| anyhow::anyhow!("{flag} needs a value; {USAGE}"))?;
        match flag.as_str() {
            "--code" => code = Some(value.clone()),
            "--amount-cents" => amount = Some(value.parse::<i64>()?),
            "--max-redemptions" => max = Some(value.parse::<i32>()?),
            "--expires-at" => expires = Some(DateTime::parse_from_rfc3339(value)?.to_utc()),
            other => anyhow::bail!("unknown option {other}; {USAGE}"),
        }
    }
    let (Some(code), Some(amount)) = (code, amount) else {
        anyhow::bail!(USAGE);
    };
    let config = Config::from_env()?;
    let migrations = &crate::startup::MIGRATIONS;
    evidentia_common::db::run_with_pool(
        &config.service.database_url,
        migrations,
        |pool| async move {
            match promo::create(&pool, &code, amount, max, expires).await {
                Ok(code) => {
                    println!("promo code {code} created: {amount} cents");
                    Ok(())
                }
                Err(ReferralsError::Invalid(errors)) => anyhow::bail!(
                    "{}",
                    errors
                        .iter()
                        .map(|e| e.message.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                Err(ReferralsError::Internal(err)) => Err(err),
                Err(other) => anyhow::bail!("{other}"),
            }
        },
    )
}
