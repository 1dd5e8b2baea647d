//! The gRPC surface of referrals: converts proto messages to domain values and back, nothing else.

use evidentia_common::{grpc::user_of, idempotency};
use evidentia_proto::referrals::v1::{
    self as pb, referrals_service_server::ReferralsService as ReferralsRpc,
};
use sqlx::PgPool;
use tonic::{Request, Response, Status};

use crate::{codes, error::ReferralsError, promo};

pub struct ReferralsApi {
    pub pool: PgPool,
}

#[tonic::async_trait]
impl ReferralsRpc for ReferralsApi {
    async fn get_referral_info(
        &self,
        request: Request<pb::GetReferralInfoRequest>,
    ) -> Result<Response<pb::ReferralInfo>, Status> {
        let user_id = user_of(&request)?;
        let mut tx = self.pool.begin().await.map_err(ReferralsError::from)?;
        // The code normally exists since AccountCreated; a caller faster than the event gets it now.
        let code = codes::ensure(&mut tx, user_id)
            .await
            .map_err(ReferralsError::from)?;
        tx.commit().await.map_err(ReferralsError::from)?;
        Ok(Response::new(pb::ReferralInfo {
            code: code.code,
            r#type: code.r#type,
        }))
    }

    async fn apply_promo_code(
        &self,
        request: Request<pb::ApplyPromoCodeRequest>,
    ) -> Result<Response<pb::PromoCodeCredit>, Status> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let key = idempotency::parse_key(&req.idempotency_key).map_err(ReferralsError::from)?;
        let amount = promo::apply(&self.pool, user_id, &req.code, key).await?;
        Ok(Response::new(pb::PromoCodeCredit { amount }))
    }
}
