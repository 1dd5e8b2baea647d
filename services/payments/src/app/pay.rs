//! Paying for a purchase (a storage extension, or a share the sharing service sells), in four
//! steps a reader can follow: `quote` reads what it costs and how it will be paid, `fund` makes
//! the card charge that needs (at Stripe, with no row locked), `record` writes the purchase and
//! its event, and `debit` takes it from the wallet, all in the caller's transaction.
//!
//! From the wallet: the balance pays first; when it is short, the wallet card is charged the larger
//! of the shortfall and the auto top-up amount, into the wallet, then the purchase is debited;
//! afterwards a balance under $5.00 tops up. By card: the default card is charged the card total.
//!
//! Purchases from one wallet that its balance covers run side by side ([`Planning::Alongside`]):
//! the wallet row is locked only for the debit, the last write of the transaction. One that finds
//! the balance short, before or at the debit, is planned again alone among those that may charge
//! the card ([`Planning::Alone`]), and only such a purchase charges a card for the wallet. Its
//! charge covers its whole total, or else it also keeps every other purchase of the wallet out
//! until it commits: either way a card charge is never followed by a refused debit.

use chrono::{DateTime, Utc};
use evidentia_common::{outbox, time};
use evidentia_proto::events::v1::StorageExtensionPaid;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    app::{charges, rewards, wallet},
    domain::{Purpose, StoredAccount, Transaction},
    error::PaymentsError,
    pricing::{Breakdown, Pricing, StorageSize},
    store::{
        customers, declines,
        idempotency_keys::{self, NewKey},
        purchases, wallets,
    },
    stripe::{Stripe, StripeFailure},
};

/// A purchase to pay, parsed at the edge.
#[derive(Debug, Clone)]
pub struct Order {
    pub folder_id: Uuid,
    pub from_wallet: bool,
    pub item: Item,
}

/// What a purchase buys.
#[derive(Debug, Clone)]
pub enum Item {
    /// `months` more storage for a folder of `used_bytes`, until `target`.
    Extension {
        months: i32,
        used_bytes: i64,
        target: DateTime<Utc>,
    },
    /// Copies for a share (only the sharing service buys these).
    Share {
        share_id: Uuid,
        authenticated: bool,
        recipients: i32,
        breakdown: Breakdown,
    },
}

impl Item {
    fn description(&self) -> String {
        let plural = |n: i32| if n == 1 { "" } else { "s" };
        match self {
            Self::Extension { months, .. } => {
                format!("Storage extension by {months} month{}", plural(*months))
            }
            Self::Share {
                authenticated,
                recipients,
                ..
            } => format!(
                "{} copies for {recipients} recipient{}",
                if *authenticated {
                    "Authenticated"
                } else {
                    "Unauthenticated"
                },
                plural(*recipients)
            ),
        }
    }
}

/// How a purchase from the wallet is planned against the others from the same wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Planning {
    /// Beside the others (the wallet-purchase lock shared): the balance must cover the price;
    /// when it does not, the step that finds it out answers `PlanAlone`.
    Alongside,
    /// Alone among the purchases that may charge the wallet card (the wallet-charge lock): may
    /// charge it for a shortfall. A balance that covered the price when read but no longer does
    /// at the debit, with nothing charged, is `PlanAlone` again.
    Alone,
}

/// What the purchase costs and how it will be paid.
#[derive(Debug, Clone)]
pub struct Quote {
    pub purchase_id: Uuid,
    pub planning: Planning,
    pub customer: String,
    pub breakdown: Breakdown,
    pub description: String,
    pub funding: Funding,
    /// From the wallet, the stored account as the plan read it.
    pub account: Option<StoredAccount>,
}

#[derive(Debug, Clone)]
pub enum Funding {
    /// From the wallet; a transfer from the wallet card covers what the balance cannot.
    Wallet { transfer: Option<(String, i64)> },
    /// By the default card.
    Card { payment_method: String },
}

/// Step 1: the price and the plan to pay it, read without row locks. From the wallet, the user's
/// wallet locks are taken first, for the rest of the caller's transaction ([`Planning`], and
/// `wallet_plan` below). `debit` checks the balance again under the wallet row's lock.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn quote(
    conn: &mut PgConnection,
    pricing: &Pricing,
    user_id: Uuid,
    order: &Order,
    planning: Planning,
) -> Result<Quote, PaymentsError> {
    let breakdown = match &order.item {
        Item::Extension {
            months, used_bytes, ..
        } => pricing.storage(StorageSize::measured(*used_bytes), *months)?,
        Item::Share { breakdown, .. } => *breakdown,
    };
    let (customer, funding, account) = if order.from_wallet {
        let (customer, transfer, account) =
            wallet_plan(conn, pricing, user_id, breakdown.wallet_total, planning).await?;
        (customer, Funding::Wallet { transfer }, Some(account))
    } else {
        let billing = customers::billing(conn, user_id)
            .await?
            .ok_or(PaymentsError::NoCustomer)?;
        let customer = billing
            .stripe_customer_id
            .ok_or(PaymentsError::NoCustomer)?;
        let Some(payment_method) = billing.default_payment_method else {
            return Err(PaymentsError::Refused(
                "Add a card to pay with, or pay from your CreditCard Wallet.",
            ));
        };
        (customer, Funding::Card { payment_method }, None)
    };
    Ok(Quote {
        purchase_id: Uuid::now_v7(),
        planning,
        customer,
        breakdown,
        description: order.item.description(),
        funding,
        account,
    })
}

