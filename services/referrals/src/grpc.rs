//! The gRPC edge of referrals: converts proto messages to domain values, calls one use-case, and
//! converts its answer back.

use evidentia_common::{grpc::user_of, idempotency};
use evidentia_proto::referrals::v1::{
    self as pb, referrals_service_server::ReferralsService as ReferralsRpc,
};
use tonic::{Request, Response, Status};

use crate::{
    app::{promo, referral_codes},
    domain::{PromoCodeText, ReferralCode},
    error::ReferralsError,
    state::ReferralsState,
};

pub struct ReferralsApi {
    pub state: ReferralsState,
}

impl From<ReferralCode> for pb::ReferralInfo {
    fn from(code: ReferralCode) -> Self {
        Self {
            code: code.code,
            r#type: code.kind,
        }
    }
}

#[tonic::async_trait]
impl ReferralsRpc for ReferralsApi {
    async fn get_referral_info(
        &self,
        request: Request<pb::GetReferralInfoRequest>,
    ) -> Result<Response<pb::ReferralInfo>, Status> {
        let user_id = user_of(&request)?;
        let mut tx = self
            .state
            .pool
            .begin()
            .await
            .map_err(ReferralsError::from)?;
        // The code normally exists since AccountCreated; a caller faster than the event gets it now.
        let code = referral_codes::ensure(&mut tx, user_id).await?;
        tx.commit().await.map_err(ReferralsError::from)?;
        Ok(Response::new(code.into()))
    }

    async fn apply_promo_code(
        &self,
        request: Request<pb::ApplyPromoCodeRequest>,
    ) -> Result<Response<pb::PromoCodeCredit>, Status> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let key = idempotency::parse_key(&req.idempotency_key).map_err(ReferralsError::from)?;
        let code = PromoCodeText::parse(&req.code)?;
        let amount = promo::apply(&self.state.pool, user_id, &code, key).await?;
        Ok(Response::new(pb::PromoCodeCredit { amount }))
    }
}
