//! The gRPC edge of accounts: proto in, domain values to the use-cases, domain results back to
//! proto. Nothing else happens here.

use evidentia_common::{
    errors::FieldError,
    grpc::{Caller, caller_of, user_of},
    time::timestamp,
};
use evidentia_proto::accounts::v1::{
    self as pb, accounts_service_server::AccountsService as AccountsRpc,
};
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    app::{
        codes,
        contact_change::{self, Change, NewContact},
        deletion::{self, Deletion},
        history,
        invites::{self, InviteSettings},
        organizations,
        passwords::{Attempt, SignIn},
        profile::{self, Profile},
        recovery::{self, Options, Proof},
        sender::Sender,
        sessions::{self, TokenPair},
        sign_in,
        sign_up::{self, Availability},
        support::{self, Support},
    },
    domain::{
        self, Address, Channel, Email, Fields, NewAccount, Password, PhoneNumber, Purpose, Seen,
        Username,
        deletion::{DeleteReason, reasons},
        history::Query,
        organizations::{INVITE_NOT_FOUND, Invitee, NewInvite, PARTICIPANT_NOT_FOUND, invite_role},
        support::ContactMessage,
    },
    error::AccountsError,
    outbound::Messengers,
    state::AppState,
    store::{
        action_logs::Entry,
        invites::{CodedInvite, Invite},
        organizations::{Membership, Participant},
    },
};

pub struct AccountsApi {
    state: AppState,
}

type Reply<T> = Result<Response<T>, Status>;

impl AccountsApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    async fn conn(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Postgres>, AccountsError> {
        Ok(self.state.pool.acquire().await?)
    }

    fn sign_in(&self) -> SignIn<'_> {
        SignIn {
            pool: &self.state.pool,
            redis: &self.state.redis,
            limits: &self.state.config.limits,
            sessions: &self.state.config.sessions,
        }
    }

    fn sender(&self) -> Sender<'_> {
        Sender {
            redis: &self.state.redis,
            limits: &self.state.config.limits,
            messengers: Messengers {
                mailer: self.state.mailer.as_ref(),
                sms: self.state.sms.as_ref(),
            },
        }
    }
}

impl From<&Caller> for Seen {
    fn from(caller: &Caller) -> Self {
        Self {
            ip: caller.client_ip.clone().unwrap_or_default(),
            user_agent: caller.user_agent.clone().unwrap_or_default(),
        }
    }
}

fn purpose(value: i32) -> Result<Purpose, AccountsError> {
    match pb::CodePurpose::try_from(value) {
        Ok(pb::CodePurpose::SignUp) => Ok(Purpose::SignUp),
        Ok(pb::CodePurpose::PasswordReset) => Ok(Purpose::PasswordReset),
        _ => Err(AccountsError::field("purpose", "Unknown purpose.")),
    }
}

fn channel(value: i32) -> Option<Channel> {
    match pb::Channel::try_from(value) {
        Ok(pb::Channel::Email) => Some(Channel::Email),
        Ok(pb::Channel::Sms) => Some(Channel::Sms),
        _ => None,
    }
}

fn invalid(error: FieldError) -> AccountsError {
    AccountsError::Invalid(vec![error])
}

/// An id from a path: one that is not a UUID names nothing, so it is not found.
fn id(value: &str, not_found: &'static str) -> Result<Uuid, AccountsError> {
    Uuid::parse_str(value).map_err(|_| AccountsError::NotFound(not_found))
}

/// The signed-in caller and where the request came from.
fn signed<T>(request: &Request<T>) -> Result<(Uuid, Seen), Status> {
    let caller = caller_of(request);
    let user_id = caller.require_user()?;
    Ok((user_id, Seen::from(&caller)))
}

fn seen<T>(request: &Request<T>) -> Seen {
    Seen::from(&caller_of(request))
}

fn done() -> Response<pb::Done> {
    Response::new(pb::Done {})
}

fn reply<T, R: From<T>>(value: T) -> Reply<R> {
    Ok(Response::new(R::from(value)))
}

