//! `payments/...` (spec §7 "Payments", and the not-shown calls of the add-card flow and the card
//! action sheet; their paths are in docs/decisions.md). Amounts are integer cents. Money-moving
//! calls take an `Idempotency-Key` header. The Stripe webhook is the one unauthenticated call: its
//! signature is checked by the payments service.

use axum::{
    Json,
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode},
};
use evidentia_common::{grpc::Caller, time::rfc3339};
use evidentia_proto::{
    accounts::v1 as accounts, evidence::v1 as evidence, payments::v1 as payments,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, area};
use crate::{
    auth::User,
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, IdempotencyKey},
    forward::{Reply, forward, lists},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        payments_config,
        create_stripe_customer,
        update_customer_name,
        register_payment_method,
        create_setup_intent,
        list_payment_methods,
        get_payment_method,
        set_default_payment_method,
        remove_payment_method,
        get_stored_account,
        update_stored_account,
        delete_stored_account,
        get_wallet,
        create_payment_intent,
        pay,
        list_transactions,
        get_transaction,
        pricing,
        storage_price,
        sharing_price,
        stripe_webhook
    ]
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentsConfig {
    /// Stripe's publishable key for Stripe.js.
    pub publishable_key: String,
    /// Where the browser loads Stripe.js from (Stripe's, or locally the emulator's stand-in).
    pub stripe_js_url: String,
}

