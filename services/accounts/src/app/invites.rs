//! Invites to an organization: a code sent by e-mail or SMS that expires, shown to whoever holds
//! it, and spent by joining, which creates the participant's account.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{
        history,
        organizations::require_membership,
        passwords,
        sender::Sender,
        sessions::{self, TokenPair},
        sign_up, verifications,
    },
    config::SessionSettings,
    domain::{
        Action, Channel, Destination, EMAIL_TAKEN, NewAccount, PHONE_TAKEN, Purpose, Seen,
        organizations::{INVITE_NOT_VALID, Invitee, NewInvite, Role, new_code, normalize_code},
    },
    error::AccountsError,
    store::{
        invites::{self, CodedInvite, Invite},
        organizations, users,
    },
};

/// Where invite links point and how long an invite lasts.
#[derive(Debug, Clone, Copy)]
pub struct InviteSettings<'a> {
    pub public_url: &'a str,
    pub ttl: chrono::Duration,
}

/// Invites someone; the code goes to them by e-mail or SMS and expires.
#[tracing::instrument(skip_all)]
pub async fn invite(
    pool: &PgPool,
    sender: &Sender<'_>,
    settings: InviteSettings<'_>,
    user_id: Uuid,
    new: NewInvite,
    seen: &Seen,
) -> Result<Invite, AccountsError> {
    let mut conn = pool.acquire().await?;
    let me = require_membership(&mut conn, user_id).await?;
    if !Role::stored(&me.role).may_invite(new.role) {
        return Err(AccountsError::Forbidden);
    }
    // Joining creates an account, so the address must not have one yet.
    let to = match &new.invitee {
        Invitee::Email(email) => {
            if users::email_taken(&mut conn, email.as_str(), None).await? {
                return Err(AccountsError::field("email", EMAIL_TAKEN));
            }
            Destination::email(email.as_str())
        }
        Invitee::Phone(phone) => {
            let (cc, nn) = (&phone.country_code, &phone.national_number);
            if users::phone_taken(&mut conn, cc, nn, None).await? {
                return Err(AccountsError::field("phone_number", PHONE_TAKEN));
            }
            Destination::phone(cc, nn)
        }
    };
    sender.limit(&to, &seen.ip).await?;
    let code = new_code();
    let expires_at = Utc::now() + settings.ttl;
    let (email, phone) = match &new.invitee {
        Invitee::Email(email) => (Some(email.as_str()), None),
        Invitee::Phone(phone) => (None, Some(phone)),
    };
    let mut tx = pool.begin().await?;
    let row = invites::NewInvite {
        id: Uuid::now_v7(),
        organization_id: me.organization_id,
        code: &code,
        channel: to.channel.as_str(),
        email,
        phone_country_code: phone.map(|p| p.country_code.as_str()),
        phone_national_number: phone.map(|p| p.national_number.as_str()),
        role: new.role.as_str(),
        invited_by: user_id,
        expires_at,
    };
    let invite = invites::insert(&mut tx, &row).await?;
    history::record(&mut tx, user_id, Action::ParticipantInvited, seen).await?;
    let text = message(&me.name, new.role, &code, &settings, expires_at);
    // Sent before commit: an invite that could not be sent is not left behind.
    let subject = format!("Join {} on Evidentia", me.name);
    sender.deliver(&to, &subject, &text).await?;
    tx.commit().await?;
    Ok(invite)
}

fn message(
    organization: &str,
    role: Role,
    code: &str,
    settings: &InviteSettings<'_>,
    expires_at: DateTime<Utc>,
) -> String {
    let link = format!(
        "{}/join-organization/{code}",
        settings.public_url.trim_end_matches('/')
    );
    let article = if role == Role::Admin {
        "an admin"
    } else {
        "a member"
    };
    format!(
        "You are invited to join {organization} on Evidentia as {article}.\n\nJoin with the code {code}: {link}\n\nThe invite expires on {}.",
        expires_at.format("%b %-d, %Y")
    )
}