/// The validated fields of a new account, shared by sign-up and joining an organization.
#[allow(
    clippy::too_many_arguments,
    reason = "the same fields come from two different request messages"
)]
fn new_account(
    fields: &mut Fields,
    username: &str,
    email: &str,
    phone_number: Option<&pb::PhoneNumber>,
    password: &str,
    first_name: &str,
    last_name: &str,
    verification_token: String,
) -> Option<NewAccount> {
    let username = fields.check(Username::parse("username", username));
    let email = fields.check(Email::parse("email", email));
    let phone = phone(fields, phone_number);
    let password = fields.check(Password::parse("password", password));
    let first_name = fields.check(domain::optional_name("first_name", first_name));
    let last_name = fields.check(domain::optional_name("last_name", last_name));
    Some(NewAccount {
        username: username?,
        email: email?,
        phone: phone?,
        password: password?,
        first_name: first_name?,
        last_name: last_name?,
        verification_token,
        referral_code: String::new(),
    })
}

fn phone(fields: &mut Fields, value: Option<&pb::PhoneNumber>) -> Option<PhoneNumber> {
    let value = value.cloned().unwrap_or_default();
    fields.check(PhoneNumber::parse(
        "phone_number",
        &value.country_code,
        &value.national_number,
    ))
}

/// A phone number that must be there and valid.
fn required_phone(value: Option<&pb::PhoneNumber>) -> Result<PhoneNumber, AccountsError> {
    let mut fields = Fields::default();
    let phone = phone(&mut fields, value);
    fields.finish().map_err(AccountsError::Invalid)?;
    phone.ok_or_else(|| AccountsError::Internal(anyhow::anyhow!("validated phone missing")))
}

#[tonic::async_trait]
impl AccountsRpc for AccountsApi {
    async fn check_availability(
        &self,
        request: Request<pb::CheckAvailabilityRequest>,
    ) -> Reply<pb::CheckAvailabilityResponse> {
        let req = request.into_inner();
        let mut fields = Fields::default();
        let email = req
            .email
            .as_deref()
            .and_then(|v| fields.check(Email::parse("email", v)));
        let username = req
            .username
            .as_deref()
            .and_then(|v| fields.check(Username::parse("username", v)));
        let phone = req
            .phone_number
            .as_ref()
            .and_then(|p| phone(&mut fields, Some(p)));
        fields.finish().map_err(AccountsError::Invalid)?;
        let mut conn = self.conn().await?;
        let found =
            sign_up::availability(&mut conn, email.as_ref(), username.as_ref(), phone.as_ref())
                .await?;
        reply(found)
    }

    async fn send_confirmation_code(
        &self,
        request: Request<pb::SendConfirmationCodeRequest>,
    ) -> Reply<pb::SendConfirmationCodeResponse> {
        let seen = seen(&request);
        let req = request.into_inner();
        let pool = &self.state.pool;
        let (expires_in_seconds, sent_to) = match purpose(req.purpose)? {
            Purpose::PasswordReset => {
                if req.username.trim().is_empty() {
                    return Err(AccountsError::field("username", domain::REQUIRED).into());
                }
                let channel = channel(req.channel);
                recovery::send_reset_code(pool, &self.sender(), &req.username, channel, &seen)
                    .await?
            }
            _ => {
                let email = Email::parse("email", &req.email).map_err(invalid)?;
                let to = domain::Destination::email(email.as_str());
                let subject = email.as_str();
                let ttl = codes::send(
                    pool,
                    &self.sender(),
                    subject,
                    Purpose::SignUp,
                    &to,
                    &seen.ip,
                )
                .await?;
                (ttl, to.masked)
            }
        };
        Ok(Response::new(pb::SendConfirmationCodeResponse {
            expires_in_seconds,
            sent_to,
        }))
    }

    async fn verify_confirmation_code(
        &self,
        request: Request<pb::VerifyConfirmationCodeRequest>,
    ) -> Reply<pb::VerifyConfirmationCodeResponse> {
        let req = request.into_inner();
        let (pool, limits) = (&self.state.pool, &self.state.config.limits);
        let verification_token = match purpose(req.purpose)? {
            Purpose::PasswordReset => {
                if req.username.trim().is_empty() {
                    return Err(AccountsError::field("username", domain::REQUIRED).into());
                }
                recovery::verify_reset_code(pool, limits, &req.username, &req.code).await?
            }
            _ => {
                let email = Email::parse("email", &req.email).map_err(invalid)?;
                codes::verify(pool, limits, email.as_str(), &req.code, Purpose::SignUp).await?
            }
        };
        Ok(Response::new(pb::VerifyConfirmationCodeResponse {
            verification_token,
        }))
    }

