//! The payments domain: the Stripe ids a client may send, parsed once at the edge and checked
//! against Stripe's shape before any lookup or Stripe call, so raw input never reaches a Stripe URL
//! (docs/decisions.md "Payments: input ranges and Stripe ids"); and the values use-cases take and
//! return (cards, the stored account, ledger entries, purchases, movements).

use std::fmt;

use chrono::{DateTime, Utc};
use evidentia_common::errors::FieldError;
use uuid::Uuid;

/// Stripe documents that its object ids never exceed 255 characters.
pub const STRIPE_ID_MAX: usize = 255;

/// `<prefix>_` then 1 or more ASCII letters and digits, at most `STRIPE_ID_MAX` in all.
fn stripe_id(prefix: &str, value: &str) -> bool {
    value.len() <= STRIPE_ID_MAX
        && value
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('_'))
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
}

macro_rules! stripe_id_type {
    ($(#[$doc:meta])* $name:ident, $prefix:literal, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(String);

        impl $name {
            pub const PREFIX: &'static str = $prefix;

            /// Surrounding spaces are forgiven; anything else off the shape is the field's error.
            pub fn parse(field: &str, value: &str) -> Result<Self, FieldError> {
                let value = value.trim();
                if value.is_empty() {
                    return Err(FieldError::new(field, "This field is required"));
                }
                if !stripe_id($prefix, value) {
                    return Err(FieldError::new(
                        field,
                        concat!(
                            "Expected a Stripe ",
                            $what,
                            " id: ",
                            $prefix,
                            "_ followed by letters and digits."
                        ),
                    ));
                }
                Ok(Self(value.to_owned()))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

stripe_id_type!(
    /// A card the browser created with Stripe.js (`pm_...`).
    PaymentMethodId,
    "pm",
    "payment method"
);
stripe_id_type!(
    /// The user's Stripe customer (`cus_...`).
    CustomerId,
    "cus",
    "customer"
);
stripe_id_type!(
    /// A SetupIntent (`seti_...`).
    SetupIntentId,
    "seti",
    "setup intent"
);
stripe_id_type!(
    /// A PaymentIntent (`pi_...`).
    PaymentIntentId,
    "pi",
    "payment intent"
);

/// What a PaymentIntent is for; its success is credited (or not) by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The browser confirms it; it opens the wallet (spec §7 action 2).
    WalletCreate,
    /// The browser confirms it (spec §7 action 4).
    TopUp,
    AutoTopUp,
    /// A transfer from the wallet card covering a purchase the balance could not.
    Shortfall,
    /// A purchase paid by card: the wallet is not involved.
    CardPurchase,
    /// Spec §9: the $0.50 of the first card, kept as wallet credit.
    FirstAuthorisation,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::WalletCreate => "wallet_create",
            Self::TopUp => "top_up",
            Self::AutoTopUp => "auto_top_up",
            Self::Shortfall => "shortfall",
            Self::CardPurchase => "card_purchase",
            Self::FirstAuthorisation => "first_authorisation",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        [
            Self::WalletCreate,
            Self::TopUp,
            Self::AutoTopUp,
            Self::Shortfall,
            Self::CardPurchase,
            Self::FirstAuthorisation,
        ]
        .into_iter()
        .find(|p| p.as_str() == value)
    }

    /// The ledger entry its success makes; `None` when the wallet is not involved.
    pub fn credit(self) -> Option<(EntryKind, &'static str)> {
        Some(match self {
            Self::WalletCreate => (EntryKind::TopUp, "CreditCard Wallet created"),
            Self::TopUp => (EntryKind::TopUp, "CreditCard Wallet topped up"),
            Self::AutoTopUp => (EntryKind::AutoTopUp, "Auto top-up"),
            Self::Shortfall => (EntryKind::TopUp, "Transfer from your card for a purchase"),
            Self::FirstAuthorisation => (EntryKind::Authorisation, "First card authorisation"),
            Self::CardPurchase => return None,
        })
    }

    /// What the card statement says of an off-session charge.
    pub fn statement(self) -> &'static str {
        match self {
            Self::AutoTopUp => "Evidentia CreditCard Wallet auto top-up",
            Self::FirstAuthorisation => "Evidentia card authorisation",
            Self::CardPurchase => "Evidentia storage extension",
            Self::WalletCreate | Self::TopUp | Self::Shortfall => {
                "Evidentia CreditCard Wallet transfer"
            }
        }
    }
}

/// The kind of a wallet ledger entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    TopUp,
    AutoTopUp,
    Promo,
    Purchase,
    Refund,
    Authorisation,
    /// A referral reward, to the inviter or to the friend.
    Referral,
    /// What is taken back of a referral reward when the first payment was refunded.
    ReferralReversal,
}

impl EntryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TopUp => "top_up",
            Self::AutoTopUp => "auto_top_up",
            Self::Promo => "promo",
            Self::Purchase => "purchase",
            Self::Refund => "refund",
            Self::Authorisation => "authorisation",
            Self::Referral => "referral",
            Self::ReferralReversal => "referral_reversal",
        }
    }
}

