//! Every money movement of a user's, for the transaction-info list: each wallet ledger entry
//! (wallet creation, top-ups, auto top-ups, transfers for purchases, promo credits, purchases,
//! refunds, the first authorisation), each purchase paid by card, and each declined card charge,
//! with the card it used or the wallet.

use chrono::{DateTime, Utc};
use evidentia_common::time;
use evidentia_proto::payments::v1 as pb;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::error::PaymentsError;

/// How many movements the list shows, newest first.
pub const LIST_LIMIT: i64 = 200;

/// Records a declined card charge once per `reference` (the PaymentIntent, or the idempotency key
/// the charge went to Stripe with).
#[allow(clippy::too_many_arguments)]
pub async fn record_decline(
    conn: &mut PgConnection,
    user_id: Uuid,
    purpose: &str,
    amount: i64,
    payment_method: &str,
    message: &str,
    reference: &str,
) -> Result<(), PaymentsError> {
    sqlx::query(
        "INSERT INTO declined_charges (id, user_id, purpose, amount_cents, payment_method_id, message, reference) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (reference) DO NOTHING",
    )
    .bind(Uuid::now_v7())
    .bind(user_id)
    .bind(purpose)
    .bind(amount)
    .bind(payment_method)
    .bind(message)
    .bind(reference)
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct Row {
    id: Uuid,
    /// The ledger's kind, `card_purchase`, or `declined:<purpose>`.
    kind: String,
    /// The PaymentIntent's purpose behind a ledger entry, when a card paid it.
    purpose: Option<String>,
    amount_cents: i64,
    created_at: DateTime<Utc>,
    description: String,
    reference: String,
    brand: Option<String>,
    last4: Option<String>,
    message: Option<String>,
}

/// The movement's kind as the API names it: what happened, whether or not the card paid.
fn kind(entry: &str, purpose: Option<&str>) -> &'static str {
    match (entry, purpose) {
        (_, Some("wallet_create")) => "wallet_created",
        (_, Some("shortfall")) => "transfer",
        (_, Some("auto_top_up")) | ("auto_top_up", _) => "auto_top_up",
        (_, Some("first_authorisation")) | ("authorisation", _) => "authorisation",
        (_, Some("card_purchase")) | ("purchase", _) => "purchase",
        ("promo", _) => "promo",
        ("refund", _) => "refund",
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

impl From<Row> for pb::MoneyMovement {
    fn from(r: Row) -> Self {
        let declined = r.kind.strip_prefix("declined:");
        let (kind, status, description) = match declined {
            Some(purpose) => (
                kind("", Some(purpose)),
                "declined",
                declined_description(purpose).to_owned(),
            ),
            None => (
                kind(&r.kind, r.purpose.as_deref()),
                "completed",
                r.description,
            ),
        };
        // A purchase, and its refund, open the purchase's page.
        let transaction_id = r
            .reference
            .strip_prefix("purchase:")
            .or_else(|| r.reference.strip_prefix("refund:"))
            .map(str::to_owned);
        let card = match (r.brand, r.last4) {
            (Some(brand), Some(last4)) => Some(pb::CardSummary { brand, last4 }),
            _ => None,
        };
        Self {
            id: r.id.to_string(),
            kind: kind.to_owned(),
            status: status.to_owned(),
            amount: r.amount_cents,
            created_at: Some(time::timestamp(r.created_at)),
            description,
            card,
            transaction_id,
            decline_message: r.message,
        }
    }
}

/// The user's money movements, newest first (at most `LIST_LIMIT`). Amounts are signed: into the
/// wallet positive, paid out negative; a declined charge carries what it would have moved.
pub async fn list(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<Vec<pb::MoneyMovement>, PaymentsError> {
    let rows: Vec<Row> = sqlx::query_as(
        // language=PostgreSQL
        "SELECT e.id, e.kind, pi.purpose, e.amount_cents, e.created_at, e.description, e.reference, \
                pm.brand, pm.last4, NULL::text AS message \
         FROM wallet_entries e \
         LEFT JOIN payment_intents pi ON e.reference = 'pi:' || pi.id \
         LEFT JOIN payment_methods pm ON pm.id = pi.payment_method_id \
         WHERE e.user_id = $1 \
         UNION ALL \
         SELECT p.id, 'card_purchase', 'card_purchase', -p.charged_to_card_cents, p.created_at, \
                p.description, 'purchase:' || p.id, pm.brand, pm.last4, NULL \
         FROM purchases p \
         LEFT JOIN payment_intents pi ON pi.id = p.card_payment_intent_id \
         LEFT JOIN payment_methods pm ON pm.id = pi.payment_method_id \
         WHERE p.user_id = $1 AND p.paid_from_wallet_cents = 0 AND p.charged_to_card_cents > 0 \
         UNION ALL \
         SELECT d.id, 'declined:' || d.purpose, d.purpose, \
                CASE WHEN d.purpose = 'card_purchase' THEN -d.amount_cents ELSE d.amount_cents END, \
                d.created_at, '', 'declined:' || d.reference, pm.brand, pm.last4, d.message \
         FROM declined_charges d \
         LEFT JOIN payment_methods pm ON pm.id = d.payment_method_id \
         WHERE d.user_id = $1 \
         ORDER BY created_at DESC, id DESC LIMIT $2",
    )
    .bind(user_id)
    .bind(LIST_LIMIT)
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(Into::into).collect())
}

#[cfg(test)]
mod tests {
    use super::kind;

    #[test]
    fn a_ledger_entry_is_named_by_what_the_card_paid_for() {
        assert_eq!(kind("top_up", Some("wallet_create")), "wallet_created");
        assert_eq!(kind("top_up", Some("top_up")), "top_up");
        assert_eq!(kind("top_up", Some("shortfall")), "transfer");
        assert_eq!(kind("auto_top_up", Some("auto_top_up")), "auto_top_up");
        assert_eq!(kind("authorisation", None), "authorisation");
        assert_eq!(kind("promo", None), "promo");
        assert_eq!(kind("purchase", None), "purchase");
        assert_eq!(kind("refund", None), "refund");
        assert_eq!(kind("", Some("card_purchase")), "purchase");
    }
}
