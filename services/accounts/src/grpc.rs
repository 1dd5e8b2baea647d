//! The gRPC surface of accounts: converts proto messages to domain values and back, nothing else.

use evidentia_common::{grpc::Caller, time::timestamp};
use evidentia_proto::accounts::v1::{
    self as pb, accounts_service_server::AccountsService as AccountsRpc,
};
use tonic::{Request, Response, Status};

use crate::{
    codes::{self, Purpose},
    domain::{self, Email, Fields, Password, PhoneNumber, Username},
    error::AccountsError,
    startup::AppState,
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
}

fn purpose(value: i32) -> Result<Purpose, AccountsError> {
    match pb::CodePurpose::try_from(value) {
        Ok(pb::CodePurpose::SignUp) => Ok(Purpose::SignUp),
        _ => Err(AccountsError::field("purpose", "Unknown purpose.")),
    }
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
        let mut conn = self
            .state
            .pool
            .acquire()
            .await
            .map_err(AccountsError::from)?;
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
        let req = request.into_inner();
        let email =
            Email::parse("email", &req.email).map_err(|e| AccountsError::Invalid(vec![e]))?;
        let expires_in_seconds = codes::send(&self.state, &email, purpose(req.purpose)?).await?;
        Ok(Response::new(pb::SendConfirmationCodeResponse {
            expires_in_seconds,
        }))
    }

    async fn verify_confirmation_code(
        &self,
        request: Request<pb::VerifyConfirmationCodeRequest>,
    ) -> Result<Response<pb::VerifyConfirmationCodeResponse>, Status> {
        let req = request.into_inner();
        let email =
            Email::parse("email", &req.email).map_err(|e| AccountsError::Invalid(vec![e]))?;
        let code = req.code.replace(' ', "");
        if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
            return Err(AccountsError::CodeIncorrect.into());
        }
        let verification_token =
            codes::verify(&self.state, &email, &code, purpose(req.purpose)?).await?;
        Ok(Response::new(pb::VerifyConfirmationCodeResponse {
            verification_token,
        }))
    }

    async fn create_account(
        &self,
        request: Request<pb::CreateAccountRequest>,
    ) -> Result<Response<pb::TokenPair>, Status> {
        let req = request.into_inner();
        let mut fields = Fields::default();
        let username = fields.check(Username::parse("username", &req.username));
        let email = fields.check(Email::parse("email", &req.email));
        let phone = phone(&mut fields, req.phone_number.as_ref());
        let password = fields.check(Password::parse("password", &req.password));
        let first_name = fields.check(domain::optional_name("first_name", &req.first_name));
        let last_name = fields.check(domain::optional_name("last_name", &req.last_name));
        if req.verification_token.is_empty() {
            fields.check::<()>(Err(evidentia_common::errors::FieldError::new(
                "verification_token",
                domain::REQUIRED,
            )));
        }
        fields.finish().map_err(AccountsError::Invalid)?;
        let (
            Some(username),
            Some(email),
            Some(phone),
            Some(password),
            Some(first_name),
            Some(last_name),
        ) = (username, email, phone, password, first_name, last_name)
        else {
            return Err(Status::internal("validated fields missing"));
        };
        let tokens = users::create(
            &self.state,
            NewAccount {
                username,
                email,
                phone,
                password,
                first_name,
                last_name,
                verification_token: req.verification_token,
            },
        )
        .await?;
        Ok(pair(tokens))
    }

    async fn login(
        &self,
        request: Request<pb::LoginRequest>,
    ) -> Result<Response<pb::TokenPair>, Status> {
        let caller = Caller::from_metadata(request.metadata());
        let req = request.into_inner();
        let tokens = users::login(
            &self.state,
            &req.username,
            &req.password,
            caller.client_ip.as_deref(),
        )
        .await?;
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
        let rotation = tokens::rotate(&mut tx, &self.state.config, &req.refresh).await?;
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
        let mut conn = self
            .state
            .pool
            .acquire()
            .await
            .map_err(AccountsError::from)?;
        tokens::revoke_by_token(&mut conn, &req.refresh).await?;
        Ok(Response::new(pb::LogoutResponse {}))
    }

    async fn get_profile(
        &self,
        request: Request<pb::GetProfileRequest>,
    ) -> Result<Response<pb::Profile>, Status> {
        let user_id = Caller::from_metadata(request.metadata()).require_user()?;
        let mut conn = self
            .state
            .pool
            .acquire()
            .await
            .map_err(AccountsError::from)?;
        let user = users::profile(&mut conn, user_id).await?;
        Ok(Response::new(pb::Profile {
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
        let caller = Caller::from_metadata(request.metadata());
        let req = request.into_inner();
        let message =
            support::ContactMessage::parse(&req.name, &req.email, &req.subject, &req.message)
                .map_err(AccountsError::Invalid)?;
        support::send(&self.state, &message, caller.client_ip.as_deref()).await?;
        Ok(Response::new(pb::ContactMessageResponse {}))
    }
}