/// A saved card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    pub id: String,
    pub brand: String,
    pub last4: String,
    pub fingerprint: String,
    pub exp_month: i32,
    pub exp_year: i32,
    pub default_method: bool,
    pub wallet: bool,
}

/// The wallet's stored account: its card, auto top-up amount, balance and last top-up error.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoredAccount {
    pub active: bool,
    pub payment_method_id: Option<String>,
    pub brand: Option<String>,
    pub last4: Option<String>,
    pub auto_topping_up_amount: i64,
    pub balance: i64,
    pub top_up_error: Option<String>,
}

/// The payments part of `accounts/me/` (spec §3 "User details").
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PaymentProfile {
    pub stripe_customer_id: Option<String>,
    pub default_payment_method: Option<String>,
    pub auto_topping_up_amount: i64,
    pub credit_card_wallet_balance: i64,
    pub one_time_benefit_applied: bool,
}

/// A declined card charge, recorded for the transaction-info list.
#[derive(Debug, Clone)]
pub struct Decline<'a> {
    pub user_id: Uuid,
    pub purpose: Purpose,
    pub amount: i64,
    pub payment_method: &'a str,
    pub message: &'a str,
    /// The PaymentIntent, or the idempotency key the charge went to Stripe with.
    pub reference: &'a str,
}

/// A purchase, as its transaction page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transaction {
    pub id: Uuid,
    pub transaction_number: String,
    pub kind: String,
    pub description: String,
    pub folder_id: Option<Uuid>,
    pub months: Option<i32>,
    pub storage_expires_at: Option<DateTime<Utc>>,
    pub price_cents: i64,
    pub service_fee_cents: i64,
    pub processing_fee_cents: i64,
    pub wallet_saving_cents: i64,
    pub total_cents: i64,
    pub wallet_total_cents: i64,
    pub paid_from_wallet_cents: i64,
    pub charged_to_card_cents: i64,
    pub created_at: DateTime<Utc>,
    pub refunded_at: Option<DateTime<Utc>>,
}

impl Transaction {
    /// What was paid: the wallet total when the wallet paid, else the card total.
    pub fn amount_paid(&self) -> i64 {
        if self.paid_from_wallet_cents > 0 {
            self.wallet_total_cents
        } else {
            self.total_cents
        }
    }
}

/// One money movement as read: a ledger entry, a card purchase or a declined charge.
#[derive(Debug, Clone)]
pub struct MovementRow {
    pub id: Uuid,
    /// The ledger's kind, `card_purchase`, or `declined:<purpose>`.
    pub kind: String,
    /// The PaymentIntent's purpose behind a ledger entry, when a card paid it.
    pub purpose: Option<String>,
    pub amount_cents: i64,
    pub created_at: DateTime<Utc>,
    pub description: String,
    pub reference: String,
    pub brand: Option<String>,
    pub last4: Option<String>,
    pub message: Option<String>,
}

/// A money movement in the words of the transaction-info list.
#[derive(Debug, Clone)]
pub struct Movement {
    pub id: Uuid,
    pub kind: &'static str,
    pub status: &'static str,
    pub amount: i64,
    pub created_at: DateTime<Utc>,
    pub description: String,
    /// The card's brand and last4, when a card moved it.
    pub card: Option<(String, String)>,
    /// A purchase, and its refund, open the purchase's page.
    pub transaction_id: Option<String>,
    pub decline_message: Option<String>,
}

/// The movement's kind as the API names it: what happened, whether or not the card paid.
fn movement_kind(entry: &str, purpose: Option<&str>) -> &'static str {
    match (entry, purpose) {
        (_, Some("wallet_create")) => "wallet_created",
        (_, Some("shortfall")) => "transfer",
        (_, Some("auto_top_up")) | ("auto_top_up", _) => "auto_top_up",
        (_, Some("first_authorisation")) | ("authorisation", _) => "authorisation",
        (_, Some("card_purchase")) | ("purchase", _) => "purchase",
        ("promo", _) => "promo",
        ("refund", _) => "refund",
        ("referral", _) => "referral",
        ("referral_reversal", _) => "referral_reversal",
        _ => "top_up",
    }
}

