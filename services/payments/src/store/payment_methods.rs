//! `payment_methods`: the cards a user registered, and which are saved.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{domain::Card, stripe::CardDetails};

/// Registers a card as pending; answers the user it belongs to (another user's id that was
/// registered before answers that user).
#[tracing::instrument(skip_all)]
pub async fn insert_pending(
    conn: &mut PgConnection,
    user_id: Uuid,
    card: &CardDetails,
    fingerprint: &str,
) -> sqlx::Result<Uuid> {
    sqlx::query_scalar!(
        "INSERT INTO payment_methods (id, user_id, brand, last4, fingerprint, exp_month, exp_year, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending')
         ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id RETURNING user_id",
        card.id,
        user_id,
        card.brand,
        card.last4,
        fingerprint,
        card.exp_month,
        card.exp_year
    )
    .fetch_one(conn)
    .await
}

/// The user's newest pending card (the one the browser is about to confirm).
#[tracing::instrument(skip_all)]
pub async fn newest_pending(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "SELECT id FROM payment_methods WHERE user_id = $1 AND status = 'pending'
         ORDER BY created_at DESC LIMIT 1",
        user_id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn set_setup_intent(
    conn: &mut PgConnection,
    id: &str,
    setup_intent: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE payment_methods SET setup_intent_id = $2 WHERE id = $1",
        id,
        setup_intent
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct Pending {
    pub id: String,
    pub setup_intent_id: Option<String>,
}

/// The user's cards pending for less than a day (older ones are no longer asked about).
#[tracing::instrument(skip_all)]
pub async fn recent_pending(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Vec<Pending>> {
    sqlx::query_as!(
        Pending,
        "SELECT id, setup_intent_id FROM payment_methods WHERE user_id = $1 AND status = 'pending'
         AND created_at > now() - interval '1 day'",
        user_id
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn fail_if_pending(conn: &mut PgConnection, id: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE payment_methods SET status = 'failed' WHERE id = $1 AND status = 'pending'",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The fingerprint of a card that is still pending.
#[tracing::instrument(skip_all)]
pub async fn pending_fingerprint(
    conn: &mut PgConnection,
    id: &str,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "SELECT fingerprint FROM payment_methods WHERE id = $1 AND status = 'pending'",
        id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn saved_with_fingerprint(
    conn: &mut PgConnection,
    user_id: Uuid,
    fingerprint: &str,
) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM payment_methods
           WHERE user_id = $1 AND fingerprint = $2 AND status = 'saved') AS "exists!""#,
        user_id,
        fingerprint
    )
    .fetch_one(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn mark_duplicate(conn: &mut PgConnection, id: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE payment_methods SET status = 'duplicate' WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn mark_saved(conn: &mut PgConnection, id: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE payment_methods SET status = 'saved', saved_at = now() WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn mark_removed(
    conn: &mut PgConnection,
    id: &str,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE payment_methods SET status = 'removed', removed_at = $2 WHERE id = $1",
        id,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The saved cards, oldest first, with the default and wallet flags.
#[tracing::instrument(skip_all)]
pub async fn saved(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Vec<Card>> {
    sqlx::query_as!(
        Card,
        r#"SELECT p.id, p.brand, p.last4, p.fingerprint, p.exp_month, p.exp_year,
                  (c.default_payment_method IS NOT DISTINCT FROM p.id) AS "default_method!",
                  (w.payment_method IS NOT DISTINCT FROM p.id) AS "wallet!"
           FROM payment_methods p JOIN customers c ON c.user_id = p.user_id
           LEFT JOIN wallets w ON w.user_id = p.user_id
           WHERE p.user_id = $1 AND p.status = 'saved' ORDER BY p.saved_at, p.id"#,
        user_id
    )
    .fetch_all(conn)
    .await
}

/// The ids of the user's saved cards.
#[tracing::instrument(skip_all)]
pub async fn saved_ids(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "SELECT id FROM payment_methods WHERE user_id = $1 AND status = 'saved'",
        user_id
    )
    .fetch_all(conn)
    .await
}

/// Whether two users ever registered the same card (by Stripe's fingerprint; removed cards count,
/// pending and failed ones do not).
#[tracing::instrument(skip_all)]
pub async fn share_a_card(conn: &mut PgConnection, a: Uuid, b: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (
               SELECT 1 FROM payment_methods x JOIN payment_methods y USING (fingerprint)
               WHERE x.user_id = $1 AND y.user_id = $2
                 AND x.status IN ('saved', 'duplicate', 'removed')
                 AND y.status IN ('saved', 'duplicate', 'removed')) AS "shared!""#,
        a,
        b
    )
    .fetch_one(conn)
    .await
}

/// Whether a card of `referred_id`'s is also on another account `referrer_id` referred.
#[tracing::instrument(skip_all)]
pub async fn on_another_referral(
    conn: &mut PgConnection,
    referred_id: Uuid,
    referrer_id: Uuid,
) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (
               SELECT 1 FROM payment_methods x
               JOIN payment_methods y USING (fingerprint)
               JOIN referral_rewards r ON r.referred_id = y.user_id
               WHERE x.user_id = $1 AND r.referrer_id = $2 AND y.user_id <> $1
                 AND x.status IN ('saved', 'duplicate', 'removed')
                 AND y.status IN ('saved', 'duplicate', 'removed')) AS "shared!""#,
        referred_id,
        referrer_id
    )
    .fetch_one(conn)
    .await
}