/// From the wallet: the customer, the transfer from the wallet card the balance needs, and the
/// stored account read. Each lock is taken in its own statement before the read, so the read sees
/// what the purchases the lock waited for wrote. `Alongside` holds the wallet-purchase lock shared.
/// `Alone` holds the wallet-charge lock, which only purchases that may charge the card take: they
/// are planned one after the other, each seeing what the one before charged, and one card charge
/// covers a shortfall, while the purchases the balance covers go on beside them. A transfer that
/// covers the whole total needs nothing more: whatever those purchases spend meanwhile, the
/// credit and the debit leave the balance at zero or more. A smaller one counts on the balance
/// read, so the purchase then takes the wallet-purchase lock exclusive (waiting for the purchases
/// in flight and keeping new ones out until it commits) and plans again.
async fn wallet_plan(
    conn: &mut PgConnection,
    pricing: &Pricing,
    user_id: Uuid,
    total: i64,
    planning: Planning,
) -> Result<(String, Option<(String, i64)>, StoredAccount), PaymentsError> {
    match planning {
        Planning::Alongside => wallets::lock_purchases(conn, user_id, false).await?,
        Planning::Alone => wallets::lock_charges(conn, user_id).await?,
    }
    let (customer, account) = wallet_funds(conn, user_id).await?;
    match transfer(pricing, &account, total, planning)? {
        Some((_, amount)) if amount < total => {
            wallets::lock_purchases(conn, user_id, true).await?;
            let (customer, account) = wallet_funds(conn, user_id).await?;
            let transfer = transfer(pricing, &account, total, planning)?;
            Ok((customer, transfer, account))
        }
        transfer => Ok((customer, transfer, account)),
    }
}

/// The user's Stripe customer and stored account, read without row locks (the wallet row is made
/// when missing: once, here rather than at the debit, whose statement only updates the row).
async fn wallet_funds(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<(String, StoredAccount), PaymentsError> {
    let funds = wallets::funds(conn, user_id)
        .await?
        .ok_or(PaymentsError::NoCustomer)?;
    let customer = funds.customer.ok_or(PaymentsError::NoCustomer)?;
    if funds.wallet.is_none() {
        wallets::ensure(conn, user_id).await?;
    }
    Ok((
        customer,
        funds.wallet.map(wallet::account_of).unwrap_or_default(),
    ))
}

/// The transfer from the wallet card a balance short of `total` needs: the larger of the
/// shortfall and the auto top-up amount (at least the smallest top-up). Planned alongside, a short
/// balance is `PlanAlone`; without a wallet card, the purchase is refused.
fn transfer(
    pricing: &Pricing,
    account: &StoredAccount,
    total: i64,
    planning: Planning,
) -> Result<Option<(String, i64)>, PaymentsError> {
    if account.balance >= total {
        return Ok(None);
    }
    if planning == Planning::Alongside {
        return Err(PaymentsError::PlanAlone);
    }
    let Some(card) = account.payment_method_id.clone() else {
        return Err(PaymentsError::Refused(
            "Your CreditCard Wallet balance is too low. Top it up or pay by card.",
        ));
    };
    // The balance is below the total here, and both are at least zero.
    let shortfall = total - account.balance;
    let amount = shortfall.max(account.auto_topping_up_amount.max(pricing.top_up_min));
    Ok(Some((card, amount)))
}

/// What the card paid toward a purchase.
#[derive(Debug, Clone, Default)]
pub struct Funded {
    pub charged_to_card: i64,
    pub card_intent: Option<String>,
}

/// Step 2: the card charge the quote needs, at Stripe under a key made from the request's (a retry
/// is the same charge), recorded on the caller's connection (in its transaction, which holds the
/// request's key: a second connection taken meanwhile could wait for ever on a pool that
/// purchases in flight have emptied). A decline is recorded there too and is `CardDeclined`.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn fund(
    conn: &mut PgConnection,
    stripe: &dyn Stripe,
    user_id: Uuid,
    key: &str,
    quote: &Quote,
) -> Result<Funded, PaymentsError> {
    let (payment_method, amount, purpose, suffix) = match &quote.funding {
        Funding::Wallet { transfer: None } => return Ok(Funded::default()),
        Funding::Wallet {
            transfer: Some((card, amount)),
        } => (card, *amount, Purpose::Shortfall, "transfer"),
        Funding::Card { payment_method } => (
            payment_method,
            quote.breakdown.total,
            Purpose::CardPurchase,
            "card",
        ),
    };
    let idempotency_key = format!("pay-{user_id}-{key}-{suffix}");
    let charge = charges::Charge {
        user_id,
        customer: &quote.customer,
        payment_method,
        amount,
        purpose,
        idempotency_key: &idempotency_key,
    };
    match charges::charge(stripe, &charge).await {
        Ok(intent) => {
            charges::record_charge(conn, &intent.id, &charge).await?;
            Ok(Funded {
                charged_to_card: amount,
                card_intent: Some(intent.id),
            })
        }
        Err(StripeFailure::Declined { message, .. }) => {
            if purpose == Purpose::Shortfall {
                wallets::set_top_up_error(conn, user_id, payment_method, &message).await?;
            }
            declines::insert(conn, &charge.declined(&message)).await?;
            Err(PaymentsError::CardDeclined)
        }
        Err(other) => Err(other.into()),
    }
}