/// What a declined attempt would have been, in the words of the list.
fn declined_description(purpose: &str) -> &'static str {
    match purpose {
        "wallet_create" => "CreditCard Wallet creation",
        "auto_top_up" => "Auto top-up",
        "shortfall" => "Transfer from your card for a purchase",
        "card_purchase" => "Storage extension by card",
        "first_authorisation" => "First card authorisation",
        _ => "CreditCard Wallet top-up",
    }
}

impl From<MovementRow> for Movement {
    fn from(r: MovementRow) -> Self {
        let (kind, status, description) = match r.kind.strip_prefix("declined:") {
            Some(purpose) => (
                movement_kind("", Some(purpose)),
                "declined",
                declined_description(purpose).to_owned(),
            ),
            None => (
                movement_kind(&r.kind, r.purpose.as_deref()),
                "completed",
                r.description,
            ),
        };
        let transaction_id = r
            .reference
            .strip_prefix("purchase:")
            .or_else(|| r.reference.strip_prefix("refund:"))
            .map(str::to_owned);
        Self {
            id: r.id,
            kind,
            status,
            amount: r.amount_cents,
            created_at: r.created_at,
            description,
            card: r.brand.zip(r.last4),
            transaction_id,
            decline_message: r.message,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_ledger_entry_is_named_by_what_the_card_paid_for() {
        use super::movement_kind as kind;
        assert_eq!(kind("top_up", Some("wallet_create")), "wallet_created");
        assert_eq!(kind("top_up", Some("top_up")), "top_up");
        assert_eq!(kind("top_up", Some("shortfall")), "transfer");
        assert_eq!(kind("auto_top_up", Some("auto_top_up")), "auto_top_up");
        assert_eq!(kind("authorisation", None), "authorisation");
        assert_eq!(kind("promo", None), "promo");
        assert_eq!(kind("purchase", None), "purchase");
        assert_eq!(kind("refund", None), "refund");
        assert_eq!(kind("referral", None), "referral");
        assert_eq!(kind("referral_reversal", None), "referral_reversal");
        assert_eq!(kind("", Some("card_purchase")), "purchase");
    }

    #[test]
    fn every_purpose_reads_back_from_its_name() {
        use super::Purpose;
        for p in [
            Purpose::WalletCreate,
            Purpose::TopUp,
            Purpose::AutoTopUp,
            Purpose::Shortfall,
            Purpose::CardPurchase,
            Purpose::FirstAuthorisation,
        ] {
            assert_eq!(Purpose::parse(p.as_str()), Some(p));
        }
        assert_eq!(Purpose::parse("refund"), None);
    }

    use super::*;

    fn refused(value: &str) -> String {
        PaymentMethodId::parse("payment_method_id", value)
            .expect_err("refused")
            .message
    }

    #[test]
    fn stripe_ids_have_their_prefix_and_only_letters_and_digits() {
        let id = PaymentMethodId::parse("payment_method_id", " pm_1AbC9xYz ").unwrap();
        assert_eq!(id.as_str(), "pm_1AbC9xYz");
        assert_eq!(refused(""), "This field is required");
        for bad in [
            "é",
            " ",
            "a\r\nb",
            "../x",
            "pm_X?expand[]=customer",
            "pm_",
            "pm_a/b",
            "pm_a%2F",
            "pm_é",
            "cus_abc",
            "PM_abc",
            "pm-abc",
        ] {
            let message = PaymentMethodId::parse("payment_method_id", bad).map(|_| ());
            assert!(message.is_err(), "{bad:?} was accepted");
        }
        assert_eq!(
            refused("pm_X?expand[]=customer"),
            "Expected a Stripe payment method id: pm_ followed by letters and digits."
        );
    }

    #[test]
    fn stripe_ids_are_bounded_in_length() {
        let longest = format!("pm_{}", "a".repeat(STRIPE_ID_MAX - 3));
        assert!(PaymentMethodId::parse("f", &longest).is_ok());
        assert!(PaymentMethodId::parse("f", &format!("{longest}a")).is_err());
    }

    #[test]
    fn each_kind_of_id_has_its_own_prefix() {
        assert!(CustomerId::parse("f", "cus_Q1w2").is_ok());
        assert!(CustomerId::parse("f", "pm_Q1w2").is_err());
        assert!(SetupIntentId::parse("f", "seti_Q1w2").is_ok());
        assert!(PaymentIntentId::parse("f", "pi_Q1w2").is_ok());
        assert!(PaymentIntentId::parse("f", "pi_Q1w2_secret_x").is_err());
    }
}
