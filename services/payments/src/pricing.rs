//! The one pricing configuration (docs/decisions.md "Prices") and the breakdown every price
//! screen shows: price, service fee, card processing fee, wallet saving, and the totals by card
//! and from the wallet. All integer cents; percentages are basis points; every rounding is half
//! up, once, at the fee it makes.

use evidentia_common::{
    config::{ConfigError, env_or},
    errors::FieldError,
};

/// Spec §9: authorising a card for the first time charges $0.50 (a rule, not a tunable price).
pub const FIRST_AUTHORISATION: i64 = 50;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pricing {
    /// A folder's storage for a month, up to `storage_included_gb`.
    pub storage_month_price: i64,
    pub storage_included_gb: i64,
    /// Each further started GB, per month.
    pub storage_extra_gb_month_price: i64,
    pub storage_months_options: Vec<i32>,
    /// One copy sent to one recipient.
    pub sharing_authenticated: i64,
    pub sharing_unauthenticated: i64,
    pub service_fee_bps: i64,
    /// The wallet's saving on the service fee (spec §9: 10%).
    pub wallet_service_fee_saving_bps: i64,
    pub card_processing_bps: i64,
    pub card_processing_fixed: i64,
    /// Spec §9: authorising a card for the first time charges $0.50.
    pub first_authorisation: i64,
    /// Spec §9: auto top-up when the balance falls below $5.00.
    pub auto_top_up_threshold: i64,
    pub top_up_min: i64,
    pub top_up_max: i64,
    pub top_up_presets: Vec<i64>,
    /// What a referral earns, once, when the friend's first payment succeeds: the inviter's
    /// credit and the friend's.
    pub referrer_reward: i64,
    pub friend_reward: i64,
    /// Rewards one inviter can earn in a calendar month (UTC); further friends still sign up.
    pub referral_monthly_cap: i64,
}

impl Default for Pricing {
    fn default() -> Self {
        Self {
            storage_month_price: 199,
            storage_included_gb: 1,
            storage_extra_gb_month_price: 99,
            storage_months_options: vec![1, 3, 6, 12],
            sharing_authenticated: 499,
            sharing_unauthenticated: 199,
            service_fee_bps: 2000,
            wallet_service_fee_saving_bps: 1000,
            card_processing_bps: 290,
            card_processing_fixed: 30,
            first_authorisation: FIRST_AUTHORISATION,
            auto_top_up_threshold: 500,
            top_up_min: 1000,
            top_up_max: 10000,
            top_up_presets: vec![1000, 2500, 5000],
            referrer_reward: 500,
            friend_reward: 500,
            referral_monthly_cap: 10,
        }
    }
}

impl Pricing {
    /// Defaults overridden by `PRICING_*` variables (the amounts operators tune), each within
    /// its range (`MAX_PRICE_CENTS`, `MAX_BPS`) so no price computed from them can overflow.
    pub fn from_env() -> Result<Self, ConfigError> {
        let d = Self::default();
        Ok(Self {
            storage_month_price: cents("PRICING_STORAGE_MONTH_CENTS", d.storage_month_price)?,
            storage_included_gb: ranged(
                "PRICING_STORAGE_INCLUDED_GB",
                d.storage_included_gb,
                MAX_STORAGE_BYTES / GB,
            )?,
            storage_extra_gb_month_price: cents(
                "PRICING_STORAGE_EXTRA_GB_MONTH_CENTS",
                d.storage_extra_gb_month_price,
            )?,
            sharing_authenticated: cents(
                "PRICING_SHARING_AUTHENTICATED_CENTS",
                d.sharing_authenticated,
            )?,
            sharing_unauthenticated: cents(
                "PRICING_SHARING_UNAUTHENTICATED_CENTS",
                d.sharing_unauthenticated,
            )?,
            service_fee_bps: ranged("PRICING_SERVICE_FEE_BPS", d.service_fee_bps, MAX_BPS)?,
            card_processing_bps: ranged(
                "PRICING_CARD_PROCESSING_BPS",
                d.card_processing_bps,
                MAX_BPS,
            )?,
            card_processing_fixed: cents(
                "PRICING_CARD_PROCESSING_FIXED_CENTS",
                d.card_processing_fixed,
            )?,
            referrer_reward: cents("PRICING_REFERRER_REWARD_CENTS", d.referrer_reward)?,
            friend_reward: cents("PRICING_FRIEND_REWARD_CENTS", d.friend_reward)?,
            referral_monthly_cap: ranged(
                "PRICING_REFERRAL_MONTHLY_CAP",
                d.referral_monthly_cap,
                1000,
            )?,
            ..d
        })
    }