    async fn create_account(
        &self,
        request: Request<pb::CreateAccountRequest>,
    ) -> Reply<pb::TokenPair> {
        let seen = seen(&request);
        let req = request.into_inner();
        let mut fields = Fields::default();
        let account = new_account(
            &mut fields,
            &req.username,
            &req.email,
            req.phone_number.as_ref(),
            &req.password,
            &req.first_name,
            &req.last_name,
            req.verification_token.clone(),
        );
        if req.verification_token.is_empty() {
            fields.check::<()>(Err(FieldError::new("verification_token", domain::REQUIRED)));
        }
        let organization_name = if req.organization_name.trim().is_empty() {
            None
        } else {
            fields.check(domain::short_text(
                "organization_name",
                &req.organization_name,
            ))
        };
        let referral_code =
            fields.check(domain::referral_code("referral_code", &req.referral_code));
        fields.finish().map_err(AccountsError::Invalid)?;
        let mut account = account.ok_or_else(|| Status::internal("validated fields missing"))?;
        account.referral_code = referral_code.unwrap_or_default();
        let config = &self.state.config;
        let tokens = sign_up::create(
            &self.state.pool,
            &config.sessions,
            account,
            organization_name,
            &seen,
        )
        .await?;
        reply(tokens)
    }

    async fn login(&self, request: Request<pb::LoginRequest>) -> Reply<pb::TokenPair> {
        let seen = seen(&request);
        let req = request.into_inner();
        let attempt = Attempt {
            login: &req.username,
            password: &req.password,
            seen: &seen,
        };
        reply(sign_in::login(&self.sign_in(), attempt).await?)
    }

    async fn refresh_token(
        &self,
        request: Request<pb::RefreshTokenRequest>,
    ) -> Reply<pb::TokenPair> {
        let req = request.into_inner();
        if req.refresh.is_empty() {
            return Err(AccountsError::field("refresh", domain::REQUIRED).into());
        }
        let settings = &self.state.config.sessions;
        let tokens =
            sessions::refresh(&self.state.pool, settings, &self.state.redis, &req.refresh).await?;
        reply(tokens)
    }

