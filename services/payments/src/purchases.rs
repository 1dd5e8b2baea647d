//! Money movements a user starts: PaymentIntents the browser confirms (wallet creation and
//! top-up) and purchases (a storage extension now, sharing later), paid from the wallet first or
//! by card. Every one takes an idempotency key stored with its write, and the same key goes to
//! Stripe. The answers are the protobuf messages, which is what the idempotency record keeps.

use chrono::{DateTime, Months, Utc};
use evidentia_common::{outbox, time};
use evidentia_proto::{events::v1::StorageExtensionPaid, payments::v1 as pb};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    cards,
    domain::PaymentMethodId,
    error::PaymentsError,
    idempotency, movements,
    pricing::{Breakdown, Pricing, StorageSize},
    stripe::{Stripe, StripeFailure},
    wallet::{self, EntryKind},
};

/// Spec §7: action 2 creates the wallet with the auto top-up amount, action 4 tops it up.
pub const ACTION_CREATE_WALLET: i32 = 2;
pub const ACTION_TOP_UP: i32 = 4;

#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn create_payment_intent(
    pool: &PgPool,
    stripe: &dyn Stripe,
    pricing: &Pricing,
    user_id: Uuid,
    request: pb::CreatePaymentIntentRequest,
) -> Result<pb::PaymentIntent, PaymentsError> {
    let key = idempotency::parse_key(&request.idempotency_key)?.to_owned();
    let metadata = request.metadata.unwrap_or_default();
    let purpose = match metadata.action {
        ACTION_CREATE_WALLET => "wallet_create",
        ACTION_TOP_UP => "top_up",
        _ => {
            return Err(PaymentsError::invalid(
                "metadata.action",
                "The action must be 2 (create the wallet) or 4 (top up).",
            ));
        }
    };
    wallet::check_amount(pricing, "metadata.amount", metadata.amount)?;
    let payment_method = PaymentMethodId::parse("payment_method_id", &request.payment_method_id)?;
    let hash = idempotency::request_hash("payment_intent", &request);
    let mut tx = pool.begin().await?;
    if let Some(answer) =
        idempotency::begin(&mut tx, user_id, &key, "payment_intent", &hash).await?
    {
        return Ok(answer);
    }
    let customer = cards::customer_id(&mut tx, user_id).await?;
    cards::get(&mut tx, user_id, &payment_method)
        .await
        .map_err(|err| match err {
            PaymentsError::NotFound => {
                PaymentsError::invalid("payment_method_id", "Choose one of your saved cards.")
            }
            other => other,
        })?;
    let intent = stripe
        .create_payment_intent(
            &customer,
            payment_method.as_str(),
            metadata.amount,
            &[
                ("user_id", user_id.to_string()),
                ("purpose", purpose.to_owned()),
                ("action", metadata.action.to_string()),
                ("amount", metadata.amount.to_string()),
            ],
            &format!("pi-{user_id}-{key}"),
        )
        .await?;
    wallet::record_intent(
        &mut tx,
        &intent.id,
        user_id,
        purpose,
        metadata.amount,
        payment_method.as_str(),
        (purpose == "wallet_create").then_some(metadata.amount),
        "created",
    )
    .await?;
    let answer = pb::PaymentIntent {
        client_secret: intent.client_secret,
        payment_intent_id: intent.id,
    };
    idempotency::finish(&mut tx, user_id, &key, "payment_intent", &hash, &answer).await?;
    tx.commit().await?;
    Ok(answer)
}