/// The invite a code names, if it can still be used.
pub async fn preview(conn: &mut PgConnection, code: &str) -> Result<CodedInvite, AccountsError> {
    let code = normalize_code(code);
    if code.is_empty() {
        return Err(AccountsError::NotFound(INVITE_NOT_VALID));
    }
    usable(invites::by_code(conn, &code).await?)
}

fn usable(found: Option<CodedInvite>) -> Result<CodedInvite, AccountsError> {
    let invite = found.ok_or(AccountsError::NotFound(INVITE_NOT_VALID))?;
    if invite.accepted_at.is_some()
        || invite.revoked_at.is_some()
        || invite.expires_at <= Utc::now()
    {
        return Err(AccountsError::InviteExpired);
    }
    Ok(invite)
}

/// The same join sent again after its answer was lost: the invite was accepted by the account of
/// this username, and the password is that account's. It is signed in again, as the first join
/// would have, rather than told the invite has expired (which it has, for anyone else).
async fn joined_already(
    conn: &mut PgConnection,
    settings: &SessionSettings,
    invite: Option<&CodedInvite>,
    account: &NewAccount,
) -> Result<Option<TokenPair>, AccountsError> {
    let Some(joined) = invite.and_then(|invite| invite.accepted_by) else {
        return Ok(None);
    };
    let login = account.username.as_str().to_lowercase();
    let Some(user) = users::credentials_by_login(&mut *conn, &login).await? else {
        return Ok(None);
    };
    if user.id != joined
        || user.deleted_at.is_some()
        || !passwords::matches(user.password_hash, account.password.expose().to_owned()).await?
    {
        return Ok(None);
    }
    Ok(Some(sessions::start(conn, settings, user.id).await?))
}

/// Creates the participant's account from an invite and signs it in. The invite's own address
/// is proven by the code; an e-mail that the invite did not go to is proven with a sign-up code.
#[tracing::instrument(skip_all)]
pub async fn join(
    pool: &PgPool,
    settings: &SessionSettings,
    code: &str,
    account: NewAccount,
    seen: &Seen,
) -> Result<TokenPair, AccountsError> {
    let password_hash = passwords::hash_password(account.password.clone()).await?;
    let mut tx = pool.begin().await?;
    let code = normalize_code(code);
    if code.is_empty() {
        return Err(AccountsError::NotFound(INVITE_NOT_VALID));
    }
    let found = invites::lock_by_code(&mut tx, &code).await?;
    if let Some(pair) = joined_already(&mut tx, settings, found.as_ref(), &account).await? {
        tx.commit().await?;
        return Ok(pair);
    }
    let invite = usable(found)?;
    if Channel::parse(&invite.channel) == Some(Channel::Email) {
        if invite.email.as_deref() != Some(account.email.as_str()) {
            return Err(AccountsError::field(
                "email",
                "Use the email address the invite was sent to.",
            ));
        }
    } else {
        let phone = &account.phone;
        if invite.phone_country_code.as_deref() != Some(phone.country_code.as_str())
            || invite.phone_national_number.as_deref() != Some(phone.national_number.as_str())
        {
            return Err(AccountsError::field(
                "phone_number",
                "Use the phone number the invite was sent to.",
            ));
        }
        let (token, email) = (&account.verification_token, account.email.as_str());
        verifications::spend(&mut tx, token, email, Purpose::SignUp).await?;
    }
    let id = sign_up::insert(&mut tx, &account, &password_hash, "individual", seen).await?;
    organizations::add_member(&mut tx, invite.organization_id, id, &invite.role).await?;
    invites::accept(&mut tx, invite.id, id).await?;
    let phone = &account.phone;
    invites::close_open_to(
        &mut tx,
        account.email.as_str(),
        &phone.country_code,
        &phone.national_number,
    )
    .await?;
    history::record(&mut tx, id, Action::OrganizationJoined, seen).await?;
    let pair = sessions::start(&mut tx, settings, id).await?;
    tx.commit().await?;
    tracing::info!(user.id = %id, organization.id = %invite.organization_id, "participant joined");
    Ok(pair)
}
