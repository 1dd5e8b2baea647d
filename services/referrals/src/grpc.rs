//! The gRPC edge of referrals: converts proto messages to domain values, calls one use-case, and
//! converts its answer back.

use evidentia_common::{
    grpc::{caller_of, user_of},
    idempotency,
    time::timestamp,
};
use evidentia_proto::referrals::v1::{
    self as pb, referrals_service_server::ReferralsService as ReferralsRpc,
};
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    app::{
        invitations::{self, Deps, Invitation},
        promo,
        referral_codes::{self, Info},
    },
    domain::{INDIVIDUAL, Invitee, PromoCodeText, Sorting, parse_invitee},
    error::ReferralsError,
    state::ReferralsState,
};

type Reply<T> = Result<Response<T>, Status>;

pub struct ReferralsApi {
    pub state: ReferralsState,
}

impl ReferralsApi {
    fn deps(&self) -> Deps<'_> {
        Deps {
            pool: &self.state.pool,
            mailer: &self.state.mailer,
            sms: &self.state.sms,
            limits: &self.state.limits,
            public_base_url: &self.state.public_base_url,
        }
    }
}

impl From<Info> for pb::ReferralInfo {
    fn from(info: Info) -> Self {
        Self {
            code: info.code.code,
            r#type: info.code.kind,
            invited: info.invited,
            signed_up: info.tally.signed_up,
            rewarded: info.tally.rewarded,
            earned: info.tally.earned,
            link: info.link,
        }
    }
}

impl From<Invitation> for pb::Invitation {
    fn from(i: Invitation) -> Self {
        Self {
            id: i.id.to_string(),
            channel: i.channel,
            sent_to: i.sent_to,
            name: i.name,
            status: i.status,
            created_at: Some(timestamp(i.created_at)),
            last_sent_at: Some(timestamp(i.last_sent_at)),
            sends: i.sends,
            resend_after: i.resend_after.map(timestamp),
            sends_left: i.sends_left,
        }
    }
}

/// The invitation's addressee, from whichever of its e-mail address and phone number is given.
fn invitee(req: &pb::CreateInvitationRequest) -> Result<Invitee, ReferralsError> {
    parse_invitee(
        &req.email,
        req.phone_number
            .as_ref()
            .map(|p| (p.country_code.as_str(), p.national_number.as_str())),
    )
}

/// An invitation's id; a malformed one names no invitation of the caller's.
fn invitation_id(value: &str) -> Result<Uuid, ReferralsError> {
    Uuid::parse_str(value).map_err(|_| ReferralsError::NotFound)
}

fn reply<T>(value: impl Into<T>) -> Reply<T> {
    Ok(Response::new(value.into()))
}

#[tonic::async_trait]
impl ReferralsRpc for ReferralsApi {
    async fn get_referral_info(
        &self,
        request: Request<pb::GetReferralInfoRequest>,
    ) -> Reply<pb::ReferralInfo> {
        let user_id = user_of(&request)?;
        let info =
            referral_codes::info(&self.state.pool, &self.state.public_base_url, user_id).await?;
        reply(info)
    }

    async fn apply_promo_code(
        &self,
        request: Request<pb::ApplyPromoCodeRequest>,
    ) -> Reply<pb::PromoCodeCredit> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let key = idempotency::parse_key(&req.idempotency_key).map_err(ReferralsError::from)?;
        let code = PromoCodeText::parse(&req.code)?;
        let amount = promo::apply(&self.state.pool, user_id, &code, key).await?;
        Ok(Response::new(pb::PromoCodeCredit { amount }))
    }

    async fn check_referral_code(
        &self,
        request: Request<pb::CheckReferralCodeRequest>,
    ) -> Reply<pb::ReferralCodeCheck> {
        let client_ip = caller_of(&request).client_ip.unwrap_or_default();
        let owner = referral_codes::check(
            &self.state.pool,
            &self.state.redis,
            self.state.limits.checks_per_client,
            &request.get_ref().code,
            &client_ip,
        )
        .await?;
        Ok(Response::new(pb::ReferralCodeCheck {
            valid: owner.is_some(),
            first_name: owner.unwrap_or_default(),
        }))
    }

    async fn list_invitations(
        &self,
        request: Request<pb::ListInvitationsRequest>,
    ) -> Reply<pb::Invitations> {
        let user_id = user_of(&request)?;
        let sorting = Sorting::parse(&request.get_ref().sorting).map_err(ReferralsError::from)?;
        let found =
            invitations::list(&self.state.pool, &self.state.limits, user_id, sorting).await?;
        Ok(Response::new(pb::Invitations {
            invitations: found.into_iter().map(Into::into).collect(),
        }))
    }

    async fn create_invitation(
        &self,
        request: Request<pb::CreateInvitationRequest>,
    ) -> Reply<pb::Invitation> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let kind = req.r#type.trim();
        if !(kind.is_empty() || kind == INDIVIDUAL) {
            return Err(ReferralsError::invalid("type", "Unknown type of code.").into());
        }
        let invitee = invitee(&req)?;
        let name = evidentia_common::contact::optional_name("name", &req.name)
            .map_err(ReferralsError::from)?;
        reply(invitations::create(&self.deps(), user_id, &invitee, &name).await?)
    }

    async fn resend_invitation(
        &self,
        request: Request<pb::InvitationRef>,
    ) -> Reply<pb::Invitation> {
        let user_id = user_of(&request)?;
        let id = invitation_id(&request.get_ref().id)?;
        reply(invitations::resend(&self.deps(), user_id, id).await?)
    }

    async fn delete_invitation(
        &self,
        request: Request<pb::InvitationRef>,
    ) -> Reply<pb::DeleteInvitationResponse> {
        let user_id = user_of(&request)?;
        let id = invitation_id(&request.get_ref().id)?;
        invitations::delete(&self.state.pool, user_id, id).await?;
        Ok(Response::new(pb::DeleteInvitationResponse {}))
    }
}