    /// The price of keeping `size` for `months` more months.
    pub fn storage(&self, size: StorageSize, months: i32) -> Result<Breakdown, OutOfRange> {
        let bytes = size.bytes();
        let started_gb = bytes / GB + i64::from(bytes % GB != 0);
        let extra_gb = started_gb
            .checked_sub(self.storage_included_gb)
            .ok_or(OutOfRange)?
            .max(0);
        let month = extra_gb
            .checked_mul(self.storage_extra_gb_month_price)
            .and_then(|extra| extra.checked_add(self.storage_month_price))
            .ok_or(OutOfRange)?;
        self.breakdown(month.checked_mul(i64::from(months)).ok_or(OutOfRange)?)
    }

    /// The price of sending one kind of copy to `recipients` people.
    pub fn sharing(&self, authenticated: bool, recipients: i32) -> Result<Breakdown, OutOfRange> {
        let each = if authenticated {
            self.sharing_authenticated
        } else {
            self.sharing_unauthenticated
        };
        self.breakdown(each.checked_mul(i64::from(recipients)).ok_or(OutOfRange)?)
    }

    pub fn breakdown(&self, price: i64) -> Result<Breakdown, OutOfRange> {
        if price < 0 {
            return Err(OutOfRange);
        }
        let service_fee = bps(price, self.service_fee_bps)?;
        let with_fee = price.checked_add(service_fee).ok_or(OutOfRange)?;
        let processing_fee = bps(with_fee, self.card_processing_bps)?
            .checked_add(self.card_processing_fixed)
            .ok_or(OutOfRange)?;
        let wallet_saving = bps(service_fee, self.wallet_service_fee_saving_bps)?;
        Ok(Breakdown {
            price,
            service_fee,
            processing_fee,
            wallet_saving,
            total: with_fee.checked_add(processing_fee).ok_or(OutOfRange)?,
            wallet_total: with_fee - wallet_saving,
        })
    }
}

const GB: i64 = 1_000_000_000;

/// The most a priced size may be: 10,000 GB, the cost estimator's 'Maximum 10000 GB'
/// (docs/decisions.md "Payments: input ranges and Stripe ids").
pub const MAX_STORAGE_BYTES: i64 = 10_000 * GB;
/// The most a configured amount may be: $10,000.
pub const MAX_PRICE_CENTS: i64 = 1_000_000;
/// A percentage in basis points: 0 to 100%.
pub const MAX_BPS: i64 = 10_000;

/// A price that does not fit in the cents we count in: a configuration or a measured size far past
/// any real one. Never a panic or a wrapped number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a price is out of range")]
pub struct OutOfRange;

/// A size to price, in bytes: 0 to `MAX_STORAGE_BYTES`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageSize(i64);

impl StorageSize {
    pub fn parse(field: &str, bytes: i64) -> Result<Self, FieldError> {
        if bytes < 0 {
            return Err(FieldError::new(field, "The size cannot be negative."));
        }
        if bytes > MAX_STORAGE_BYTES {
            return Err(FieldError::new(field, "The size can be at most 10000 GB."));
        }
        Ok(Self(bytes))
    }

    /// A folder's size as evidence measured it: not the user's input, so not refused; a size past
    /// the range still prices with checked arithmetic.
    pub fn measured(bytes: i64) -> Self {
        Self(bytes.max(0))
    }

    pub fn bytes(self) -> i64 {
        self.0
    }
}

fn cents(name: &str, default: i64) -> Result<i64, ConfigError> {
    ranged(name, default, MAX_PRICE_CENTS)
}

fn ranged(name: &str, default: i64, max: i64) -> Result<i64, ConfigError> {
    let value: i64 = env_or(name, &default.to_string())?;
    if (0..=max).contains(&value) {
        Ok(value)
    } else {
        Err(ConfigError {
            name: name.to_owned(),
            value: value.to_string(),
            reason: format!("must be between 0 and {max}"),
        })
    }
}

