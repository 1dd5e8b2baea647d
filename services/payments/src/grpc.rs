//! The gRPC surface of payments: converts proto messages to domain values and back, nothing else.

use std::sync::Arc;

use evidentia_common::grpc::Caller;
use evidentia_proto::payments::v1::{
    self as pb, payments_service_server::PaymentsService as PaymentsRpc,
};
use sqlx::PgPool;
use tonic::{Request, Response, Status};

use crate::{customers, error::PaymentsError, stripe::Stripe};

pub struct PaymentsApi {
    pub pool: PgPool,
    pub stripe: Arc<dyn Stripe>,
}

#[tonic::async_trait]
impl PaymentsRpc for PaymentsApi {
    async fn get_payment_profile(
        &self,
        request: Request<pb::GetPaymentProfileRequest>,
    ) -> Result<Response<pb::PaymentProfile>, Status> {
        let user_id = Caller::from_metadata(request.metadata()).require_user()?;
        let mut conn = self.pool.acquire().await.map_err(PaymentsError::from)?;
        let profile = customers::profile(&mut conn, user_id).await?;
        Ok(Response::new(pb::PaymentProfile {
            stripe_customer_id: profile.stripe_customer_id,
            default_payment_method: profile.default_payment_method,
            auto_topping_up_amount: profile.auto_topping_up_amount,
            credit_card_wallet_balance: profile.credit_card_wallet_balance,
            one_time_benefit_applied: profile.one_time_benefit_applied,
        }))
    }

    async fn ensure_stripe_customer(
        &self,
        request: Request<pb::EnsureStripeCustomerRequest>,
    ) -> Result<Response<pb::EnsureStripeCustomerResponse>, Status> {
        let user_id = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
        let mut tx = self.pool.begin().await.map_err(PaymentsError::from)?;
        let id = customers::ensure(
            &mut tx,
            self.stripe.as_ref(),
            user_id,
            &req.email,
            &req.name,
        )
        .await?;
        tx.commit().await.map_err(PaymentsError::from)?;
        Ok(Response::new(pb::EnsureStripeCustomerResponse {
            stripe_customer_id: id,
        }))
    }
}