    async fn logout(&self, request: Request<pb::LogoutRequest>) -> Reply<pb::LogoutResponse> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let mut conn = self.conn().await?;
        let settings = &self.state.config.sessions;
        sessions::end(
            &mut conn,
            settings,
            &self.state.redis,
            user_id,
            &req.refresh,
        )
        .await?;
        Ok(Response::new(pb::LogoutResponse {}))
    }

    async fn get_profile(&self, request: Request<pb::GetProfileRequest>) -> Reply<pb::Profile> {
        let user_id = user_of(&request)?;
        let mut conn = self.conn().await?;
        reply(profile::get(&mut conn, user_id).await?)
    }

    async fn send_contact_message(
        &self,
        request: Request<pb::ContactMessage>,
    ) -> Reply<pb::ContactMessageResponse> {
        let caller = caller_of(&request);
        let req = request.into_inner();
        let message = ContactMessage::parse(&req.name, &req.email, &req.subject, &req.message)
            .map_err(AccountsError::Invalid)?;
        let config = &self.state.config;
        let to = Support {
            email: &config.support_email,
            messages_per_hour: config.limits.contact_messages_per_hour,
        };
        let client_ip = caller.client_ip.as_deref();
        support::send(
            &self.state.redis,
            self.state.mailer.as_ref(),
            to,
            &message,
            client_ip,
        )
        .await?;
        Ok(Response::new(pb::ContactMessageResponse {}))
    }

    async fn is_phone_registered(
        &self,
        request: Request<pb::PhoneVerifyRequest>,
    ) -> Reply<pb::PhoneVerifyResponse> {
        let req = request.into_inner();
        let phone = required_phone(req.phone_number.as_ref())?;
        let mut conn = self.conn().await?;
        let registered = recovery::phone_registered(&mut conn, &phone).await?;
        Ok(Response::new(pb::PhoneVerifyResponse { registered }))
    }

    async fn get_recovery_options(
        &self,
        request: Request<pb::RecoveryOptionsRequest>,
    ) -> Reply<pb::RecoveryOptions> {
        let req = request.into_inner();
        let mut conn = self.conn().await?;
        reply(recovery::options(&mut conn, &req.username).await?)
    }

    async fn send_username_by_email(
        &self,
        request: Request<pb::UsernameByEmailRequest>,
    ) -> Reply<pb::SentTo> {
        let seen = seen(&request);
        let req = request.into_inner();
        let email = Email::parse("email", &req.email).map_err(invalid)?;
        let sent_to =
            recovery::username_by_email(&self.state.pool, &self.sender(), &email, &seen).await?;
        Ok(Response::new(pb::SentTo { sent_to }))
    }

    async fn send_username_by_phone(
        &self,
        request: Request<pb::UsernameByPhoneRequest>,
    ) -> Reply<pb::SentTo> {
        let seen = seen(&request);
        let req = request.into_inner();
        let phone = required_phone(req.phone_number.as_ref())?;
        let sent_to =
            recovery::username_by_phone(&self.state.pool, &self.sender(), &phone, &seen).await?;
        Ok(Response::new(pb::SentTo { sent_to }))
    }

    async fn reset_password(
        &self,
        request: Request<pb::ResetPasswordRequest>,
    ) -> Reply<pb::TokenPair> {
        let caller = caller_of(&request);
        let seen = Seen::from(&caller);
        let req = request.into_inner();
        let mut fields = Fields::default();
        let password = fields.check(Password::parse("new_password", &req.new_password));
        let proof = match caller.user_id {
            Some(user_id) if !req.password_token.is_empty() => Some(Proof::Signed {
                user_id,
                password_token: &req.password_token,
            }),
            _ if !req.verification_token.is_empty() && !req.username.trim().is_empty() => {
                Some(Proof::Recovery {
                    login: &req.username,
                    verification_token: &req.verification_token,
                })
            }
            Some(_) => {
                fields.check::<()>(Err(FieldError::new(
                    "password_token",
                    "Please confirm your password again.",
                )));
                None
            }
            None => {
                fields.check::<()>(Err(FieldError::new(
                    "verification_token",
                    "Please request a new code.",
                )));
                None
            }
        };
        fields.finish().map_err(AccountsError::Invalid)?;
        let (Some(password), Some(proof)) = (password, proof) else {
            return Err(Status::internal("validated fields missing"));
        };
        let tokens = recovery::reset_password(
            &self.state.pool,
            &self.state.redis,
            &self.state.config.sessions,
            proof,
            password,
            &seen,
        )
        .await?;
        reply(tokens)
    }

    async fn verify_password(
        &self,
        request: Request<pb::VerifyPasswordRequest>,
    ) -> Reply<pb::PasswordToken> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let config = &self.state.config;
        let ttl = config.password_token_ttl_seconds;
        let password_token = profile::verify_password(
            &self.state.pool,
            &self.state.redis,
            &config.limits,
            ttl,
            user_id,
            &req.password,
            &seen,
        )
        .await?;
        Ok(Response::new(pb::PasswordToken {
            password_token,
            expires_in_seconds: ttl,
        }))
    }

    async fn update_names(&self, request: Request<pb::UpdateNamesRequest>) -> Reply<pb::Done> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let mut fields = Fields::default();
        let first = fields.check(domain::name("first_name", &req.first_name));
        let last = fields.check(domain::name("last_name", &req.last_name));
        fields.finish().map_err(AccountsError::Invalid)?;
        let (Some(first), Some(last)) = (first, last) else {
            return Err(Status::internal("validated fields missing"));
        };
        let mut conn = self.conn().await?;
        profile::update_names(&mut conn, user_id, &first, &last, &seen).await?;
        Ok(done())
    }

    async fn change_username(
        &self,
        request: Request<pb::ChangeUsernameRequest>,
    ) -> Reply<pb::Done> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let username = Username::parse("new_username", &req.new_username).map_err(invalid)?;
        let pool = &self.state.pool;
        profile::change_username(pool, user_id, &username, &req.password_token, &seen).await?;
        Ok(done())
    }

    async fn change_email(
        &self,
        request: Request<pb::ChangeEmailRequest>,
    ) -> Reply<pb::ChangeResponse> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let email = Email::parse("new_email", &req.new_email).map_err(invalid)?;
        let change = contact_change::change_contact(
            &self.state.pool,
            &self.sender(),
            user_id,
            NewContact::Email(&email),
            &req.password_token,
            req.code.as_deref().filter(|c| !c.is_empty()),
            &seen,
        )
        .await?;
        reply(change)
    }

    async fn change_phone(
        &self,
        request: Request<pb::ChangePhoneRequest>,
    ) -> Reply<pb::ChangeResponse> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let value = req.new_phone_number.clone().unwrap_or_default();
        let phone = PhoneNumber::parse(
            "new_phone_number",
            &value.country_code,
            &value.national_number,
        )
        .map_err(invalid)?;
        let change = contact_change::change_contact(
            &self.state.pool,
            &self.sender(),
            user_id,
            NewContact::Phone(&phone),
            &req.password_token,
            req.code.as_deref().filter(|c| !c.is_empty()),
            &seen,
        )
        .await?;
        reply(change)
    }

    async fn change_address(&self, request: Request<pb::Address>) -> Reply<pb::Done> {
        let (user_id, seen) = signed(&request)?;
        let address = Address::try_from(request.into_inner())?;
        let mut conn = self.conn().await?;
        profile::change_address(&mut conn, user_id, &address, &seen).await?;
        Ok(done())
    }

    async fn change_communication_method(
        &self,
        request: Request<pb::ChangeCommunicationMethodRequest>,
    ) -> Reply<pb::Done> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let mut conn = self.conn().await?;
        let method = &req.communication_method;
        profile::change_communication_method(&mut conn, user_id, method, &seen).await?;
        Ok(done())
    }

    async fn list_action_logs(
        &self,
        request: Request<pb::ListActionLogsRequest>,
    ) -> Reply<pb::ActionLogPage> {
        let (user_id, _) = signed(&request)?;
        let req = request.into_inner();
        let query = Query::parse(
            req.page,
            req.page_size,
            &req.action,
            &req.date_from,
            &req.date_to,
        )
        .map_err(AccountsError::Invalid)?;
        let mut conn = self.conn().await?;
        let (count, entries) = history::list(&mut conn, user_id, &query).await?;
        Ok(Response::new(pb::ActionLogPage {
            count,
            page: query.page,
            page_size: query.page_size,
            results: entries.into_iter().map(pb::ActionLog::from).collect(),
        }))
    }

    async fn list_delete_reasons(
        &self,
        request: Request<pb::ListDeleteReasonsRequest>,
    ) -> Reply<pb::DeleteReasons> {
        let req = request.into_inner();
        let reasons = reasons(&req.delete_type).map_err(invalid)?;
        Ok(Response::new(pb::DeleteReasons {
            reasons: reasons
                .iter()
                .map(|(id, title)| pb::DeleteReason {
                    id: (*id).to_owned(),
                    title: (*title).to_owned(),
                })
                .collect(),
        }))
    }

    async fn delete_account(
        &self,
        request: Request<pb::DeleteAccountRequest>,
    ) -> Reply<pb::DeleteAccountResponse> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let deletion = Deletion {
            reason: DeleteReason::parse(&req.reason_id, &req.details).map_err(invalid)?,
            password_token: &req.password_token,
        };
        let config = &self.state.config;
        let until = deletion::delete(
            &self.state.pool,
            &self.state.redis,
            &config.sessions,
            chrono::Duration::seconds(config.recovery_grace_seconds),
            user_id,
            deletion,
            &seen,
        )
        .await?;
        Ok(Response::new(pb::DeleteAccountResponse {
            recoverable_until: Some(timestamp(until)),
        }))
    }

    async fn recover_account(
        &self,
        request: Request<pb::RecoverAccountRequest>,
    ) -> Reply<pb::TokenPair> {
        let seen = seen(&request);
        let req = request.into_inner();
        let attempt = Attempt {
            login: &req.username,
            password: &req.password,
            seen: &seen,
        };
        reply(deletion::recover(&self.sign_in(), attempt).await?)
    }

    async fn get_organization(
        &self,
        request: Request<pb::GetOrganizationRequest>,
    ) -> Reply<pb::Organization> {
        let (user_id, _) = signed(&request)?;
        let mut conn = self.conn().await?;
        reply(organizations::get(&mut conn, user_id).await?)
    }

    async fn list_participants(
        &self,
        request: Request<pb::ListParticipantsRequest>,
    ) -> Reply<pb::Participants> {
        let (user_id, _) = signed(&request)?;
        let mut conn = self.conn().await?;
        let (people, invites) = organizations::participants(&mut conn, user_id).await?;
        Ok(Response::new(pb::Participants {
            participants: people.into_iter().map(pb::Participant::from).collect(),
            invites: invites.into_iter().map(pb::Invite::from).collect(),
        }))
    }

    async fn invite_participant(
        &self,
        request: Request<pb::InviteParticipantRequest>,
    ) -> Reply<pb::Invite> {
        let (user_id, seen) = signed(&request)?;
        let new = NewInvite::try_from(request.into_inner())?;
        let config = &self.state.config;
        let settings = InviteSettings {
            public_url: &config.public_url,
            ttl: chrono::Duration::seconds(config.invite_ttl_seconds),
        };
        let invite = invites::invite(
            &self.state.pool,
            &self.sender(),
            settings,
            user_id,
            new,
            &seen,
        )
        .await?;
        reply(invite)
    }

    async fn revoke_invite(&self, request: Request<pb::RevokeInviteRequest>) -> Reply<pb::Done> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let id = id(&req.id, INVITE_NOT_FOUND)?;
        let mut conn = self.conn().await?;
        organizations::revoke_invite(&mut conn, user_id, id, &seen).await?;
        Ok(done())
    }

    async fn preview_invite(
        &self,
        request: Request<pb::PreviewInviteRequest>,
    ) -> Reply<pb::InvitePreview> {
        let req = request.into_inner();
        let mut conn = self.conn().await?;
        reply(invites::preview(&mut conn, &req.code).await?)
    }

    async fn join_organization(
        &self,
        request: Request<pb::JoinOrganizationRequest>,
    ) -> Reply<pb::TokenPair> {
        let seen = seen(&request);
        let req = request.into_inner();
        let mut fields = Fields::default();
        let account = new_account(
            &mut fields,
            &req.username,
            &req.email,
            req.phone_number.as_ref(),
            &req.password,
            &req.first_name,
            &req.last_name,
            req.verification_token.clone(),
        );
        fields.finish().map_err(AccountsError::Invalid)?;
        let account = account.ok_or_else(|| Status::internal("validated fields missing"))?;
        let settings = &self.state.config.sessions;
        let tokens = invites::join(&self.state.pool, settings, &req.code, account, &seen).await?;
        reply(tokens)
    }

    async fn change_participant_role(
        &self,
        request: Request<pb::ChangeParticipantRoleRequest>,
    ) -> Reply<pb::Done> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let target = id(&req.user_id, PARTICIPANT_NOT_FOUND)?;
        let role = invite_role(&req.role).map_err(invalid)?;
        let mut conn = self.conn().await?;
        organizations::change_role(&mut conn, user_id, target, role, &seen).await?;
        Ok(done())
    }

    async fn remove_participant(
        &self,
        request: Request<pb::RemoveParticipantRequest>,
    ) -> Reply<pb::Done> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let target = id(&req.user_id, PARTICIPANT_NOT_FOUND)?;
        organizations::remove(
            &self.state.pool,
            &self.state.redis,
            &self.state.config.sessions,
            user_id,
            target,
            &seen,
        )
        .await?;
        Ok(done())
    }
}