/// `amount * bps / 10_000`, rounded half up (in i128, so the product cannot overflow).
fn bps(amount: i64, bps: i64) -> Result<i64, OutOfRange> {
    let fee = (i128::from(amount) * i128::from(bps) + 5_000) / 10_000;
    i64::try_from(fee).map_err(|_| OutOfRange)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Breakdown {
    pub price: i64,
    pub service_fee: i64,
    pub processing_fee: i64,
    pub wallet_saving: i64,
    /// By card: price + service fee + processing fee.
    pub total: i64,
    /// From the wallet: no processing fee, and 10% off the service fee.
    pub wallet_total: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_month_of_a_small_folder_costs_the_month_price_plus_fees() {
        let b = Pricing::default().storage(size(300_000_000), 1).unwrap();
        assert_eq!(b.price, 199);
        assert_eq!(b.service_fee, 40); // 20% of 1.99 = 39.8
        assert_eq!(b.processing_fee, 37); // 2.9% of 2.39 = 6.93 -> 7, + 30
        assert_eq!(b.wallet_saving, 4); // 10% of the service fee (spec §9)
        assert_eq!(b.total, 276);
        assert_eq!(b.wallet_total, 235);
    }

    #[test]
    fn each_started_gigabyte_past_the_included_one_adds_to_the_month() {
        let p = Pricing::default();
        let price = |bytes, months| p.storage(size(bytes), months).unwrap().price;
        assert_eq!(price(1_000_000_000, 1), 199);
        assert_eq!(price(1_000_000_001, 1), 199 + 99);
        assert_eq!(price(3_500_000_000, 6), (199 + 3 * 99) * 6);
        assert_eq!(price(0, 12), 199 * 12);
    }

    #[test]
    fn the_wallet_never_pays_more_than_the_card() {
        let p = Pricing::default();
        for price in [1, 99, 199, 1234, 99_999] {
            let b = p.breakdown(price).unwrap();
            assert!(b.wallet_total < b.total, "{b:?}");
            assert_eq!(b.total - b.wallet_total, b.processing_fee + b.wallet_saving);
        }
    }

    #[test]
    fn sharing_prices_each_recipient() {
        let p = Pricing::default();
        assert_eq!(p.sharing(true, 2).unwrap().price, 998);
        assert_eq!(p.sharing(false, 3).unwrap().price, 597);
    }

    fn size(bytes: i64) -> StorageSize {
        StorageSize::parse("size_bytes", bytes).unwrap()
    }

    #[test]
    fn sizes_are_refused_outside_zero_to_ten_thousand_gb() {
        assert_eq!(
            StorageSize::parse("size_bytes", -1).unwrap_err().message,
            "The size cannot be negative."
        );
        for bytes in [MAX_STORAGE_BYTES + 1, i64::MAX] {
            assert_eq!(
                StorageSize::parse("size_bytes", bytes).unwrap_err().message,
                "The size can be at most 10000 GB."
            );
        }
        assert!(StorageSize::parse("size_bytes", 0).is_ok());
        assert!(StorageSize::parse("size_bytes", MAX_STORAGE_BYTES).is_ok());
    }

    #[test]
    fn the_largest_size_for_the_longest_period_prices_without_overflow() {
        let p = Pricing::default();
        let b = p.storage(size(MAX_STORAGE_BYTES), 12).unwrap();
        assert_eq!(b.price, (199 + 9_999 * 99) * 12);
        assert_eq!(b.total, b.price + b.service_fee + b.processing_fee);
    }

    #[test]
    fn a_measured_size_past_any_range_is_out_of_range_not_a_panic() {
        let p = Pricing::default();
        // i64::MAX bytes once overflowed rounding up to whole GB; now it is a (huge) price.
        let huge = p.storage(StorageSize::measured(i64::MAX), 12).unwrap();
        assert_eq!(huge.price, (199 + (i64::MAX / GB) * 99) * 12);
        assert_eq!(p.storage(StorageSize::measured(-5), 1).unwrap().price, 199);
        let unbounded = Pricing {
            storage_extra_gb_month_price: i64::MAX / 2,
            ..Pricing::default()
        };
        assert_eq!(
            unbounded.storage(StorageSize::measured(i64::MAX), 12),
            Err(OutOfRange)
        );
        assert_eq!(
            unbounded.storage(StorageSize::measured(3 * GB), 1),
            Err(OutOfRange)
        );
        // The biggest configuration allowed still prices the biggest size.
        let dear = Pricing {
            storage_month_price: MAX_PRICE_CENTS,
            storage_extra_gb_month_price: MAX_PRICE_CENTS,
            service_fee_bps: MAX_BPS,
            card_processing_bps: MAX_BPS,
            card_processing_fixed: MAX_PRICE_CENTS,
            sharing_authenticated: MAX_PRICE_CENTS,
            ..Pricing::default()
        };
        assert!(dear.storage(size(MAX_STORAGE_BYTES), 12).is_ok());
        assert_eq!(dear.breakdown(i64::MAX), Err(OutOfRange));
        assert_eq!(
            dear.sharing(true, i32::MAX).map(|b| b.price),
            Ok(i64::from(i32::MAX) * MAX_PRICE_CENTS)
        );
    }

    #[test]
    fn fees_round_half_up_at_the_boundaries() {
        assert_eq!(bps(0, 2000), Ok(0));
        assert_eq!(bps(2, 2500), Ok(1)); // 0.5 -> 1
        assert_eq!(bps(1, 2500), Ok(0)); // 0.25 -> 0
        assert_eq!(bps(i64::MAX, MAX_BPS), Ok(i64::MAX));
        assert_eq!(bps(i64::MAX, MAX_BPS + 1), Err(OutOfRange));
    }
}