/// What the browser needs to talk to Stripe.
#[utoipa::path(get, path = "/api/payments/config/", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = PaymentsConfig), (status = 401, body = ErrorBody)))]
async fn payments_config(
    State(state): State<AppState>,
    User(_caller): User,
) -> Json<PaymentsConfig> {
    Json(PaymentsConfig {
        publishable_key: state.config.stripe_publishable_key.clone(),
        stripe_js_url: state.config.stripe_js_url.clone(),
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StripeCustomer {
    pub stripe_customer_id: String,
}

async fn profile(state: &AppState, caller: &Caller) -> ApiResult<accounts::Profile> {
    Ok(state
        .accounts()
        .get_profile(caller.request(accounts::GetProfileRequest {}))
        .await?
        .into_inner())
}

/// The user's Stripe customer: the one made when the account was created, or a new one if that
/// has not happened yet. Idempotent.
#[utoipa::path(post, path = "/api/payments/stripe-customer/create/", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = StripeCustomer), (status = 401, body = ErrorBody)))]
async fn create_stripe_customer(
    State(state): State<AppState>,
    User(caller): User,
) -> ApiResult<Json<StripeCustomer>> {
    let profile = profile(&state, &caller).await?;
    let name = format!("{} {}", profile.first_name, profile.last_name);
    let customer = state
        .payments()
        .ensure_stripe_customer(caller.request(payments::EnsureStripeCustomerRequest {
            email: profile.email,
            name: name.trim().to_owned(),
        }))
        .await
        .answer()?;
    Ok(Json(StripeCustomer {
        stripe_customer_id: customer.stripe_customer_id,
    }))
}

#[derive(Debug, Deserialize, Serialize, ToSchema)]
pub struct CustomerName {
    pub first_name: String,
    pub last_name: String,
}

/// Add-card step 1: the name on the card holder's Stripe customer (spec §5 billing names).
#[utoipa::path(patch, path = "/api/payments/stripe-customer/name/update/", tag = "payments", security(("bearer" = [])),
    request_body = CustomerName,
    responses((status = 200, body = CustomerName), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn update_customer_name(
    State(state): State<AppState>,
    User(caller): User,
    ApiJson(body): ApiJson<CustomerName>,
) -> ApiResult<Json<CustomerName>> {
    let profile = profile(&state, &caller).await?;
    let name = state
        .payments()
        .update_customer_name(caller.request(payments::UpdateCustomerNameRequest {
            first_name: body.first_name,
            last_name: body.last_name,
            email: profile.email,
        }))
        .await
        .answer()?;
    Ok(Json(CustomerName {
        first_name: name.first_name,
        last_name: name.last_name,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentMethod {
    pub id: String,
    pub brand: String,
    pub last4: String,
    pub fingerprint: String,
    pub exp_month: i32,
    pub exp_year: i32,
    /// The default card for credit card payments.
    pub default_method: bool,
    /// The CreditCard Wallet's card.
    pub wallet: bool,
}

impl From<payments::PaymentMethod> for PaymentMethod {
    fn from(p: payments::PaymentMethod) -> Self {
        Self {
            id: p.id,
            brand: p.brand,
            last4: p.last4,
            fingerprint: p.fingerprint,
            exp_month: p.exp_month,
            exp_year: p.exp_year,
            default_method: p.default_method,
            wallet: p.wallet,
        }
    }
}

lists! {
PaymentMethods from payments::PaymentMethods {
    payment_methods: PaymentMethod,
}
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PaymentMethodRef {
    /// The Stripe PaymentMethod id: `pm_` then letters and digits (anything else is a 400 on the
    /// field).
    #[schema(pattern = "^pm_[A-Za-z0-9]+$", max_length = 255)]
    pub payment_method_id: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RegisteredPaymentMethod {
    pub payment_method_id: String,
    pub fingerprint: String,
    pub brand: String,
    pub last4: String,
}

impl From<payments::PaymentMethod> for RegisteredPaymentMethod {
    fn from(card: payments::PaymentMethod) -> Self {
        Self {
            payment_method_id: card.id,
            fingerprint: card.fingerprint,
            brand: card.brand,
            last4: card.last4,
        }
    }
}

impl From<PaymentMethodRef> for payments::PaymentMethodRef {
    fn from(body: PaymentMethodRef) -> Self {
        Self {
            payment_method_id: body.payment_method_id,
        }
    }
}

forward! {
/// Add-card step 3: registers the card the browser created at Stripe and answers its
/// fingerprint (the client compares it with the saved cards: spec §4 duplicates).
#[utoipa::path(post, path = "/api/payments/payment-method/register/", tag = "payments", security(("bearer" = [])),
    request_body = PaymentMethodRef,
    responses((status = 200, body = RegisteredPaymentMethod), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn register_payment_method(body: PaymentMethodRef) -> RegisteredPaymentMethod =
    payments.register_payment_method(|body| payments::RegisterPaymentMethodRequest {
        payment_method_id: body.payment_method_id,
    });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SetupIntentRequest {
    /// The user's Stripe customer: `cus_` then letters and digits.
    #[schema(pattern = "^cus_[A-Za-z0-9]+$", max_length = 255)]
    pub stripe_customer_id: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SetupIntent {
    pub client_secret: String,
}

impl From<payments::SetupIntent> for SetupIntent {
    fn from(intent: payments::SetupIntent) -> Self {
        Self {
            client_secret: intent.client_secret,
        }
    }
}

forward! {
/// Add-card step 5: a SetupIntent for the registered card, confirmed in the browser.
#[utoipa::path(post, path = "/api/payments/stripe-setup-intent/create/", tag = "payments", security(("bearer" = [])),
    request_body = SetupIntentRequest,
    responses((status = 200, body = SetupIntent), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn create_setup_intent(body: SetupIntentRequest) -> SetupIntent =
    payments.create_setup_intent(|body| payments::CreateSetupIntentRequest {
        stripe_customer_id: body.stripe_customer_id,
    });
}

forward! {
/// The saved cards (spec §3), saving cards whose setup just succeeded.
#[utoipa::path(get, path = "/api/payments/payment-methods/get/", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = PaymentMethods), (status = 401, body = ErrorBody)))]
fn list_payment_methods() -> PaymentMethods =
    payments.list_payment_methods(payments::ListPaymentMethodsRequest {});
}

forward! {
/// One saved card.
#[utoipa::path(get, path = "/api/payments/payment-method/{id}/retrieve/", tag = "payments", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = PaymentMethod), (status = 404, body = ErrorBody)))]
fn get_payment_method(path: String) -> PaymentMethod =
    payments.get_payment_method(|payment_method_id| payments::PaymentMethodRef { payment_method_id });
}

forward! {
/// Makes a saved card the default for credit card payments.
#[utoipa::path(post, path = "/api/payments/payment-method/set-default/", tag = "payments", security(("bearer" = [])),
    request_body = PaymentMethodRef,
    responses((status = 200, body = PaymentMethods), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn set_default_payment_method(body: PaymentMethodRef) -> PaymentMethods =
    payments.set_default_payment_method;
}

forward! {
/// Removes a saved card; the default card cannot be removed (spec §8).
#[utoipa::path(post, path = "/api/payments/payment-method/remove/", tag = "payments", security(("bearer" = [])),
    request_body = PaymentMethodRef,
    responses((status = 200, body = PaymentMethods), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn remove_payment_method(body: PaymentMethodRef) -> PaymentMethods =
    payments.remove_payment_method;
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StoredAccount {
    /// The wallet has a card (auto top-up on).
    pub active: bool,
    pub payment_method_id: Option<String>,
    pub brand: Option<String>,
    pub last4: Option<String>,
    pub auto_topping_up_amount: i64,
    pub balance: i64,
    /// Why the last auto top-up failed (spec §8 insufficient funds); null when it did not.
    pub top_up_error: Option<String>,
}

impl From<payments::StoredAccount> for StoredAccount {
    fn from(a: payments::StoredAccount) -> Self {
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

forward! {
/// The CreditCard Wallet (stored account).
#[utoipa::path(get, path = "/api/payments/stored-account/get/", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = StoredAccount), (status = 401, body = ErrorBody)))]
fn get_stored_account() -> StoredAccount =
    payments.get_stored_account(payments::GetStoredAccountRequest {});
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateStoredAccount {
    /// Cents, 1000 to 10000 (spec §9).
    #[schema(minimum = 1000, maximum = 10000)]
    pub auto_topping_up_amount: i64,
    /// A saved card's id: `pm_` then letters and digits.
    #[schema(pattern = "^pm_[A-Za-z0-9]+$", max_length = 255)]
    pub payment_method_id: String,
}

impl From<UpdateStoredAccount> for payments::UpdateStoredAccountRequest {
    fn from(body: UpdateStoredAccount) -> Self {
        Self {
            auto_topping_up_amount: body.auto_topping_up_amount,
            payment_method_id: body.payment_method_id,
        }
    }
}

forward! {
/// Sets the wallet card and the auto top-up amount.
#[utoipa::path(post, path = "/api/payments/stored-account/update/", tag = "payments", security(("bearer" = [])),
    request_body = UpdateStoredAccount,
    responses((status = 200, body = StoredAccount), (status = 400, body = ErrorBody)))]
fn update_stored_account(body: UpdateStoredAccount) -> StoredAccount =
    payments.update_stored_account;
}

forward! {
/// Closes the wallet: no card, no auto top-up; the balance stays the user's.
#[utoipa::path(delete, path = "/api/payments/stored-account/delete/", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = StoredAccount), (status = 401, body = ErrorBody)))]
fn delete_stored_account() -> StoredAccount =
    payments.delete_stored_account(payments::DeleteStoredAccountRequest {});
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Wallet {
    pub balance: i64,
    pub currency: String,
}

impl From<payments::Wallet> for Wallet {
    fn from(w: payments::Wallet) -> Self {
        Self {
            balance: w.balance,
            currency: w.currency,
        }
    }
}

forward! {
/// The wallet balance.
#[utoipa::path(get, path = "/api/payments/evidentia-wallet/get/", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = Wallet), (status = 401, body = ErrorBody)))]
fn get_wallet() -> Wallet = payments.get_wallet(payments::GetWalletRequest {});
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IntentMetadata {
    /// 2: create the wallet with the auto top-up amount; 4: top up by an amount.
    #[schema(minimum = 2, maximum = 4)]
    pub action: i32,
    /// Cents, 1000 to 10000 (spec §9).
    #[schema(minimum = 1000, maximum = 10000)]
    pub amount: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreatePaymentIntent {
    /// A saved card's id: `pm_` then letters and digits.
    #[schema(pattern = "^pm_[A-Za-z0-9]+$", max_length = 255)]
    pub payment_method_id: String,
    pub metadata: IntentMetadata,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentIntent {
    pub client_secret: String,
    pub payment_intent_id: String,
}

/// A PaymentIntent the browser confirms; the wallet is credited once, from the webhook.
#[utoipa::path(post, path = "/api/payments/payment-intent/create/", tag = "payments", security(("bearer" = [])),
    params(("Idempotency-Key" = String, Header)), request_body = CreatePaymentIntent,
    responses((status = 200, body = PaymentIntent), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_payment_intent(
    State(state): State<AppState>,
    User(caller): User,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(body): ApiJson<CreatePaymentIntent>,
) -> ApiResult<Json<PaymentIntent>> {
    let intent = state
        .payments()
        .create_payment_intent(caller.request(payments::CreatePaymentIntentRequest {
            payment_method_id: body.payment_method_id,
            metadata: Some(payments::PaymentIntentMetadata {
                action: body.metadata.action,
                amount: body.metadata.amount,
            }),
            idempotency_key: key,
        }))
        .await
        .answer()?;
    Ok(Json(PaymentIntent {
        client_secret: intent.client_secret,
        payment_intent_id: intent.payment_intent_id,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Breakdown {
    pub price: i64,
    pub service_fee: i64,
    /// The card processing fee (not paid from the wallet).
    pub processing_fee: i64,
    /// 10% of the service fee, saved by paying from the wallet.
    pub wallet_saving: i64,
    /// By card: price + service fee + processing fee.
    pub total: i64,
    /// From the wallet: price + service fee - wallet saving.
    pub wallet_total: i64,
    pub currency: String,
}

impl From<payments::Breakdown> for Breakdown {
    fn from(b: payments::Breakdown) -> Self {
        Self {
            price: b.price,
            service_fee: b.service_fee,
            processing_fee: b.processing_fee,
            wallet_saving: b.wallet_saving,
            total: b.total,
            wallet_total: b.wallet_total,
            currency: b.currency,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Transaction {
    pub id: String,
    pub transaction_number: String,
    pub kind: String,
    pub description: String,
    pub folder_id: Option<String>,
    pub months: Option<i32>,
    pub price: i64,
    pub service_fee: i64,
    pub processing_fee: i64,
    pub wallet_saving: i64,
    /// What the purchase cost: the wallet total when paid from the wallet, else the card total.
    pub total: i64,
    pub paid_from_wallet: i64,
    pub charged_to_card: i64,
    pub storage_expires_at: Option<String>,
    pub created_at: String,
    /// RFC 3339: when the whole purchase went back to the wallet, as what it paid for could not
    /// be applied; absent when it was not refunded.
    pub refunded_at: Option<String>,
}

impl From<payments::Transaction> for Transaction {
    fn from(t: payments::Transaction) -> Self {
        let b = t.breakdown.unwrap_or_default();
        Self {
            id: t.id,
            transaction_number: t.transaction_number,
            kind: t.kind,
            description: t.description,
            folder_id: t.folder_id,
            months: t.months,
            price: b.price,
            service_fee: b.service_fee,
            processing_fee: b.processing_fee,
            wallet_saving: b.wallet_saving,
            total: t.amount_paid,
            paid_from_wallet: t.paid_from_wallet,
            charged_to_card: t.charged_to_card,
            storage_expires_at: rfc3339(t.storage_expires_at),
            created_at: rfc3339(t.created_at).unwrap_or_default(),
            refunded_at: rfc3339(t.refunded_at),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PayRequest {
    /// `storage_extension`.
    pub kind: String,
    pub folder_id: String,
    /// One of the pricing's storage periods (1, 3, 6 or 12).
    #[schema(minimum = 1, maximum = 12)]
    pub months: i32,
    /// `wallet` or `card`.
    pub pay_with: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PayResponse {
    pub transaction: Transaction,
    pub stored_account: StoredAccount,
}

impl From<payments::PayResponse> for PayResponse {
    fn from(paid: payments::PayResponse) -> Self {
        Self {
            transaction: paid.transaction.unwrap_or_default().into(),
            stored_account: paid.stored_account.unwrap_or_default().into(),
        }
    }
}

/// An organization folder's storage is its owner's: participants reach it but do not pay for it.
pub const OWNER_PAYS_MESSAGE: &str =
    "Only the organization's owner can extend this folder's storage date.";

/// The folder as the caller owns it (a participant's view of an organization folder is 403).
async fn folder_snapshot(
    state: &AppState,
    caller: &Caller,
    folder_id: String,
) -> ApiResult<payments::FolderSnapshot> {
    let folder = state
        .evidence()
        .get_folder(caller.request(evidence::GetFolderRequest { folder_id }))
        .await
        .answer()?;
    if !folder.owned_by_caller {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            OWNER_PAYS_MESSAGE,
        ));
    }
    Ok(payments::FolderSnapshot {
        folder_id: folder.id,
        used_bytes: folder.used_bytes,
        storage_expires_at: folder.storage_expires_at,
    })
}

/// Pays a purchase (a storage extension): from the wallet first, moving money from the wallet card
/// when the balance is short, or by the default card. 402 when a needed card charge is declined.
#[utoipa::path(post, path = "/api/payments/stored-account/pay/", tag = "payments", security(("bearer" = [])),
    params(("Idempotency-Key" = String, Header)), request_body = PayRequest,
    responses((status = 200, body = PayResponse), (status = 400, body = ErrorBody), (status = 402, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn pay(
    State(state): State<AppState>,
    User(caller): User,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(body): ApiJson<PayRequest>,
) -> ApiResult<Json<PayResponse>> {
    let folder = folder_snapshot(&state, &caller, body.folder_id).await?;
    state
        .payments()
        .pay(caller.request(payments::PayRequest {
            kind: body.kind,
            folder: Some(folder),
            months: body.months,
            pay_with: body.pay_with,
            idempotency_key: key,
            share: None,
        }))
        .await
        .reply()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CardSummary {
    pub brand: String,
    pub last4: String,
}

/// One money movement (the transaction-info list).
#[derive(Debug, Serialize, ToSchema)]
pub struct MoneyMovement {
    pub id: String,
    /// `wallet_created`, `top_up`, `auto_top_up`, `transfer` (from the card for a purchase),
    /// `promo`, `purchase`, `refund`, `authorisation`, `referral` (a referral reward) or
    /// `referral_reversal` (a reward taken back when the first payment was refunded).
    pub kind: String,
    /// `completed`, or `declined` (the card refused it; nothing moved).
    pub status: String,
    /// Cents: into the wallet positive, paid out negative; a declined charge carries what it would
    /// have moved.
    pub amount: i64,
    pub created_at: String,
    pub description: String,
    /// The card charged or declined; null when the wallet paid or was credited without a card.
    pub card: Option<CardSummary>,
    /// The purchase to open (`payments/transactions/{id}/`) for a purchase or its refund.
    pub transaction_id: Option<String>,
    /// What the card's bank said, for a declined charge.
    pub decline_message: Option<String>,
}

impl From<payments::MoneyMovement> for MoneyMovement {
    fn from(m: payments::MoneyMovement) -> Self {
        Self {
            id: m.id,
            kind: m.kind,
            status: m.status,
            amount: m.amount,
            created_at: rfc3339(m.created_at).unwrap_or_default(),
            description: m.description,
            card: m.card.map(|c| CardSummary {
                brand: c.brand,
                last4: c.last4,
            }),
            transaction_id: m.transaction_id,
            decline_message: m.decline_message,
        }
    }
}

lists! {
Transactions from payments::Transactions {
    /// The purchases, newest first.
    transactions: Transaction,
    /// Every money movement, newest first (at most 200): wallet creation, top-ups, auto top-ups,
    /// transfers, promo credits, purchases, refunds, the first authorisation, declined charges.
    movements: MoneyMovement,
}
}

forward! {
/// The user's purchases and every money movement, newest first.
#[utoipa::path(get, path = "/api/payments/transactions/", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = Transactions), (status = 401, body = ErrorBody)))]
fn list_transactions() -> Transactions =
    payments.list_transactions(payments::ListTransactionsRequest {});
}

forward! {
/// One purchase (the transaction-info screen).
#[utoipa::path(get, path = "/api/payments/transactions/{id}/", tag = "payments", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = Transaction), (status = 404, body = ErrorBody)))]
fn get_transaction(path: String) -> Transaction =
    payments.get_transaction(|id| payments::GetTransactionRequest { id });
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StoragePricing {
    pub month_price: i64,
    pub included_gb: i64,
    pub extra_gb_month_price: i64,
    pub months_options: Vec<i32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SharingPricing {
    pub authenticated: i64,
    pub unauthenticated: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Pricing {
    pub storage: StoragePricing,
    pub sharing: SharingPricing,
    pub service_fee_percent: f64,
    pub wallet_service_fee_saving_percent: f64,
    pub card_processing_percent: f64,
    pub card_processing_fixed: i64,
    pub first_authorisation: i64,
    pub auto_top_up_threshold: i64,
    pub top_up_min: i64,
    pub top_up_max: i64,
    pub top_up_presets: Vec<i64>,
}

impl From<payments::Pricing> for Pricing {
    fn from(p: payments::Pricing) -> Self {
        let percent = |bps: i64| bps as f64 / 100.0;
        Self {
            storage: StoragePricing {
                month_price: p.storage_month_price,
                included_gb: p.storage_included_gb,
                extra_gb_month_price: p.storage_extra_gb_month_price,
                months_options: p.storage_months_options,
            },
            sharing: SharingPricing {
                authenticated: p.sharing_authenticated,
                unauthenticated: p.sharing_unauthenticated,
            },
            service_fee_percent: percent(p.service_fee_bps),
            wallet_service_fee_saving_percent: percent(p.wallet_service_fee_saving_bps),
            card_processing_percent: percent(p.card_processing_bps),
            card_processing_fixed: p.card_processing_fixed,
            first_authorisation: p.first_authorisation,
            auto_top_up_threshold: p.auto_top_up_threshold,
            top_up_min: p.top_up_min,
            top_up_max: p.top_up_max,
            top_up_presets: p.top_up_presets,
        }
    }
}

forward! {
/// The pricing configuration the price screens explain.
#[utoipa::path(get, path = "/api/payments/pricing/", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = Pricing), (status = 401, body = ErrorBody)))]
fn pricing() -> Pricing = payments.get_pricing(payments::GetPricingRequest {});
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StoragePriceRequest {
    /// A folder of the user's (its size and storage date), or
    pub folder_id: Option<String>,
    /// a size alone (the cost estimator): 0 to 10,000 GB in bytes.
    #[schema(minimum = 0, maximum = 10000000000000.0)]
    pub size_bytes: Option<i64>,
    /// One of the pricing's storage periods (1, 3, 6 or 12).
    #[schema(minimum = 1, maximum = 12)]
    pub months: i32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StoragePrice {
    #[serde(flatten)]
    pub breakdown: Breakdown,
    pub current_storage_date: Option<String>,
    pub new_storage_date: Option<String>,
}

/// The price of extending a folder's storage date (or of storing a size) by some months.
#[utoipa::path(post, path = "/api/payments/storage-price-prolong/calculate/", tag = "payments", security(("bearer" = [])),
    request_body = StoragePriceRequest,
    responses((status = 200, body = StoragePrice), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn storage_price(
    State(state): State<AppState>,
    User(caller): User,
    ApiJson(body): ApiJson<StoragePriceRequest>,
) -> ApiResult<Json<StoragePrice>> {
    let folder = match body.folder_id {
        Some(id) => Some(folder_snapshot(&state, &caller, id).await?),
        None => None,
    };
    let price = state
        .payments()
        .calculate_storage_price(caller.request(payments::CalculateStoragePriceRequest {
            folder,
            size_bytes: body.size_bytes.unwrap_or(0),
            months: body.months,
        }))
        .await
        .answer()?;
    Ok(Json(StoragePrice {
        breakdown: price.breakdown.unwrap_or_default().into(),
        current_storage_date: rfc3339(price.current_storage_date),
        new_storage_date: rfc3339(price.new_storage_date),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SharingPriceRequest {
    /// `authenticated` or `unauthenticated`.
    pub copy_type: String,
    /// 1 to 100.
    #[schema(minimum = 1, maximum = 100)]
    pub recipients: i32,
}

impl From<SharingPriceRequest> for payments::CalculateSharingPriceRequest {
    fn from(body: SharingPriceRequest) -> Self {
        Self {
            copy_type: body.copy_type,
            recipients: body.recipients,
        }
    }
}

forward! {
/// The price of sharing copies.
#[utoipa::path(post, path = "/api/payments/sharing-price/calculate/", tag = "payments", security(("bearer" = [])),
    request_body = SharingPriceRequest,
    responses((status = 200, body = Breakdown), (status = 400, body = ErrorBody)))]
fn sharing_price(body: SharingPriceRequest) -> Breakdown = payments.calculate_sharing_price;
}

/// Stripe's webhook deliveries (signed with the endpoint secret; processed once by event id).
#[utoipa::path(post, path = "/api/payments/stripe/webhook/", tag = "payments",
    request_body(content = String, description = "A Stripe event, as Stripe signed it", content_type = "application/json"),
    params(("Stripe-Signature" = String, Header)),
    responses((status = 200), (status = 403, body = ErrorBody)))]
async fn stripe_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<StatusCode> {
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ApiError::bad_request("The Stripe-Signature header is missing."))?
        .to_owned();
    state
        .payments()
        .handle_stripe_webhook(tonic::Request::new(payments::StripeWebhookRequest {
            payload: body.to_vec(),
            signature,
        }))
        .await?;
    Ok(StatusCode::OK)
}
