//! The gRPC edge of payments: converts proto messages into domain values (checking them), calls
//! one use-case, and converts its answer back. The money-moving calls (`create_payment_intent`,
//! `pay`) own their idempotency transaction here, so the use-cases never see the wire.

use chrono::Utc;
use evidentia_common::{errors::FieldError, grpc::user_of, time};
use evidentia_proto::payments::v1::{
    self as pb, payments_service_server::PaymentsService as PaymentsRpc,
};
use secrecy::ExposeSecret;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    app::{
        cards, customers,
        customers::BillingName,
        pay::{self, Item, Order},
        prices, transactions,
        wallet::{self, BrowserIntent},
        webhook,
    },
    domain::{
        Card, CustomerId, Movement, PaymentMethodId, PaymentProfile, Purpose, StoredAccount,
        Transaction,
    },
    error::PaymentsError,
    idempotency::{Answer, Idempotent},
    pricing::{Breakdown, Pricing},
    state::PaymentsState,
};

pub struct PaymentsApi {
    pub state: PaymentsState,
}

type Reply<T> = Result<Response<T>, Status>;

fn reply<T>(value: impl Into<T>) -> Reply<T> {
    Ok(Response::new(value.into()))
}

// ---- proto -> domain --------------------------------------------------------------------------

/// Spec §5 "Billing first and last name": required, 2 to 50 characters each.
impl TryFrom<&pb::UpdateCustomerNameRequest> for BillingName {
    type Error = PaymentsError;

