//! The one pricing configuration (docs/decisions.md "Prices") and the breakdown every price
//! screen shows: price, service fee, card processing fee, wallet saving, and the totals by card
//! and from the wallet. All integer cents; percentages are basis points; every rounding is half
//! up, once, at the fee it makes.

use evidentia_common::config::{ConfigError, env_or};

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
        }
    }
}

impl Pricing {
    /// Defaults overridden by `PRICING_*` variables (the amounts operators tune).
    pub fn from_env() -> Result<Self, ConfigError> {
        let d = Self::default();
        Ok(Self {
            storage_month_price: cents("PRICING_STORAGE_MONTH_CENTS", d.storage_month_price)?,
            storage_included_gb: cents("PRICING_STORAGE_INCLUDED_GB", d.storage_included_gb)?,
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
            service_fee_bps: cents("PRICING_SERVICE_FEE_BPS", d.service_fee_bps)?,
            card_processing_bps: cents("PRICING_CARD_PROCESSING_BPS", d.card_processing_bps)?,
            card_processing_fixed: cents(
                "PRICING_CARD_PROCESSING_FIXED_CENTS",
                d.card_processing_fixed,
            )?,
            ..d
        })
    }

    /// The price of keeping `size_bytes` for `months` more months.
    pub fn storage(&self, size_bytes: i64, months: i32) -> Breakdown {
        const GB: i64 = 1_000_000_000;
        let started_gb = (size_bytes.max(0) + GB - 1) / GB;
        let extra_gb = (started_gb - self.storage_included_gb).max(0);
        let month = self.storage_month_price + extra_gb * self.storage_extra_gb_month_price;
        self.breakdown(month * i64::from(months))
    }

    /// The price of sending one kind of copy to `recipients` people.
    pub fn sharing(&self, authenticated: bool, recipients: i32) -> Breakdown {
        let each = if authenticated {
            self.sharing_authenticated
        } else {
            self.sharing_unauthenticated
        };
        self.breakdown(each * i64::from(recipients))
    }

    pub fn breakdown(&self, price: i64) -> Breakdown {
        let service_fee = bps(price, self.service_fee_bps);
        let processing_fee =
            bps(price + service_fee, self.card_processing_bps) + self.card_processing_fixed;
        let wallet_saving = bps(service_fee, self.wallet_service_fee_saving_bps);
        Breakdown {
            price,
            service_fee,
            processing_fee,
            wallet_saving,
            total: price + service_fee + processing_fee,
            wallet_total: price + service_fee - wallet_saving,
        }
    }
}

fn cents(name: &str, default: i64) -> Result<i64, ConfigError> {
    env_or(name, &default.to_string())
}

/// `amount * bps / 10_000`, rounded half up.
fn bps(amount: i64, bps: i64) -> i64 {
    (amount * bps + 5_000) / 10_000
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
        let b = Pricing::default().storage(300_000_000, 1);
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
        assert_eq!(p.storage(1_000_000_000, 1).price, 199);
        assert_eq!(p.storage(1_000_000_001, 1).price, 199 + 99);
        assert_eq!(p.storage(3_500_000_000, 6).price, (199 + 3 * 99) * 6);
        assert_eq!(p.storage(0, 12).price, 199 * 12);
    }

    #[test]
    fn the_wallet_never_pays_more_than_the_card() {
        let p = Pricing::default();
        for price in [1, 99, 199, 1234, 99_999] {
            let b = p.breakdown(price);
            assert!(b.wallet_total < b.total, "{b:?}");
            assert_eq!(b.total - b.wallet_total, b.processing_fee + b.wallet_saving);
        }
    }

    #[test]
    fn sharing_prices_each_recipient() {
        let p = Pricing::default();
        assert_eq!(p.sharing(true, 2).price, 998);
        assert_eq!(p.sharing(false, 3).price, 597);
    }
}