/// Step 3, in the caller's transaction: the transaction number, the purchase row, for an extension
/// the StorageExtensionPaid event, and a referral reward waiting for this first payment. Answers
/// the purchase as written. The caller calls `debit` next.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn record(
    conn: &mut PgConnection,
    pricing: &Pricing,
    user_id: Uuid,
    order: &Order,
    quote: &Quote,
    funded: &Funded,
) -> Result<Transaction, PaymentsError> {
    let paid_from_wallet = if order.from_wallet {
        quote.breakdown.wallet_total
    } else {
        0
    };
    let (kind, months, target, share_id) = match &order.item {
        Item::Extension { months, target, .. } => {
            ("storage_extension", Some(*months), Some(*target), None)
        }
        Item::Share { share_id, .. } => ("sharing", None, None, Some(*share_id)),
    };
    let purchase = purchases::insert(
        conn,
        &purchases::NewPurchase {
            id: quote.purchase_id,
            user_id,
            kind,
            description: &quote.description,
            folder_id: order.folder_id,
            months,
            storage_expires_at: target,
            breakdown: quote.breakdown,
            paid_from_wallet,
            charged_to_card: funded.charged_to_card,
            card_payment_intent_id: funded.card_intent.as_deref(),
            share_id,
        },
    )
    .await?;
    if let Some(target) = target {
        outbox::enqueue(
            conn,
            &StorageExtensionPaid {
                purchase_id: quote.purchase_id.to_string(),
                folder_id: order.folder_id.to_string(),
                owner_id: user_id.to_string(),
                storage_expires_at: Some(time::timestamp(target)),
            },
        )
        .await?;
    }
    rewards::on_purchase(conn, pricing, user_id).await?;
    Ok(purchase)
}

/// The stored account the purchase answers with, its balance before the debit: as the quote read
/// it, or read again when a card was charged since (a transfer from the wallet card credited the
/// wallet, whose row that locked; a purchase by card read nothing).
pub async fn account(
    conn: &mut PgConnection,
    user_id: Uuid,
    quote: &Quote,
    funded: &Funded,
) -> Result<StoredAccount, PaymentsError> {
    match &quote.account {
        Some(account) if funded.card_intent.is_none() => Ok(account.clone()),
        _ => wallet::stored_account(conn, user_id).await,
    }
}

/// Step 4, the last write before the caller commits, with the request's stored answer: from the
/// wallet, the debit, its ledger entry and the answer in one statement, the balance checked under
/// the wallet row's lock, which is held from that statement to the commit only (so nothing
/// should come between this and the commit). Without a card charge, a balance that no longer
/// covers the debit is `PlanAlone` (nothing was charged: the caller rolls back and plans again).
/// Answers the balance the debit left; by card, the answer alone is stored, and none.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn debit(
    conn: &mut PgConnection,
    user_id: Uuid,
    order: &Order,
    quote: &Quote,
    funded: &Funded,
    answer: &NewKey<'_>,
) -> Result<Option<i64>, PaymentsError> {
    if !order.from_wallet {
        idempotency_keys::insert(conn, answer).await?;
        return Ok(None);
    }
    let debit = wallets::Debit {
        user_id,
        amount: quote.breakdown.wallet_total,
        reference: &format!("purchase:{}", quote.purchase_id),
        description: &quote.description,
    };
    match wallets::debit_answering(conn, &debit, answer).await? {
        Some(balance) => Ok(Some(balance)),
        None if funded.card_intent.is_none() => Err(PaymentsError::PlanAlone),
        None => Err(PaymentsError::InsufficientBalance),
    }
}