    fn try_from(req: &pb::UpdateCustomerNameRequest) -> Result<Self, Self::Error> {
        let check = |field: &str, value: &str| {
            let len = value.trim().chars().count();
            let message = match len {
                0 => "This field is required",
                1 => "Minimum 2 characters",
                n if n > 50 => "Maximum 50 characters",
                _ => return None,
            };
            Some(FieldError::new(field, message))
        };
        let errors: Vec<_> = [
            check("first_name", &req.first_name),
            check("last_name", &req.last_name),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !errors.is_empty() {
            return Err(PaymentsError::Invalid(errors));
        }
        Ok(Self {
            first: req.first_name.trim().to_owned(),
            last: req.last_name.trim().to_owned(),
        })
    }
}

/// Spec §7: action 2 creates the wallet with the auto top-up amount, action 4 tops it up.
pub const ACTION_CREATE_WALLET: i32 = 2;
pub const ACTION_TOP_UP: i32 = 4;

fn browser_intent(
    req: &pb::CreatePaymentIntentRequest,
    pricing: &Pricing,
) -> Result<BrowserIntent, PaymentsError> {
    let metadata = req.metadata.unwrap_or_default();
    let purpose = match metadata.action {
        ACTION_CREATE_WALLET => Purpose::WalletCreate,
        ACTION_TOP_UP => Purpose::TopUp,
        _ => {
            return Err(PaymentsError::invalid(
                "metadata.action",
                "The action must be 2 (create the wallet) or 4 (top up).",
            ));
        }
    };
    wallet::check_amount(pricing, "metadata.amount", metadata.amount)?;
    Ok(BrowserIntent {
        purpose,
        action: metadata.action,
        amount: metadata.amount,
        payment_method: PaymentMethodId::parse("payment_method_id", &req.payment_method_id)?,
    })
}

fn order(req: &pb::PayRequest, pricing: &Pricing) -> Result<Order, PaymentsError> {
    let from_wallet = match req.pay_with.as_str() {
        "wallet" => true,
        "card" => false,
        _ => {
            return Err(PaymentsError::invalid(
                "pay_with",
                "Pay with the wallet or a card.",
            ));
        }
    };
    let folder = req.folder.as_ref().ok_or(PaymentsError::NotFound)?;
    let folder_id = Uuid::parse_str(&folder.folder_id).map_err(|_| PaymentsError::NotFound)?;
    let only_extensions =
        || PaymentsError::invalid("kind", "Only storage extensions can be bought here.");
    let item = match req.kind.as_str() {
        "storage_extension" => {
            let months = prices::check_months(pricing, req.months)?;
            let now = Utc::now();
            let current = folder
                .storage_expires_at
                .as_ref()
                .and_then(time::datetime)
                .unwrap_or(now);
            Item::Extension {
                months,
                used_bytes: folder.used_bytes,
                target: prices::extended(current, now, months),
            }
        }
        // Only the sharing service sets `share`: the gateway's pay route has no such field.
        "sharing" => {
            let share = req.share.as_ref().ok_or_else(only_extensions)?;
            let share_id = Uuid::parse_str(&share.share_id)
                .map_err(|_| PaymentsError::invalid("share_id", "Unknown share."))?;
            Item::Share {
                share_id,
                authenticated: share.copy_type == "authenticated",
                recipients: share.recipients,
                breakdown: prices::sharing(pricing, &share.copy_type, share.recipients)?,
            }
        }
        _ => return Err(only_extensions()),
    };
    Ok(Order {
        folder_id,
        from_wallet,
        item,
    })
}

fn payment_method(field: &str, value: &str) -> Result<PaymentMethodId, PaymentsError> {
    Ok(PaymentMethodId::parse(field, value)?)
}

// ---- domain -> proto --------------------------------------------------------------------------

impl From<Card> for pb::PaymentMethod {
    fn from(card: Card) -> Self {
        Self {
            id: card.id,
            brand: card.brand,
            last4: card.last4,
            fingerprint: card.fingerprint,
            exp_month: card.exp_month,
            exp_year: card.exp_year,
            default_method: card.default_method,
            wallet: card.wallet,
        }
    }
}

fn cards_pb(cards: Vec<Card>) -> pb::PaymentMethods {
    pb::PaymentMethods {
        payment_methods: cards.into_iter().map(Into::into).collect(),
    }
}

impl From<StoredAccount> for pb::StoredAccount {
    fn from(a: StoredAccount) -> Self {
        Self {
            active: a.active,
            payment_method_id: a.payment_method_id,
            brand: a.brand,
            last4: a.last4,
            auto_topping_up_amount: a.auto_topping_up_amount,
            balance: a.balance,
            top_up_error: a.top_up_error,
        }
    }
}

impl From<PaymentProfile> for pb::PaymentProfile {
    fn from(p: PaymentProfile) -> Self {
        Self {
            stripe_customer_id: p.stripe_customer_id,
            default_payment_method: p.default_payment_method,
            auto_topping_up_amount: p.auto_topping_up_amount,
            credit_card_wallet_balance: p.credit_card_wallet_balance,
            one_time_benefit_applied: p.one_time_benefit_applied,
        }
    }
}

impl From<Breakdown> for pb::Breakdown {
    fn from(b: Breakdown) -> Self {
        Self {
            price: b.price,
            service_fee: b.service_fee,
            processing_fee: b.processing_fee,
            wallet_saving: b.wallet_saving,
            total: b.total,
            wallet_total: b.wallet_total,
            currency: "usd".to_owned(),
        }
    }
}

impl From<Transaction> for pb::Transaction {
    fn from(t: Transaction) -> Self {
        Self {
            id: t.id.to_string(),
            amount_paid: t.amount_paid(),
            transaction_number: t.transaction_number,
            kind: t.kind,
            description: t.description,
            folder_id: t.folder_id.map(|f| f.to_string()),
            months: t.months,
            breakdown: Some(pb::Breakdown::from(Breakdown {
                price: t.price_cents,
                service_fee: t.service_fee_cents,
                processing_fee: t.processing_fee_cents,
                wallet_saving: t.wallet_saving_cents,
                total: t.total_cents,
                wallet_total: t.wallet_total_cents,
            })),
            paid_from_wallet: t.paid_from_wallet_cents,
            charged_to_card: t.charged_to_card_cents,
            storage_expires_at: t.storage_expires_at.map(time::timestamp),
            created_at: Some(time::timestamp(t.created_at)),
            refunded_at: t.refunded_at.map(time::timestamp),
        }
    }
}

impl From<Movement> for pb::MoneyMovement {
    fn from(m: Movement) -> Self {
        Self {
            id: m.id.to_string(),
            kind: m.kind.to_owned(),
            status: m.status.to_owned(),
            amount: m.amount,
            created_at: Some(time::timestamp(m.created_at)),
            description: m.description,
            card: m
                .card
                .map(|(brand, last4)| pb::CardSummary { brand, last4 }),
            transaction_id: m.transaction_id,
            decline_message: m.decline_message,
        }
    }
}

impl From<&Pricing> for pb::Pricing {
    fn from(p: &Pricing) -> Self {
        Self {
            storage_month_price: p.storage_month_price,
            storage_included_gb: p.storage_included_gb,
            storage_extra_gb_month_price: p.storage_extra_gb_month_price,
            storage_months_options: p.storage_months_options.clone(),
            sharing_authenticated: p.sharing_authenticated,
            sharing_unauthenticated: p.sharing_unauthenticated,
            service_fee_bps: p.service_fee_bps,
            wallet_service_fee_saving_bps: p.wallet_service_fee_saving_bps,
            card_processing_bps: p.card_processing_bps,
            card_processing_fixed: p.card_processing_fixed,
            first_authorisation: p.first_authorisation,
            auto_top_up_threshold: p.auto_top_up_threshold,
            top_up_min: p.top_up_min,
            top_up_max: p.top_up_max,
            top_up_presets: p.top_up_presets.clone(),
            referrer_reward: p.referrer_reward,
            friend_reward: p.friend_reward,
            referral_monthly_cap: p.referral_monthly_cap,
        }
    }
}

// ---- the calls --------------------------------------------------------------------------------

impl PaymentsApi {
    async fn conn(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Postgres>, PaymentsError> {
        Ok(self.state.pool.acquire().await?)
    }
}

#[tonic::async_trait]
impl PaymentsRpc for PaymentsApi {
    async fn get_payment_profile(
        &self,
        request: Request<pb::GetPaymentProfileRequest>,
    ) -> Reply<pb::PaymentProfile> {
        let user_id = user_of(&request)?;
        reply(customers::profile(&mut *self.conn().await?, user_id).await?)
    }