impl TryFrom<pb::Address> for Address {
    type Error = AccountsError;

    fn try_from(req: pb::Address) -> Result<Self, AccountsError> {
        Address::parse(&Address {
            country: req.country,
            apartment_number: req.apartment_number,
            province: req.province,
            street: req.street,
            house: req.house,
            city: req.city,
            zip_code: req.zip_code,
        })
        .map_err(AccountsError::Invalid)
    }
}

impl TryFrom<pb::InviteParticipantRequest> for NewInvite {
    type Error = AccountsError;

    fn try_from(req: pb::InviteParticipantRequest) -> Result<Self, AccountsError> {
        let mut fields = Fields::default();
        let role = fields.check(invite_role(&req.role));
        let invitee = match (
            req.email.as_deref().filter(|e| !e.trim().is_empty()),
            &req.phone_number,
        ) {
            (Some(email), _) => fields
                .check(Email::parse("email", email))
                .map(Invitee::Email),
            (None, Some(_)) => phone(&mut fields, req.phone_number.as_ref()).map(Invitee::Phone),
            (None, None) => {
                fields.check::<()>(Err(FieldError::new("email", domain::REQUIRED)));
                None
            }
        };
        fields.finish().map_err(AccountsError::Invalid)?;
        match (role, invitee) {
            (Some(role), Some(invitee)) => Ok(Self { invitee, role }),
            _ => Err(AccountsError::Internal(anyhow::anyhow!(
                "validated fields missing"
            ))),
        }
    }
}

