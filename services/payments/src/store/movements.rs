//! Every money movement of a user's, read across the ledger, card purchases and declined charges.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::MovementRow;

/// Newest first, at most `limit`. Amounts are signed: into the wallet positive, paid out negative;
/// a declined charge carries what it would have moved.
#[tracing::instrument(skip_all)]
pub async fn list(
    conn: &mut PgConnection,
    user_id: Uuid,
    limit: i64,
) -> sqlx::Result<Vec<MovementRow>> {
    sqlx::query_as!(
        MovementRow,
        r#"SELECT id AS "id!", kind AS "kind!", purpose, amount_cents AS "amount_cents!",
                  created_at AS "created_at!", description AS "description!",
                  reference AS "reference!", brand, last4, message
           FROM (
               SELECT e.id, e.kind, pi.purpose, e.amount_cents, e.created_at, e.description,
                      e.reference, pm.brand, pm.last4, NULL::text AS message
               FROM wallet_entries e
               LEFT JOIN payment_intents pi ON e.reference = 'pi:' || pi.id
               LEFT JOIN payment_methods pm ON pm.id = pi.payment_method_id
               WHERE e.user_id = $1
               UNION ALL
               SELECT p.id, 'card_purchase', 'card_purchase', -p.charged_to_card_cents, p.created_at,
                      p.description, 'purchase:' || p.id, pm.brand, pm.last4, NULL
               FROM purchases p
               LEFT JOIN payment_intents pi ON pi.id = p.card_payment_intent_id
               LEFT JOIN payment_methods pm ON pm.id = pi.payment_method_id
               WHERE p.user_id = $1 AND p.paid_from_wallet_cents = 0 AND p.charged_to_card_cents > 0
               UNION ALL
               SELECT d.id, 'declined:' || d.purpose, d.purpose,
                      CASE WHEN d.purpose = 'card_purchase' THEN -d.amount_cents ELSE d.amount_cents END,
                      d.created_at, '', 'declined:' || d.reference, pm.brand, pm.last4, d.message
               FROM declined_charges d
               LEFT JOIN payment_methods pm ON pm.id = d.payment_method_id
               WHERE d.user_id = $1
           ) m
           ORDER BY created_at DESC, id DESC LIMIT $2"#,
        user_id,
        limit
    )
    .fetch_all(conn)
    .await
}