    async fn ensure_stripe_customer(
        &self,
        request: Request<pb::EnsureStripeCustomerRequest>,
    ) -> Reply<pb::EnsureStripeCustomerResponse> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let mut tx = self.state.pool.begin().await.map_err(PaymentsError::from)?;
        let stripe_customer_id = customers::ensure(
            &mut tx,
            self.state.stripe.as_ref(),
            user_id,
            &req.email,
            &req.name,
        )
        .await?;
        tx.commit().await.map_err(PaymentsError::from)?;
        reply(pb::EnsureStripeCustomerResponse { stripe_customer_id })
    }

    async fn update_customer_name(
        &self,
        request: Request<pb::UpdateCustomerNameRequest>,
    ) -> Reply<pb::CustomerName> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let name = BillingName::try_from(&req)?;
        customers::update_name(
            &self.state.pool,
            self.state.stripe.as_ref(),
            user_id,
            &req.email,
            &name,
        )
        .await?;
        reply(pb::CustomerName {
            first_name: name.first,
            last_name: name.last,
        })
    }

    async fn register_payment_method(
        &self,
        request: Request<pb::RegisterPaymentMethodRequest>,
    ) -> Reply<pb::PaymentMethod> {
        let user_id = user_of(&request)?;
        let id = payment_method("payment_method_id", &request.get_ref().payment_method_id)?;
        let card = cards::register(
            &mut *self.conn().await?,
            self.state.stripe.as_ref(),
            user_id,
            &id,
        )
        .await?;
        reply(card)
    }

