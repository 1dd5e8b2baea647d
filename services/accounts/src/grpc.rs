//! The gRPC surface of accounts: converts proto messages to domain values and back, nothing else.

use evidentia_common::{
    grpc::{caller_of, user_of},
    time::timestamp,
};
use evidentia_proto::accounts::v1::{
    self as pb, accounts_service_server::AccountsService as AccountsRpc,
};
use tonic::{Request, Response, Status};

use crate::{
    codes::{self, Channel, Purpose},
    deletion,
    domain::{self, Address, Email, Fields, Password, PhoneNumber, Username},
    error::AccountsError,
    history::{self, Seen},
    organizations::{self, Invitee},
    profile::{self, Change, NewContact},
    recovery::{self, Proof},
    state::AppState,
    support,
    tokens::{self, Rotation, TokenPair},
    users::{self, NewAccount},
};

pub struct AccountsApi {
    state: AppState,
}

impl AccountsApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    async fn conn(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Postgres>, AccountsError> {
        Ok(self.state.pool.acquire().await?)
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

fn invalid(error: evidentia_common::errors::FieldError) -> AccountsError {
    AccountsError::Invalid(vec![error])
}

/// An id from a path: one that is not a UUID names nothing, so it is not found.
fn id(value: &str, not_found: &'static str) -> Result<uuid::Uuid, AccountsError> {
    uuid::Uuid::parse_str(value).map_err(|_| AccountsError::NotFound(not_found))
}

/// The signed-in caller and where the request came from.
fn signed<T>(request: &Request<T>) -> Result<(uuid::Uuid, Seen), Status> {
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

fn pair(pair: TokenPair) -> Response<pb::TokenPair> {
    Response::new(pb::TokenPair {
        access: pair.access,
        refresh: pair.refresh,
        access_expires_in_seconds: pair.access_expires_in_seconds,
    })
}

#[tonic::async_trait]
impl AccountsRpc for AccountsApi {
    async fn check_availability(
        &self,
        request: Request<pb::CheckAvailabilityRequest>,
    ) -> Result<Response<pb::CheckAvailabilityResponse>, Status> {
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
            users::availability(&mut conn, email.as_ref(), username.as_ref(), phone.as_ref())
                .await?;
        Ok(Response::new(pb::CheckAvailabilityResponse {
            email: found.email,
            username: found.username,
            phone_number: found.phone_number,
        }))
    }

    async fn send_confirmation_code(
        &self,
        request: Request<pb::SendConfirmationCodeRequest>,
    ) -> Result<Response<pb::SendConfirmationCodeResponse>, Status> {
        let seen = seen(&request);
        let req = request.into_inner();
        let (expires_in_seconds, sent_to) = match purpose(req.purpose)? {
            Purpose::PasswordReset => {
                if req.username.trim().is_empty() {
                    return Err(AccountsError::field("username", domain::REQUIRED).into());
                }
                recovery::send_reset_code(&self.state, &req.username, channel(req.channel), &seen)
                    .await?
            }
            _ => {
                let email = Email::parse("email", &req.email).map_err(invalid)?;
                let to = codes::Destination::email(email.as_str());
                let ttl = codes::send(&self.state, email.as_str(), Purpose::SignUp, &to, &seen.ip)
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
    ) -> Result<Response<pb::VerifyConfirmationCodeResponse>, Status> {
        let req = request.into_inner();
        let verification_token = match purpose(req.purpose)? {
            Purpose::PasswordReset => {
                if req.username.trim().is_empty() {
                    return Err(AccountsError::field("username", domain::REQUIRED).into());
                }
                recovery::verify_reset_code(&self.state, &req.username, &req.code).await?
            }
            _ => {
                let email = Email::parse("email", &req.email).map_err(invalid)?;
                codes::verify(&self.state, email.as_str(), &req.code, Purpose::SignUp).await?
            }
        };
        Ok(Response::new(pb::VerifyConfirmationCodeResponse {
            verification_token,
        }))
    }

    async fn create_account(
        &self,
        request: Request<pb::CreateAccountRequest>,
    ) -> Result<Response<pb::TokenPair>, Status> {
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
            fields.check::<()>(Err(evidentia_common::errors::FieldError::new(
                "verification_token",
                domain::REQUIRED,
            )));
        }
        let organization_name = if req.organization_name.trim().is_empty() {
            None
        } else {
            fields.check(domain::short_text(
                "organization_name",
                &req.organization_name,
            ))
        };
        fields.finish().map_err(AccountsError::Invalid)?;
        let account = account.ok_or_else(|| Status::internal("validated fields missing"))?;
        let tokens = users::create(&self.state, account, organization_name, &seen).await?;
        Ok(pair(tokens))
    }

    async fn login(
        &self,
        request: Request<pb::LoginRequest>,
    ) -> Result<Response<pb::TokenPair>, Status> {
        let seen = seen(&request);
        let req = request.into_inner();
        let tokens = users::login(&self.state, &req.username, &req.password, &seen).await?;
        Ok(pair(tokens))
    }

    async fn refresh_token(
        &self,
        request: Request<pb::RefreshTokenRequest>,
    ) -> Result<Response<pb::TokenPair>, Status> {
        let req = request.into_inner();
        if req.refresh.is_empty() {
            return Err(AccountsError::field("refresh", domain::REQUIRED).into());
        }
        let mut tx = self.state.pool.begin().await.map_err(AccountsError::from)?;
        let rotation =
            tokens::rotate(&mut tx, &self.state.config, &self.state.redis, &req.refresh).await?;
        // Commit either way: a refused reuse has revoked the family.
        tx.commit().await.map_err(AccountsError::from)?;
        match rotation {
            Rotation::Rotated(tokens) => Ok(pair(tokens)),
            Rotation::Refused => Err(AccountsError::RefreshInvalid.into()),
        }
    }

    async fn logout(
        &self,
        request: Request<pb::LogoutRequest>,
    ) -> Result<Response<pb::LogoutResponse>, Status> {
        let req = request.into_inner();
        let mut conn = self.conn().await?;
        tokens::revoke_by_token(
            &mut conn,
            &self.state.config,
            &self.state.redis,
            &req.refresh,
        )
        .await?;
        Ok(Response::new(pb::LogoutResponse {}))
    }

    async fn get_profile(
        &self,
        request: Request<pb::GetProfileRequest>,
    ) -> Result<Response<pb::Profile>, Status> {
        let user_id = user_of(&request)?;
        let mut conn = self.conn().await?;
        let user = users::profile(&mut conn, user_id).await?;
        let organization = organizations::membership(&mut conn, user_id).await?;
        Ok(Response::new(pb::Profile {
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
        }))
    }

    async fn send_contact_message(
        &self,
        request: Request<pb::ContactMessage>,
    ) -> Result<Response<pb::ContactMessageResponse>, Status> {
        let caller = caller_of(&request);
        let req = request.into_inner();
        let message =
            support::ContactMessage::parse(&req.name, &req.email, &req.subject, &req.message)
                .map_err(AccountsError::Invalid)?;
        support::send(&self.state, &message, caller.client_ip.as_deref()).await?;
        Ok(Response::new(pb::ContactMessageResponse {}))
    }

    async fn is_phone_registered(
        &self,
        request: Request<pb::PhoneVerifyRequest>,
    ) -> Result<Response<pb::PhoneVerifyResponse>, Status> {
        let req = request.into_inner();
        let mut fields = Fields::default();
        let phone = phone(&mut fields, req.phone_number.as_ref());
        fields.finish().map_err(AccountsError::Invalid)?;
        let phone = phone.ok_or_else(|| Status::internal("validated phone missing"))?;
        let mut conn = self.conn().await?;
        let registered = recovery::phone_registered(&mut conn, &phone).await?;
        Ok(Response::new(pb::PhoneVerifyResponse { registered }))
    }

    async fn get_recovery_options(
        &self,
        request: Request<pb::RecoveryOptionsRequest>,
    ) -> Result<Response<pb::RecoveryOptions>, Status> {
        let req = request.into_inner();
        let mut conn = self.conn().await?;
        let options = recovery::options(&mut conn, &req.username).await?;
        Ok(Response::new(pb::RecoveryOptions {
            email_hint: options.email_hint,
            phone_hint: options.phone_hint,
            communication_method: options.communication_method,
        }))
    }

    async fn send_username_by_email(
        &self,
        request: Request<pb::UsernameByEmailRequest>,
    ) -> Result<Response<pb::SentTo>, Status> {
        let seen = seen(&request);
        let req = request.into_inner();
        let email = Email::parse("email", &req.email).map_err(invalid)?;
        let sent_to = recovery::username_by_email(&self.state, &email, &seen).await?;
        Ok(Response::new(pb::SentTo { sent_to }))
    }

    async fn send_username_by_phone(
        &self,
        request: Request<pb::UsernameByPhoneRequest>,
    ) -> Result<Response<pb::SentTo>, Status> {
        let seen = seen(&request);
        let req = request.into_inner();
        let mut fields = Fields::default();
        let phone = phone(&mut fields, req.phone_number.as_ref());
        fields.finish().map_err(AccountsError::Invalid)?;
        let phone = phone.ok_or_else(|| Status::internal("validated phone missing"))?;
        let sent_to = recovery::username_by_phone(&self.state, &phone, &seen).await?;
        Ok(Response::new(pb::SentTo { sent_to }))
    }

    async fn reset_password(
        &self,
        request: Request<pb::ResetPasswordRequest>,
    ) -> Result<Response<pb::TokenPair>, Status> {
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
                fields.check::<()>(Err(evidentia_common::errors::FieldError::new(
                    "password_token",
                    "Please confirm your password again.",
                )));
                None
            }
            None => {
                fields.check::<()>(Err(evidentia_common::errors::FieldError::new(
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
        let tokens = recovery::reset_password(&self.state, proof, password, &seen).await?;
        Ok(pair(tokens))
    }

    async fn verify_password(
        &self,
        request: Request<pb::VerifyPasswordRequest>,
    ) -> Result<Response<pb::PasswordToken>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let (password_token, expires_in_seconds) =
            profile::verify_password(&self.state, user_id, &req.password, &seen).await?;
        Ok(Response::new(pb::PasswordToken {
            password_token,
            expires_in_seconds,
        }))
    }

    async fn update_names(
        &self,
        request: Request<pb::UpdateNamesRequest>,
    ) -> Result<Response<pb::Done>, Status> {
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
    ) -> Result<Response<pb::Done>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let username = Username::parse("new_username", &req.new_username).map_err(invalid)?;
        profile::change_username(&self.state, user_id, &username, &req.password_token, &seen)
            .await?;
        Ok(done())
    }

    async fn change_email(
        &self,
        request: Request<pb::ChangeEmailRequest>,
    ) -> Result<Response<pb::ChangeResponse>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let email = Email::parse("new_email", &req.new_email).map_err(invalid)?;
        let change = profile::change_contact(
            &self.state,
            user_id,
            NewContact::Email(&email),
            &req.password_token,
            req.code.as_deref().filter(|c| !c.is_empty()),
            &seen,
        )
        .await?;
        Ok(change_response(change))
    }

    async fn change_phone(
        &self,
        request: Request<pb::ChangePhoneRequest>,
    ) -> Result<Response<pb::ChangeResponse>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let value = req.new_phone_number.clone().unwrap_or_default();
        let phone = PhoneNumber::parse(
            "new_phone_number",
            &value.country_code,
            &value.national_number,
        )
        .map_err(invalid)?;
        let change = profile::change_contact(
            &self.state,
            user_id,
            NewContact::Phone(&phone),
            &req.password_token,
            req.code.as_deref().filter(|c| !c.is_empty()),
            &seen,
        )
        .await?;
        Ok(change_response(change))
    }

    async fn change_address(
        &self,
        request: Request<pb::Address>,
    ) -> Result<Response<pb::Done>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let address = Address::parse(&Address {
            country: req.country,
            apartment_number: req.apartment_number,
            province: req.province,
            street: req.street,
            house: req.house,
            city: req.city,
            zip_code: req.zip_code,
        })
        .map_err(AccountsError::Invalid)?;
        let mut conn = self.conn().await?;
        profile::change_address(&mut conn, user_id, &address, &seen).await?;
        Ok(done())
    }

    async fn change_communication_method(
        &self,
        request: Request<pb::ChangeCommunicationMethodRequest>,
    ) -> Result<Response<pb::Done>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let mut conn = self.conn().await?;
        profile::change_communication_method(&mut conn, user_id, &req.communication_method, &seen)
            .await?;
        Ok(done())
    }

    async fn list_action_logs(
        &self,
        request: Request<pb::ListActionLogsRequest>,
    ) -> Result<Response<pb::ActionLogPage>, Status> {
        let (user_id, _) = signed(&request)?;
        let req = request.into_inner();
        let query = history::Query::parse(
            req.page,
            req.page_size,
            &req.action,
            &req.date_from,
            &req.date_to,
        )
        .map_err(AccountsError::Invalid)?;
        let mut conn = self.conn().await?;
        users::require_active(&mut conn, user_id).await?;
        let (count, entries) = history::list(&mut conn, user_id, &query).await?;
        Ok(Response::new(pb::ActionLogPage {
            count,
            page: query.page,
            page_size: query.page_size,
            results: entries
                .into_iter()
                .map(|e| pb::ActionLog {
                    id: e.id.to_string(),
                    action: e.action,
                    description: e.description,
                    ip_address: e.ip_address,
                    user_agent: e.user_agent,
                    created_at: Some(timestamp(e.created_at)),
                })
                .collect(),
        }))
    }

    async fn list_delete_reasons(
        &self,
        request: Request<pb::ListDeleteReasonsRequest>,
    ) -> Result<Response<pb::DeleteReasons>, Status> {
        let req = request.into_inner();
        let reasons = deletion::reasons(&req.delete_type)?;
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
    ) -> Result<Response<pb::DeleteAccountResponse>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let until = deletion::delete(
            &self.state,
            user_id,
            &req.reason_id,
            &req.details,
            &req.password_token,
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
    ) -> Result<Response<pb::TokenPair>, Status> {
        let seen = seen(&request);
        let req = request.into_inner();
        let tokens = deletion::recover(&self.state, &req.username, &req.password, &seen).await?;
        Ok(pair(tokens))
    }

    async fn get_organization(
        &self,
        request: Request<pb::GetOrganizationRequest>,
    ) -> Result<Response<pb::Organization>, Status> {
        let (user_id, _) = signed(&request)?;
        let mut conn = self.conn().await?;
        let m = organizations::get(&mut conn, user_id).await?;
        Ok(Response::new(pb::Organization {
            id: m.organization_id.to_string(),
            name: m.name,
            role: m.role,
            created_at: Some(timestamp(m.created_at)),
            owner_id: m.owner_id.to_string(),
        }))
    }

    async fn list_participants(
        &self,
        request: Request<pb::ListParticipantsRequest>,
    ) -> Result<Response<pb::Participants>, Status> {
        let (user_id, _) = signed(&request)?;
        let mut conn = self.conn().await?;
        let (people, invites) = organizations::participants(&mut conn, user_id).await?;
        Ok(Response::new(pb::Participants {
            participants: people
                .into_iter()
                .map(|p| pb::Participant {
                    user_id: p.user_id.to_string(),
                    username: p.username,
                    first_name: p.first_name,
                    last_name: p.last_name,
                    email: p.email,
                    role: p.role,
                    joined_at: Some(timestamp(p.joined_at)),
                })
                .collect(),
            invites: invites.into_iter().map(invite_message).collect(),
        }))
    }

    async fn invite_participant(
        &self,
        request: Request<pb::InviteParticipantRequest>,
    ) -> Result<Response<pb::Invite>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let mut fields = Fields::default();
        let role = fields.check(organizations::invite_role(&req.role));
        let invitee = match (
            req.email.as_deref().filter(|e| !e.trim().is_empty()),
            &req.phone_number,
        ) {
            (Some(email), _) => fields
                .check(Email::parse("email", email))
                .map(Invitee::Email),
            (None, Some(_)) => phone(&mut fields, req.phone_number.as_ref()).map(Invitee::Phone),
            (None, None) => {
                fields.check::<()>(Err(evidentia_common::errors::FieldError::new(
                    "email",
                    domain::REQUIRED,
                )));
                None
            }
        };
        fields.finish().map_err(AccountsError::Invalid)?;
        let (Some(role), Some(invitee)) = (role, invitee) else {
            return Err(Status::internal("validated fields missing"));
        };
        let invite = organizations::invite(&self.state, user_id, invitee, role, &seen).await?;
        Ok(Response::new(invite_message(invite)))
    }

    async fn revoke_invite(
        &self,
        request: Request<pb::RevokeInviteRequest>,
    ) -> Result<Response<pb::Done>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let id = id(&req.id, organizations::INVITE_NOT_FOUND)?;
        let mut conn = self.conn().await?;
        organizations::revoke_invite(&mut conn, user_id, id, &seen).await?;
        Ok(done())
    }

    async fn preview_invite(
        &self,
        request: Request<pb::PreviewInviteRequest>,
    ) -> Result<Response<pb::InvitePreview>, Status> {
        let req = request.into_inner();
        let mut conn = self.conn().await?;
        let invite = organizations::open_invite(&mut conn, &req.code, false).await?;
        Ok(Response::new(pb::InvitePreview {
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
        }))
    }

    async fn join_organization(
        &self,
        request: Request<pb::JoinOrganizationRequest>,
    ) -> Result<Response<pb::TokenPair>, Status> {
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
        let tokens = organizations::join(&self.state, &req.code, account, &seen).await?;
        Ok(pair(tokens))
    }

    async fn change_participant_role(
        &self,
        request: Request<pb::ChangeParticipantRoleRequest>,
    ) -> Result<Response<pb::Done>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let target = id(&req.user_id, organizations::PARTICIPANT_NOT_FOUND)?;
        let role = organizations::invite_role(&req.role).map_err(invalid)?;
        let mut conn = self.conn().await?;
        organizations::change_role(&mut conn, user_id, target, role, &seen).await?;
        Ok(done())
    }

    async fn remove_participant(
        &self,
        request: Request<pb::RemoveParticipantRequest>,
    ) -> Result<Response<pb::Done>, Status> {
        let (user_id, seen) = signed(&request)?;
        let req = request.into_inner();
        let target = id(&req.user_id, organizations::PARTICIPANT_NOT_FOUND)?;
        let mut tx = self.state.pool.begin().await.map_err(AccountsError::from)?;
        organizations::remove(&mut tx, &self.state, user_id, target, &seen).await?;
        tx.commit().await.map_err(AccountsError::from)?;
        Ok(done())
    }
}

fn change_response(change: Change) -> Response<pb::ChangeResponse> {
    Response::new(match change {
        Change::Changed => pb::ChangeResponse {
            changed: true,
            expires_in_seconds: 0,
            sent_to: String::new(),
        },
        Change::CodeSent {
            expires_in_seconds,
            sent_to,
        } => pb::ChangeResponse {
            changed: false,
            expires_in_seconds,
            sent_to,
        },
    })
}

fn invite_message(invite: organizations::Invite) -> pb::Invite {
    pb::Invite {
        id: invite.id.to_string(),
        sent_to: invite.sent_to(),
        channel: invite.channel,
        role: invite.role,
        expires_at: Some(timestamp(invite.expires_at)),
        created_at: Some(timestamp(invite.created_at)),
    }
}
