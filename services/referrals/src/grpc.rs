//! The gRPC surface of referrals: converts proto messages to domain values and back, nothing else.

use evidentia_common::{
    errors::{internal, invalid_fields},
    grpc::Caller,
};
use evidentia_proto::referrals::v1::{
    self as pb, referrals_service_server::ReferralsService as ReferralsRpc,
};
use sqlx::PgPool;
use tonic::{Request, Response, Status};

use crate::{codes, promo};

pub struct ReferralsApi {
    pub pool: PgPool,
}

#[tonic::async_trait]
impl ReferralsRpc for ReferralsApi {
    async fn get_referral_info(
        &self,
        request: Request<pb::GetReferralInfoRequest>,
    ) -> Result<Response<pb::ReferralInfo>, Status> {
        let user_id = Caller::from_metadata(request.metadata()).require_user()?;
        let mut tx = self.pool.begin().await.map_err(|e| internal(&e.into()))?;
        // The code normally exists since AccountCreated; a caller faster than the event gets it now.
        let code = codes::ensure(&mut tx, user_id)
            .await
            .map_err(|e| internal(&e.into()))?;
        tx.commit().await.map_err(|e| internal(&e.into()))?;
        Ok(Response::new(pb::ReferralInfo {
            code: code.code,
            r#type: code.r#type,
        }))
    }

    async fn apply_promo_code(
        &self,
        request: Request<pb::ApplyPromoCodeRequest>,
    ) -> Result<Response<pb::PromoCodeCredit>, Status> {
        let user_id = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
        if req.idempotency_key.is_empty() || req.idempotency_key.len() > 255 {
            return Err(invalid_fields(&[
                evidentia_common::errors::FieldError::new(
                    "idempotency_key",
                    "An Idempotency-Key header (1 to 255 visible characters) is required.",
                ),
            ]));
        }
        match promo::apply(&self.pool, user_id, &req.code, &req.idempotency_key).await {
            Ok(amount) => Ok(Response::new(pb::PromoCodeCredit { amount })),
            Err(promo::PromoError::Invalid(err)) => Err(invalid_fields(&[err])),
            Err(promo::PromoError::Internal(err)) => Err(internal(&err)),
        }
    }
}