    async fn create_setup_intent(
        &self,
        request: Request<pb::CreateSetupIntentRequest>,
    ) -> Reply<pb::SetupIntent> {
        let user_id = user_of(&request)?;
        let customer =
            CustomerId::parse("stripe_customer_id", &request.get_ref().stripe_customer_id)
                .map_err(PaymentsError::from)?;
        let client_secret = cards::create_setup_intent(
            &mut *self.conn().await?,
            self.state.stripe.as_ref(),
            user_id,
            &customer,
        )
        .await?;
        reply(pb::SetupIntent { client_secret })
    }

    async fn list_payment_methods(
        &self,
        request: Request<pb::ListPaymentMethodsRequest>,
    ) -> Reply<pb::PaymentMethods> {
        let user_id = user_of(&request)?;
        cards::reconcile(&self.state.pool, self.state.stripe.as_ref(), user_id).await?;
        reply(cards_pb(
            cards::list(&mut *self.conn().await?, user_id).await?,
        ))
    }

    async fn get_payment_method(
        &self,
        request: Request<pb::PaymentMethodRef>,
    ) -> Reply<pb::PaymentMethod> {
        let user_id = user_of(&request)?;
        // A path id that cannot be a card id names no card of the user's.
        let id = PaymentMethodId::parse("id", &request.get_ref().payment_method_id)
            .map_err(|_| PaymentsError::NotFound)?;
        reply(cards::get(&mut *self.conn().await?, user_id, &id).await?)
    }

    async fn set_default_payment_method(
        &self,
        request: Request<pb::PaymentMethodRef>,
    ) -> Reply<pb::PaymentMethods> {
        let user_id = user_of(&request)?;
        let id = payment_method("payment_method_id", &request.get_ref().payment_method_id)?;
        let cards =
            cards::set_default(&self.state.pool, self.state.stripe.as_ref(), user_id, &id).await?;
        reply(cards_pb(cards))
    }

    async fn remove_payment_method(
        &self,
        request: Request<pb::PaymentMethodRef>,
    ) -> Reply<pb::PaymentMethods> {
        let user_id = user_of(&request)?;
        let id = payment_method("payment_method_id", &request.get_ref().payment_method_id)?;
        let cards =
            cards::remove(&self.state.pool, self.state.stripe.as_ref(), user_id, &id).await?;
        reply(cards_pb(cards))
    }

    async fn get_stored_account(
        &self,
        request: Request<pb::GetStoredAccountRequest>,
    ) -> Reply<pb::StoredAccount> {
        let user_id = user_of(&request)?;
        wallet::reconcile_intents(&self.state.pool, self.state.stripe.as_ref(), user_id).await?;
        reply(wallet::stored_account(&mut *self.conn().await?, user_id).await?)
    }