/// Credits the user's browser-confirmed intents that succeeded but whose webhook has not arrived
/// yet (Stripe sends it a moment later; it may be lost). Crediting is once by intent id, so the
/// webhook arriving after changes nothing.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn reconcile_intents(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
) -> Result<(), PaymentsError> {
    let open: Vec<String> = sqlx::query_scalar(
        "SELECT id FROM payment_intents WHERE user_id = $1 AND credited_at IS NULL \
         AND status = 'created' AND created_at > now() - interval '1 day'",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    for id in open {
        let intent = match stripe.retrieve_payment_intent(&id).await {
            Ok(intent) => intent,
            Err(StripeFailure::Other(err)) => return Err(PaymentsError::Internal(err)),
            Err(err) => {
                tracing::warn!(error = %err, "could not read a PaymentIntent");
                continue;
            }
        };
        if intent.status == "succeeded" {
            let mut tx = pool.begin().await?;
            wallet::credit_intent(&mut tx, &id).await?;
            tx.commit().await?;
        }
    }
    Ok(())
}

fn breakdown_pb(b: &Breakdown) -> pb::Breakdown {
    pb::Breakdown {
        price: b.price,
        service_fee: b.service_fee,
        processing_fee: b.processing_fee,
        wallet_saving: b.wallet_saving,
        total: b.total,
        wallet_total: b.wallet_total,
        currency: "usd".to_owned(),
    }
}

pub fn storage_price(
    pricing: &Pricing,
    request: &pb::CalculateStoragePriceRequest,
    now: DateTime<Utc>,
) -> Result<pb::StoragePrice, PaymentsError> {
    let months = check_months(pricing, request.months)?;
    let (size, current) = match &request.folder {
        Some(folder) => (
            StorageSize::measured(folder.used_bytes),
            folder.storage_expires_at.as_ref().and_then(time::datetime),
        ),
        None => (StorageSize::parse("size_bytes", request.size_bytes)?, None),
    };
    let breakdown = pricing.storage(size, months)?;
    let new_date = current.map(|c| extended(c, now, months));
    Ok(pb::StoragePrice {
        breakdown: Some(breakdown_pb(&breakdown)),
        current_storage_date: current.map(time::timestamp),
        new_storage_date: new_date.map(time::timestamp),
    })
}

pub fn sharing_price(
    request: &pb::CalculateSharingPriceRequest,
    pricing: &Pricing,
) -> Result<pb::Breakdown, PaymentsError> {
    Ok(breakdown_pb(&sharing_breakdown(
        pricing,
        &request.copy_type,
        request.recipients,
    )?))
}

fn sharing_breakdown(
    pricing: &Pricing,
    copy_type: &str,
    recipients: i32,
) -> Result<Breakdown, PaymentsError> {
    let authenticated = match copy_type {
        "authenticated" => true,
        "unauthenticated" => false,
        _ => {
            return Err(PaymentsError::invalid(
                "copy_type",
                "The copy type must be authenticated or unauthenticated.",
            ));
        }
    };
    if !(1..=100).contains(&recipients) {
        return Err(PaymentsError::invalid(
            "recipients",
            "Choose 1 to 100 recipients.",
        ));
    }
    Ok(pricing.sharing(authenticated, recipients)?)
}

fn check_months(pricing: &Pricing, months: i32) -> Result<i32, PaymentsError> {
    if pricing.storage_months_options.contains(&months) {
        Ok(months)
    } else {
        Err(PaymentsError::invalid(
            "months",
            "Choose one of the offered storage periods.",
        ))
    }
}

/// The new storage date: `months` after the current date, or after now when it has passed.
pub fn extended(current: DateTime<Utc>, now: DateTime<Utc>, months: i32) -> DateTime<Utc> {
    let base = current.max(now);
    base.checked_add_months(Months::new(months.unsigned_abs()))
        .unwrap_or(base)
}

/// Pays a purchase. From the wallet: the balance pays first; when it is short, the wallet card is
/// charged the larger of the shortfall and the auto top-up amount, into the wallet, then the
/// purchase is debited; afterwards a balance under $5.00 tops up. By card: the default card is
/// charged the card total. The folder's new date goes out as StorageExtensionPaid in the same
/// transaction.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn pay(
    pool: &PgPool,
    stripe: &dyn Stripe,
    pricing: &Pricing,
    user_id: Uuid,
    request: pb::PayRequest,
) -> Result<pb::PayResponse, PaymentsError> {
    let key = idempotency::parse_key(&request.idempotency_key)?.to_owned();
    let by_wallet = match request.pay_with.as_str() {
        "wallet" => true,
        "card" => false,
        _ => {
            return Err(PaymentsError::invalid(
                "pay_with",
                "Pay with the wallet or a card.",
            ));
        }
    };
    let folder = request.folder.clone().ok_or(PaymentsError::NotFound)?;
    let folder_id = Uuid::parse_str(&folder.folder_id).map_err(|_| PaymentsError::NotFound)?;
    let now = Utc::now();
    let bought = match request.kind.as_str() {
        "storage_extension" => {
            let months = check_months(pricing, request.months)?;
            let current = folder
                .storage_expires_at
                .as_ref()
                .and_then(time::datetime)
                .unwrap_or(now);
            Bought::Extension {
                months,
                target: extended(current, now, months),
            }
        }
        // Only the sharing service sets `share`: the gateway's pay route has no such field.
        "sharing" => {
            let share = request.share.clone().ok_or_else(|| {
                PaymentsError::invalid("kind", "Only storage extensions can be bought here.")
            })?;
            let share_id = Uuid::parse_str(&share.share_id)
                .map_err(|_| PaymentsError::invalid("share_id", "Unknown share."))?;
            let breakdown = sharing_breakdown(pricing, &share.copy_type, share.recipients)?;
            Bought::Share {
                share_id,
                authenticated: share.copy_type == "authenticated",
                recipients: share.recipients,
                breakdown,
            }
        }
        _ => {
            return Err(PaymentsError::invalid(
                "kind",
                "Only storage extensions can be bought here.",
            ));
        }
    };
    // The key guards what the client asked for; the folder's size and date are what the gateway
    // read, and change once the purchase is made.
    let hash = idempotency::request_hash(
        "pay",
        &pb::PayRequest {
            folder: Some(pb::FolderSnapshot {
                folder_id: folder.folder_id.clone(),
                ..pb::FolderSnapshot::default()
            }),
            ..request.clone()
        },
    );

    let mut tx = pool.begin().await?;
    if let Some(answer) = idempotency::begin(&mut tx, user_id, &key, "pay", &hash).await? {
        return Ok(answer);
    }
    let (customer, default_pm): (Option<String>, Option<String>) = sqlx::query_as(
        "SELECT stripe_customer_id, default_payment_method FROM customers WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(PaymentsError::NoCustomer)?;
    let customer = customer.ok_or(PaymentsError::NoCustomer)?;
    let (breakdown, description) = match &bought {
        Bought::Extension { months, .. } => (
            pricing.storage(StorageSize::measured(folder.used_bytes), *months)?,
            format!(
                "Storage extension by {months} month{}",
                if *months == 1 { "" } else { "s" }
            ),
        ),
        Bought::Share {
            authenticated,
            recipients,
            breakdown,
            ..
        } => (
            *breakdown,
            format!(
                "{} copies for {recipients} recipient{}",
                if *authenticated {
                    "Authenticated"
                } else {
                    "Unauthenticated"
                },
                if *recipients == 1 { "" } else { "s" }
            ),
        ),
    };
    let purchase_id = Uuid::now_v7();

    let (paid_from_wallet, charged_to_card, card_intent) = if by_wallet {
        let balance = wallet::lock(&mut tx, user_id).await?;
        let mut charged = 0;
        let mut intent_id = None;
        if balance < breakdown.wallet_total {
            let (wallet_pm, auto_amount): (Option<String>, i64) = sqlx::query_as(
                "SELECT payment_method, auto_topping_up_amount_cents FROM wallets WHERE user_id = $1",
            )
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
            let Some(wallet_pm) = wallet_pm else {
                return Err(PaymentsError::Refused(
                    "Your CreditCard Wallet balance is too low. Top it up or pay by card.",
                ));
            };
            // The balance is below the total here, and both are at least zero.
            let shortfall = breakdown.wallet_total - balance;
            let amount = shortfall.max(auto_amount.max(pricing.top_up_min));
            let transfer_key = format!("pay-{user_id}-{key}-transfer");
            match wallet::charge(
                stripe,
                user_id,
                &customer,
                &wallet_pm,
                amount,
                "shortfall",
                &transfer_key,
            )
            .await
            {
                Ok(intent) => {
                    wallet::record_charge(
                        &mut tx,
                        &intent.id,
                        user_id,
                        "shortfall",
                        amount,
                        &wallet_pm,
                    )
                    .await?;
                    charged = amount;
                    intent_id = Some(intent.id);
                }
                Err(StripeFailure::Declined { message, .. }) => {
                    drop(tx);
                    let mut conn = pool.acquire().await?;
                    wallet::set_top_up_error(&mut conn, user_id, &wallet_pm, &message).await?;
                    movements::record_decline(
                        &mut conn,
                        user_id,
                        "shortfall",
                        amount,
                        &wallet_pm,
                        &message,
                        &transfer_key,
                    )
                    .await?;
                    return Err(PaymentsError::CardDeclined);
                }
                Err(other) => return Err(other.into()),
            }
        }
        wallet::post(
            &mut tx,
            user_id,
            EntryKind::Purchase,
            -breakdown.wallet_total,
            &format!("purchase:{purchase_id}"),
            &description,
        )
        .await?;
        (breakdown.wallet_total, charged, intent_id)
    } else {
        let Some(pm) = default_pm else {
            return Err(PaymentsError::Refused(
                "Add a card to pay with, or pay from your CreditCard Wallet.",
            ));
        };
        let card_key = format!("pay-{user_id}-{key}-card");
        match wallet::charge(
            stripe,
            user_id,
            &customer,
            &pm,
            breakdown.total,
            "card_purchase",
            &card_key,
        )
        .await
        {
            Ok(intent) => {
                wallet::record_intent(
                    &mut tx,
                    &intent.id,
                    user_id,
                    "card_purchase",
                    breakdown.total,
                    &pm,
                    None,
                    "succeeded",
                )
                .await?;
                (0, breakdown.total, Some(intent.id))
            }
            Err(StripeFailure::Declined { message, .. }) => {
                drop(tx);
                let mut conn = pool.acquire().await?;
                movements::record_decline(
                    &mut conn,
                    user_id,
                    "card_purchase",
                    breakdown.total,
                    &pm,
                    &message,
                    &card_key,
                )
                .await?;
                return Err(PaymentsError::CardDeclined);
            }
            Err(other) => return Err(other.into()),
        }
    };

    let number = transaction_number(&mut tx).await?;
    let (kind, months, target, share_id) = match &bought {
        Bought::Extension { months, target } => {
            ("storage_extension", Some(*months), Some(*target), None)
        }
        Bought::Share { share_id, .. } => ("sharing", None, None, Some(*share_id)),
    };
    sqlx::query(
        "INSERT INTO purchases (id, user_id, transaction_number, kind, description, folder_id, months, \
            storage_expires_at, price_cents, service_fee_cents, processing_fee_cents, wallet_saving_cents, \
            total_cents, wallet_total_cents, paid_from_wallet_cents, charged_to_card_cents, card_payment_intent_id, share_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
    )
    .bind(purchase_id)
    .bind(user_id)
    .bind(&number)
    .bind(kind)
    .bind(&description)
    .bind(folder_id)
    .bind(months)
    .bind(target)
    .bind(breakdown.price)
    .bind(breakdown.service_fee)
    .bind(breakdown.processing_fee)
    .bind(breakdown.wallet_saving)
    .bind(breakdown.total)
    .bind(breakdown.wallet_total)
    .bind(paid_from_wallet)
    .bind(charged_to_card)
    .bind(card_intent)
    .bind(share_id)
    .execute(&mut *tx)
    .await?;
    if let Some(target) = target {
        outbox::enqueue(
            &mut tx,
            &StorageExtensionPaid {
                purchase_id: purchase_id.to_string(),
                folder_id: folder_id.to_string(),
                owner_id: user_id.to_string(),
                storage_expires_at: Some(time::timestamp(target)),
            },
        )
        .await?;
    }
    let transaction = transaction(&mut tx, user_id, purchase_id).await?;
    let account = wallet::stored_account(&mut tx, user_id).await?;
    let answer = pb::PayResponse {
        transaction: Some(transaction),
        stored_account: Some(stored_account_pb(&account)),
    };
    idempotency::finish(&mut tx, user_id, &key, "pay", &hash, &answer).await?;
    tx.commit().await?;

    if by_wallet
        && let Err(err) = wallet::auto_top_up(
            pool,
            stripe,
            pricing,
            user_id,
            &format!("purchase-{purchase_id}"),
        )
        .await
    {
        tracing::error!(error = ?err, "auto top-up after a purchase failed");
    }
    Ok(answer)
}

/// What a purchase buys.
enum Bought {
    Extension {
        months: i32,
        target: DateTime<Utc>,
    },
    Share {
        share_id: Uuid,
        authenticated: bool,
        recipients: i32,
        breakdown: Breakdown,
    },
}

/// `EVD-` and the year's running number, e.g. `EVD-2026-000042`.
async fn transaction_number(conn: &mut PgConnection) -> Result<String, PaymentsError> {
    let n: i64 = sqlx::query_scalar("SELECT nextval('purchase_numbers')")
        .fetch_one(&mut *conn)
        .await?;
    Ok(format!("EVD-{}-{n:06}", Utc::now().format("%Y")))
}

pub fn stored_account_pb(a: &wallet::StoredAccount) -> pb::StoredAccount {
    pb::StoredAccount {
        active: a.active,
        payment_method_id: a.payment_method_id.clone(),
        brand: a.brand.clone(),
        last4: a.last4.clone(),
        auto_topping_up_amount: a.auto_topping_up_amount,
        balance: a.balance,
        top_up_error: a.top_up_error.clone(),
    }
}

#[derive(sqlx::FromRow)]
struct Row {
    id: Uuid,
    transaction_number: String,
    kind: String,
    description: String,
    folder_id: Option<Uuid>,
    months: Option<i32>,
    storage_expires_at: Option<DateTime<Utc>>,
    price_cents: i64,
    service_fee_cents: i64,
    processing_fee_cents: i64,
    wallet_saving_cents: i64,
    total_cents: i64,
    wallet_total_cents: i64,
    paid_from_wallet_cents: i64,
    charged_to_card_cents: i64,
    created_at: DateTime<Utc>,
}

const SELECT: &str = "SELECT id, transaction_number, kind, description, folder_id, months, storage_expires_at, \
    price_cents, service_fee_cents, processing_fee_cents, wallet_saving_cents, total_cents, wallet_total_cents, \
    paid_from_wallet_cents, charged_to_card_cents, created_at FROM purchases";

impl From<Row> for pb::Transaction {
    fn from(r: Row) -> Self {
        Self {
            id: r.id.to_string(),
            transaction_number: r.transaction_number,
            kind: r.kind,
            description: r.description,
            folder_id: r.folder_id.map(|f| f.to_string()),
            months: r.months,
            breakdown: Some(pb::Breakdown {
                price: r.price_cents,
                service_fee: r.service_fee_cents,
                processing_fee: r.processing_fee_cents,
                wallet_saving: r.wallet_saving_cents,
                total: r.total_cents,
                wallet_total: r.wallet_total_cents,
                currency: "usd".to_owned(),
            }),
            amount_paid: if r.paid_from_wallet_cents > 0 {
                r.wallet_total_cents
            } else {
                r.total_cents
            },
            paid_from_wallet: r.paid_from_wallet_cents,
            charged_to_card: r.charged_to_card_cents,
            storage_expires_at: r.storage_expires_at.map(time::timestamp),
            created_at: Some(time::timestamp(r.created_at)),
        }
    }
}

pub async fn transaction(
    conn: &mut PgConnection,
    user_id: Uuid,
    id: Uuid,
) -> Result<pb::Transaction, PaymentsError> {
    let row: Option<Row> = sqlx::query_as(&format!("{SELECT} WHERE user_id = $1 AND id = $2"))
        .bind(user_id)
        .bind(id)
        .fetch_optional(conn)
        .await?;
    row.map(Into::into).ok_or(PaymentsError::NotFound)
}

pub async fn transactions(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<Vec<pb::Transaction>, PaymentsError> {
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "{SELECT} WHERE user_id = $1 ORDER BY created_at DESC LIMIT 200"
    ))
    .bind(user_id)
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(Into::into).collect())
}