impl From<TokenPair> for pb::TokenPair {
    fn from(pair: TokenPair) -> Self {
        Self {
            access: pair.access,
            refresh: pair.refresh,
            access_expires_in_seconds: pair.access_expires_in_seconds,
        }
    }
}

impl From<Availability> for pb::CheckAvailabilityResponse {
    fn from(found: Availability) -> Self {
        Self {
            email: found.email,
            username: found.username,
            phone_number: found.phone_number,
        }
    }
}

impl From<Profile> for pb::Profile {
    fn from(Profile { user, organization }: Profile) -> Self {
        Self {
            organization: organization.map(|m| pb::OrganizationSummary {
                id: m.organization_id.to_string(),
                name: m.name,
                role: m.role,
            }),
            id: user.id.to_string(),
            username: user.username,
            email: user.email,
            first_name: user.first_name,
            last_name: user.last_name,
            account_type: user.account_type,
            phone_number: Some(pb::PhoneNumber {
                country_code: user.phone_country_code,
                national_number: user.phone_national_number,
            }),
            communication_method: user.communication_method,
            address: Some(pb::Address {
                country: user.country,
                apartment_number: user.apartment_number,
                province: user.province,
                street: user.street,
                house: user.house,
                city: user.city,
                zip_code: user.zip_code,
            }),
            created_at: Some(timestamp(user.created_at)),
        }
    }
}

