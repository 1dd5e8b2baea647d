//! `payments/...` (spec §7 "Payments").

use axum::{Json, extract::State};
use evidentia_proto::{accounts::v1 as accounts, payments::v1 as payments};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::AppState;
use crate::{
    auth::User,
    error::{ApiResult, ErrorBody},
};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create_stripe_customer))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StripeCustomer {
    pub stripe_customer_id: String,
}

/// The user's Stripe customer: the one made when the account was created, or a new one if that
/// has not happened yet. Idempotent.
#[utoipa::path(post, path = "/api/payments/stripe-customer/create/", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = StripeCustomer), (status = 401, body = ErrorBody)))]
async fn create_stripe_customer(
    State(state): State<AppState>,
    User(caller): User,
) -> ApiResult<Json<StripeCustomer>> {
    let profile = state
        .clients
        .accounts
        .clone()
        .get_profile(caller.request(accounts::GetProfileRequest {}))
        .await?
        .into_inner();
    let name = format!("{} {}", profile.first_name, profile.last_name);
    let customer = state
        .clients
        .payments
        .clone()
        .ensure_stripe_customer(caller.request(payments::EnsureStripeCustomerRequest {
            email: profile.email,
            name: name.trim().to_owned(),
        }))
        .await?
        .into_inner();
    Ok(Json(StripeCustomer {
        stripe_customer_id: customer.stripe_customer_id,
    }))
}