    async fn update_stored_account(
        &self,
        request: Request<pb::UpdateStoredAccountRequest>,
    ) -> Reply<pb::StoredAccount> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let id = payment_method("payment_method_id", &req.payment_method_id)?;
        let account = wallet::update(
            &self.state.pool,
            &self.state.pricing,
            user_id,
            req.auto_topping_up_amount,
            &id,
        )
        .await?;
        reply(account)
    }

    async fn delete_stored_account(
        &self,
        request: Request<pb::DeleteStoredAccountRequest>,
    ) -> Reply<pb::StoredAccount> {
        let user_id = user_of(&request)?;
        reply(wallet::close(&self.state.pool, user_id).await?)
    }

    async fn get_wallet(&self, request: Request<pb::GetWalletRequest>) -> Reply<pb::Wallet> {
        let user_id = user_of(&request)?;
        wallet::reconcile_intents(&self.state.pool, self.state.stripe.as_ref(), user_id).await?;
        let account = wallet::stored_account(&mut *self.conn().await?, user_id).await?;
        reply(pb::Wallet {
            balance: account.balance,
            currency: "usd".to_owned(),
        })
    }

    /// The key's lock is held from the first look at the key to the stored answer, so a retry
    /// waits for this request and gets its answer (Stripe's idempotency key is not relied on).
    /// Nothing else is locked while Stripe answers.
    async fn create_payment_intent(
        &self,
        request: Request<pb::CreatePaymentIntentRequest>,
    ) -> Reply<pb::PaymentIntent> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let guard = Idempotent::new(user_id, &req.idempotency_key, "payment_intent", &req)?;
        let intent = browser_intent(&req, &self.state.pricing)?;
        let pool = &self.state.pool;
        let mut tx = pool.begin().await.map_err(PaymentsError::from)?;
        if let Some(answer) = guard.begin::<pb::PaymentIntent>(&mut tx).await? {
            return reply(answer);
        }
        let created = wallet::create_intent(
            &mut tx,
            self.state.stripe.as_ref(),
            user_id,
            &intent,
            guard.key(),
        )
        .await?;
        wallet::record_intent(&mut tx, user_id, &intent, &created.id).await?;
        let answer = pb::PaymentIntent {
            client_secret: created.client_secret,
            payment_intent_id: created.id,
        };
        guard.finish(&mut tx, &answer).await?;
        tx.commit().await.map_err(PaymentsError::from)?;
        reply(answer)
    }

    /// A purchase in the steps of `app::pay`, in one transaction on one connection, holding the
    /// key's lock (a retry waits for this request and gets its answer) and, paid from the wallet,
    /// the user's wallet-purchase lock (concurrent purchases from one wallet are decided one after
    /// the other, so one card charge covers a shortfall); the wallet row itself is locked only by
    /// the debit, after Stripe answered. A declined card is recorded and committed without an
    /// answer for the key.
    async fn pay(&self, request: Request<pb::PayRequest>) -> Reply<pb::PayResponse> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let key = evidentia_common::idempotency::parse_key(&req.idempotency_key)
            .map_err(PaymentsError::from)?;
        let order = order(&req, &self.state.pricing)?;
        // The key guards what the client asked for; the folder's size and date are what the
        // gateway read, and change once the purchase is made.
        let asked = pb::PayRequest {
            folder: Some(pb::FolderSnapshot {
                folder_id: order.folder_id.to_string(),
                ..pb::FolderSnapshot::default()
            }),
            ..req.clone()
        };
        let guard = Idempotent::new(user_id, key, "pay", &asked)?;
        let (pool, stripe, pricing) = (
            &self.state.pool,
            self.state.stripe.as_ref(),
            &self.state.pricing,
        );
        // A retry after the answer was stored is answered from it without the key's lock or a
        // transaction: a stored answer never changes.
        if let Some(answer) = guard
            .answered::<pb::PayResponse>(&mut *self.conn().await?)
            .await?
        {
            return reply(answer);
        }
        // Planned beside the wallet's other purchases first; when the balance turns out short,
        // rolled back (nothing was charged) and planned again alone, again each time the balance
        // it read is spent by the purchases beside it before its debit (app/pay.rs).
        let mut planning = pay::Planning::Alongside;
        let (purchase, answer) = loop {
            let mut tx = pool.begin().await.map_err(PaymentsError::from)?;
            if let Some(answer) = guard.begin::<pb::PayResponse>(&mut tx).await? {
                return reply(answer);
            }
            let attempt = async {
                let quote = pay::quote(&mut tx, pricing, user_id, &order, planning).await?;
                let funded = pay::fund(&mut tx, stripe, user_id, guard.key(), &quote).await?;
                let transaction =
                    pay::record(&mut tx, pricing, user_id, &order, &quote, &funded).await?;
                let purchase = transaction.id;
                let account = pay::account(&mut tx, user_id, &quote, &funded).await?;
                let answer = pb::PayResponse {
                    transaction: Some(transaction.into()),
                    stored_account: Some(account.into()),
                };
                // The debit stores the answer: from it to the commit the wallet row is locked,
                // and every purchase from the wallet waits for it.
                let debited = pay::debit(
                    &mut tx,
                    user_id,
                    &order,
                    &quote,
                    &funded,
                    &guard.entry(&answer),
                )
                .await?;
                let answer = match debited {
                    Some(balance) => answer.with_balance(balance),
                    None => answer,
                };
                Ok::<_, PaymentsError>((purchase, answer))
            }
            .await;
            match attempt {
                Ok(done) => {
                    tx.commit().await.map_err(PaymentsError::from)?;
                    break done;
                }
                Err(PaymentsError::PlanAlone) => {
                    tx.rollback().await.map_err(PaymentsError::from)?;
                    planning = pay::Planning::Alone;
                }
                Err(PaymentsError::CardDeclined) => {
                    // The decline and its top-up error stay; the key keeps no answer, so a retry
                    // asks Stripe again under the same Stripe key.
                    tx.commit().await.map_err(PaymentsError::from)?;
                    return Err(PaymentsError::CardDeclined.into());
                }
                Err(err) => return Err(err.into()),
            }
        };
        // A balance the debit left at or above the threshold needs no top-up: asking would only
        // wait for the wallet row behind the purchases in flight. A later debit that takes it
        // below asks itself.
        let left = answer.stored_account.as_ref().map_or(0, |a| a.balance);
        if order.from_wallet
            && left < pricing.auto_top_up_threshold
            && let Err(err) = wallet::auto_top_up(
                pool,
                stripe,
                pricing,
                user_id,
                &format!("purchase-{purchase}"),
            )
            .await
        {
            tracing::error!(error = ?err, "auto top-up after a purchase failed");
        }
        reply(answer)
    }

    async fn list_transactions(
        &self,
        request: Request<pb::ListTransactionsRequest>,
    ) -> Reply<pb::Transactions> {
        let user_id = user_of(&request)?;
        let (bought, moved) = transactions::list(&mut *self.conn().await?, user_id).await?;
        reply(pb::Transactions {
            transactions: bought.into_iter().map(Into::into).collect(),
            movements: moved.into_iter().map(Into::into).collect(),
        })
    }

    async fn get_transaction(
        &self,
        request: Request<pb::GetTransactionRequest>,
    ) -> Reply<pb::Transaction> {
        let user_id = user_of(&request)?;
        let id = Uuid::parse_str(&request.get_ref().id).map_err(|_| PaymentsError::NotFound)?;
        reply(transactions::get(&mut *self.conn().await?, user_id, id).await?)
    }

    async fn get_pricing(&self, _request: Request<pb::GetPricingRequest>) -> Reply<pb::Pricing> {
        reply(&self.state.pricing)
    }

    async fn calculate_storage_price(
        &self,
        request: Request<pb::CalculateStoragePriceRequest>,
    ) -> Reply<pb::StoragePrice> {
        let req = request.into_inner();
        let what = match &req.folder {
            Some(folder) => prices::Sized::Folder {
                used_bytes: folder.used_bytes,
                storage_expires_at: folder.storage_expires_at.as_ref().and_then(time::datetime),
            },
            None => prices::Sized::Bytes(req.size_bytes),
        };
        let price = prices::storage(&self.state.pricing, what, req.months, Utc::now())?;
        reply(pb::StoragePrice {
            breakdown: Some(price.breakdown.into()),
            current_storage_date: price.current.map(time::timestamp),
            new_storage_date: price.new_date.map(time::timestamp),
        })
    }

    async fn calculate_sharing_price(
        &self,
        request: Request<pb::CalculateSharingPriceRequest>,
    ) -> Reply<pb::Breakdown> {
        let req = request.get_ref();
        reply(prices::sharing(
            &self.state.pricing,
            &req.copy_type,
            req.recipients,
        )?)
    }

    async fn handle_stripe_webhook(
        &self,
        request: Request<pb::StripeWebhookRequest>,
    ) -> Reply<pb::StripeWebhookResponse> {
        let req = request.into_inner();
        webhook::handle(
            &self.state.pool,
            self.state.webhook_secret.expose_secret(),
            &req.payload,
            &req.signature,
        )
        .await?;
        reply(pb::StripeWebhookResponse {})
    }
}