impl From<Options> for pb::RecoveryOptions {
    fn from(options: Options) -> Self {
        Self {
            email_hint: options.email_hint,
            phone_hint: options.phone_hint,
            communication_method: options.communication_method,
        }
    }
}

impl From<Change> for pb::ChangeResponse {
    fn from(change: Change) -> Self {
        match change {
            Change::Changed => Self {
                changed: true,
                expires_in_seconds: 0,
                sent_to: String::new(),
            },
            Change::CodeSent {
                expires_in_seconds,
                sent_to,
            } => Self {
                changed: false,
                expires_in_seconds,
                sent_to,
            },
        }
    }
}

impl From<Entry> for pb::ActionLog {
    fn from(e: Entry) -> Self {
        Self {
            id: e.id.to_string(),
            action: e.action,
            description: e.description,
            ip_address: e.ip_address,
            user_agent: e.user_agent,
            created_at: Some(timestamp(e.created_at)),
        }
    }
}

impl From<Membership> for pb::Organization {
    fn from(m: Membership) -> Self {
        Self {
            id: m.organization_id.to_string(),
            name: m.name,
            role: m.role,
            created_at: Some(timestamp(m.created_at)),
            owner_id: m.owner_id.to_string(),
        }
    }
}

impl From<Participant> for pb::Participant {
    fn from(p: Participant) -> Self {
        Self {
            user_id: p.user_id.to_string(),
            username: p.username,
            first_name: p.first_name,
            last_name: p.last_name,
            email: p.email,
            role: p.role,
            joined_at: Some(timestamp(p.joined_at)),
        }
    }
}

/// The invited address as the participants list shows it (in full: the inviter typed it).
fn sent_to(invite: &Invite) -> String {
    match (
        &invite.email,
        &invite.phone_country_code,
        &invite.phone_national_number,
    ) {
        (Some(email), _, _) => email.clone(),
        (None, Some(cc), Some(nn)) => format!("{cc} {nn}"),
        _ => String::new(),
    }
}

impl From<Invite> for pb::Invite {
    fn from(invite: Invite) -> Self {
        Self {
            id: invite.id.to_string(),
            sent_to: sent_to(&invite),
            channel: invite.channel,
            role: invite.role,
            expires_at: Some(timestamp(invite.expires_at)),
            created_at: Some(timestamp(invite.created_at)),
        }
    }
}

impl From<CodedInvite> for pb::InvitePreview {
    fn from(invite: CodedInvite) -> Self {
        Self {
            organization_name: invite.organization_name,
            role: invite.role,
            channel: invite.channel,
            email: invite.email,
            phone_number: match (invite.phone_country_code, invite.phone_national_number) {
                (Some(country_code), Some(national_number)) => Some(pb::PhoneNumber {
                    country_code,
                    national_number,
                }),
                _ => None,
            },
            expires_at: Some(timestamp(invite.expires_at)),
        }
    }
}
