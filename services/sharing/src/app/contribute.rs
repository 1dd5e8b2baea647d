//! Anonymous contributions to an organization folder. A participant opens a contribution link
//! (expiry, how many files, revocable) and it is sent by e-mail or SMS. Whoever holds the link
//! proves an e-mail address with a 6-digit code (hashed, single use, limited tries) and gets a
//! contribution token for that folder only; with it they see the folder's steps and their own
//! files, never anyone else's, and send files through evidence's upload mechanism. Each file
//! takes one of the link's submissions (reserved by the device's id before the file is
//! registered, so a retry takes none). Uploads are limited per link and per client address.
//! When evidence verifies a contribution, its custody log starts with who sent it and the
//! contributor is mailed a receipt of what arrived, with each file's SHA-256.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use evidentia_common::{contact::Email, handler};
use evidentia_proto::events::v1::ItemVerified;
use redis::aio::ConnectionManager;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{
        access::{
            NewCode, TOO_MANY_CODES, limit, limit_client_codes, six_digits, still_usable,
            wrong_code,
        },
        custody::{self, Kind, Whose},
        links::Links,
    },
    domain::{Recipient, hash_secret, secret},
    error::{LinkClosed, SharingError},
    outbound::{
        ContributorRef, Messengers, NewSubmission, OrgFolderFacts, OrganizationFolders, Parts,
        SubmissionFacts, SubmissionUpload,
    },
    state::Settings,
    store::contributions::{self as store, ContributorRow, LinkRow, NewLink},
};

pub const MAX_EXPIRY_DAYS: i32 = 30;
pub const MAX_SUBMISSIONS: i32 = 100;

const TOO_MANY_UPLOADS: &str = "Too many files were sent. Try again later.";

/// A link as its participants see it.
#[derive(Debug, Clone)]
pub struct LinkView {
    pub row: LinkRow,
    /// Only right after creation: the token is kept hashed and cannot be shown again.
    pub url: Option<String>,
    pub state: &'static str,
}

/// Where a link stands now.
pub fn link_state(link: &LinkRow, now: DateTime<Utc>) -> Result<(), LinkClosed> {
    if link.revoked_at.is_some() {
        Err(LinkClosed::Revoked)
    } else if link.expires_at <= now {
        Err(LinkClosed::Expired)
    } else if link.submissions >= link.max_submissions {
        Err(LinkClosed::UsedUp)
    } else {
        Ok(())
    }
}

fn view(row: LinkRow, url: Option<String>) -> LinkView {
    let state = match link_state(&row, Utc::now()) {
        Ok(()) => "active",
        Err(closed) => closed.state(),
    };
    LinkView { row, url, state }
}

pub struct LinkDeps<'a> {
    pub pool: &'a PgPool,
    pub folders: &'a dyn OrganizationFolders,
    pub links: &'a Links,
    pub messengers: &'a Messengers,
}

/// What a participant asks for when opening a link.
#[derive(Debug, Clone)]
pub struct NewLinkRequest {
    pub folder_id: Uuid,
    pub organization_name: String,
    pub recipient: Recipient,
    pub expires_in_days: i32,
    pub max_submissions: i32,
}

fn check_new(req: &NewLinkRequest) -> Result<(), SharingError> {
    let mut errors = Vec::new();
    if !(1..=MAX_EXPIRY_DAYS).contains(&req.expires_in_days) {
        errors.push(evidentia_common::errors::FieldError::new(
            "expires_in_days",
            format!("Between 1 and {MAX_EXPIRY_DAYS} days."),
        ));
    }
    if !(1..=MAX_SUBMISSIONS).contains(&req.max_submissions) {
        errors.push(evidentia_common::errors::FieldError::new(
            "max_submissions",
            format!("Between 1 and {MAX_SUBMISSIONS} files."),
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(SharingError::Invalid(errors))
    }
}

/// Opens a link for an organization folder the participant reaches, and sends it.
#[tracing::instrument(skip_all, fields(user.id = %member, folder.id = %req.folder_id))]
pub async fn create_link(
    deps: &LinkDeps<'_>,
    member: Uuid,
    req: NewLinkRequest,
) -> Result<LinkView, SharingError> {
    let folder = deps.folders.folder_of_member(member, req.folder_id).await?;
    check_new(&req)?;
    if folder.expired {
        return Err(SharingError::Expired);
    }
    let token = secret();
    let id = Uuid::now_v7();
    let url = deps.links.app_url(&format!(
        "/organization-sharing/verification/{}?link={token}",
        folder.id
    ));
    let expires_at = Utc::now() + chrono::Duration::days(i64::from(req.expires_in_days));
    let mut tx = deps.pool.begin().await?;
    store::insert_link(
        &mut tx,
        &NewLink {
            id,
            folder_id: folder.id,
            organization_name: &req.organization_name,
            created_by: member,
            token_hash: &hash_secret(&token),
            channel: req.recipient.channel(),
            address: &req.recipient.address(),
            sent_to: &req.recipient.sent_to(),
            expires_at,
            max_submissions: req.max_submissions,
        },
    )
    .await?;
    // Sent before the commit: a link that could not be sent does not exist.
    deps.messengers
        .send(
            req.recipient.channel(),
            &req.recipient.address(),
            &format!("{} asks you for evidence", req.organization_name),
            &format!(
                "{org} asks you to send photos, videos or recordings for \"{folder}\". Open this link on your phone, confirm your e-mail address and capture each step: {url}\nThe link works until {until}.",
                org = req.organization_name,
                folder = folder.name,
                until = expires_at.format("%b %-d, %Y"),
            ),
        )
        .await?;
    let row = store::link(&mut tx, id)
        .await?
        .ok_or(SharingError::NotFound)?;
    tx.commit().await?;
    Ok(view(row, Some(url)))
}

/// The folder's links, newest first (for a participant who reaches the folder).
pub async fn list_links(
    deps: &LinkDeps<'_>,
    member: Uuid,
    folder_id: Uuid,
) -> Result<Vec<LinkView>, SharingError> {
    deps.folders.folder_of_member(member, folder_id).await?;
    let mut conn = deps.pool.acquire().await?;
    Ok(store::links_of(&mut conn, folder_id)
        .await?
        .into_iter()
        .map(|row| view(row, None))
        .collect())
}

/// Revokes a link: its contributors' tokens stop working at once.
pub async fn revoke_link(
    deps: &LinkDeps<'_>,
    member: Uuid,
    link_id: Uuid,
) -> Result<LinkView, SharingError> {
    let mut conn = deps.pool.acquire().await?;
    let row = store::link(&mut conn, link_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    deps.folders.folder_of_member(member, row.folder_id).await?;
    store::revoke(&mut conn, link_id).await?;
    let row = store::link(&mut conn, link_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    Ok(view(row, None))
}

pub struct ContributorDeps<'a> {
    pub pool: &'a PgPool,
    pub redis: &'a ConnectionManager,
    pub folders: &'a dyn OrganizationFolders,
    pub messengers: &'a Messengers,
    pub settings: &'a Settings,
}

#[derive(Debug, Clone)]
pub struct CodeSent {
    pub code_id: Uuid,
    pub sent_to: String,
    pub expires_in_secs: i32,
}

/// Sends a code to the address the contributor gives (the link alone proves nothing).
#[tracing::instrument(skip_all)]
pub async fn send_code(
    deps: &ContributorDeps<'_>,
    link_token: &str,
    email: &Email,
    client_ip: &str,
) -> Result<CodeSent, SharingError> {
    let mut conn = deps.pool.acquire().await?;
    let link = store::link_by_token(&mut conn, &hash_secret(link_token))
        .await?
        .ok_or(SharingError::LinkInvalid)?;
    link_state(&link, Utc::now()).map_err(SharingError::LinkClosed)?;
    drop(conn);
    limit(
        deps.redis,
        &format!("sharing:contributor-codes:link:{}", link.id),
        deps.settings.code_sends_per_recipient * 4,
        TOO_MANY_CODES,
    )
    .await?;
    limit_client_codes(deps.redis, deps.settings, client_ip).await?;
    let code = NewCode::issue(deps.settings)?;
    let mut tx = deps.pool.begin().await?;
    store::insert_code(
        &mut tx,
        code.id,
        link.id,
        email.as_str(),
        &code.hash,
        code.expires_at,
    )
    .await?;
    deps.messengers
        .send(
            "email",
            email.as_str(),
            "Your Evidentia confirmation code",
            &format!(
                "Your Evidentia confirmation code is {}. It lets you send files to {} and expires in {} minutes. If you did not ask for it, ignore this message.",
                code.digits,
                link.organization_name,
                code.ttl.num_minutes()
            ),
        )
        .await?;
    tx.commit().await?;
    Ok(CodeSent {
        code_id: code.id,
        sent_to: email.as_str().to_owned(),
        expires_in_secs: code.expires_in_secs(),
    })
}

#[derive(Debug, Clone)]
pub struct Granted {
    pub token: String,
    pub folder_id: Uuid,
    pub expires_at: DateTime<Utc>,
}

#[tracing::instrument(skip_all, fields(code.id = %code_id))]
pub async fn check_code(
    deps: &ContributorDeps<'_>,
    code_id: Uuid,
    typed: &str,
) -> Result<Granted, SharingError> {
    let typed = six_digits(typed)?;
    let mut tx = deps.pool.begin().await?;
    let code = store::lock_code(&mut tx, code_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    still_usable(
        code.used_at,
        code.expires_at,
        code.tries,
        deps.settings.code_tries,
    )?;
    let link = store::link(&mut tx, code.link_id)
        .await?
        .ok_or(SharingError::LinkInvalid)?;
    link_state(&link, Utc::now()).map_err(SharingError::LinkClosed)?;
    if hash_secret(&typed) != code.code_hash {
        let tries = store::count_try(&mut tx, code_id).await?;
        tx.commit().await?;
        return Err(wrong_code(
            tries,
            deps.settings.code_tries,
            "The code is incorrect. Check it and try again.",
        ));
    }
    store::use_code(&mut tx, code_id).await?;
    let token = secret();
    let ttl = chrono::Duration::from_std(deps.settings.contributor_token_ttl)?;
    let expires_at = (Utc::now() + ttl).min(link.expires_at);
    store::insert_contributor(
        &mut tx,
        Uuid::now_v7(),
        link.id,
        link.folder_id,
        &code.email,
        &hash_secret(&token),
        expires_at,
    )
    .await?;
    tx.commit().await?;
    Ok(Granted {
        token,
        folder_id: link.folder_id,
        expires_at,
    })
}

/// A checked contributor and their link.
#[derive(Debug, Clone)]
pub struct Contributor {
    pub row: ContributorRow,
    pub link: LinkRow,
}

impl Contributor {
    fn reference(&self) -> ContributorRef {
        ContributorRef {
            id: self.row.id,
            email: self.row.email.clone(),
            link_id: self.link.id,
        }
    }
}

/// The contributor a token names, for `folder_id`: an unknown or expired token, or another
/// folder, ends the access; a revoked link says so.
pub async fn contributor(
    conn: &mut PgConnection,
    token: &str,
    folder_id: Option<Uuid>,
) -> Result<Contributor, SharingError> {
    let row = store::contributor_by_token(conn, &hash_secret(token))
        .await?
        .ok_or(SharingError::AccessEnded)?;
    if row.expires_at <= Utc::now() {
        return Err(SharingError::AccessEnded);
    }
    if folder_id.is_some_and(|f| f != row.folder_id) {
        return Err(SharingError::NotFound);
    }
    let link = store::link(conn, row.link_id)
        .await?
        .ok_or(SharingError::AccessEnded)?;
    if link.revoked_at.is_some() {
        return Err(SharingError::LinkClosed(LinkClosed::Revoked));
    }
    Ok(Contributor { row, link })
}

/// The folder, its steps (or one of them) and the contributor's own files in each.
#[derive(Debug, Clone)]
pub struct FolderView {
    pub folder: OrgFolderFacts,
    pub organization_name: String,
    pub email: String,
    pub expires_at: DateTime<Utc>,
    pub submissions_left: i32,
    pub submissions: Vec<SubmissionFacts>,
}

pub async fn folder_view(
    deps: &ContributorDeps<'_>,
    token: &str,
    folder_id: Uuid,
    step_id: Option<Uuid>,
) -> Result<FolderView, SharingError> {
    let who = {
        let mut conn = deps.pool.acquire().await?;
        contributor(&mut conn, token, Some(folder_id)).await?
    };
    let mut folder = deps.folders.folder(folder_id).await?;
    if let Some(step) = step_id {
        folder.steps.retain(|s| s.id == step);
        if folder.steps.is_empty() {
            return Err(SharingError::NotFound);
        }
    }
    let submissions = deps.folders.list(who.row.id, folder_id, step_id).await?;
    Ok(FolderView {
        folder,
        organization_name: who.link.organization_name.clone(),
        email: who.row.email.clone(),
        expires_at: who.row.expires_at,
        submissions_left: (who.link.max_submissions - who.link.submissions).max(0),
        submissions,
    })
}

async fn limit_uploads(
    deps: &ContributorDeps<'_>,
    who: &Contributor,
    client_ip: &str,
) -> Result<(), SharingError> {
    limit(
        deps.redis,
        &format!("sharing:contribution-uploads:link:{}", who.link.id),
        deps.settings.contribution_uploads_per_link,
        TOO_MANY_UPLOADS,
    )
    .await?;
    limit(
        deps.redis,
        &format!("sharing:contribution-uploads:client:{client_ip}"),
        deps.settings.contribution_uploads_per_client,
        TOO_MANY_UPLOADS,
    )
    .await
}

/// Registers a file in one of the folder's steps, taking one of the link's submissions.
#[tracing::instrument(skip_all, fields(folder.id = %new.folder_id))]
pub async fn create_submission(
    deps: &ContributorDeps<'_>,
    token: &str,
    client_ip: &str,
    new: NewSubmission,
) -> Result<(SubmissionFacts, Option<SubmissionUpload>), SharingError> {
    let client_id = Uuid::parse_str(&new.client_id).map_err(|_| {
        SharingError::invalid(
            "client_id",
            "Expected the device's id for the file (a UUID).",
        )
    })?;
    let who = {
        let mut conn = deps.pool.acquire().await?;
        contributor(&mut conn, token, Some(new.folder_id)).await?
    };
    if who.link.expires_at <= Utc::now() {
        return Err(SharingError::LinkClosed(LinkClosed::Expired));
    }
    limit_uploads(deps, &who, client_ip).await?;
    // The reservation takes the link's row until evidence has answered: a file it refuses gives
    // its submission back by the rollback, before another file of the link is counted, so files
    // sent at once are never refused for submissions that end up not made.
    let mut tx = deps.pool.begin().await?;
    store::reserve(&mut tx, who.link.id, client_id)
        .await?
        .ok_or(SharingError::LinkClosed(LinkClosed::UsedUp))?;
    let created = deps.folders.create(&who.reference(), new).await?;
    tx.commit().await?;
    Ok(created)
}

async fn own(deps: &ContributorDeps<'_>, token: &str) -> Result<Contributor, SharingError> {
    let mut conn = deps.pool.acquire().await?;
    contributor(&mut conn, token, None).await
}

pub async fn single_upload(
    deps: &ContributorDeps<'_>,
    token: &str,
    client_ip: &str,
    item: Uuid,
) -> Result<(String, Vec<(String, String)>), SharingError> {
    let who = own(deps, token).await?;
    limit_uploads(deps, &who, client_ip).await?;
    deps.folders.single_upload(who.row.id, item).await
}

pub async fn start_multipart(
    deps: &ContributorDeps<'_>,
    token: &str,
    client_ip: &str,
    item: Uuid,
) -> Result<Parts, SharingError> {
    let who = own(deps, token).await?;
    limit_uploads(deps, &who, client_ip).await?;
    deps.folders.parts(who.row.id, item).await
}

pub async fn finish(
    deps: &ContributorDeps<'_>,
    token: &str,
    item: Uuid,
) -> Result<SubmissionFacts, SharingError> {
    let who = own(deps, token).await?;
    deps.folders.finish(who.row.id, item).await
}

pub async fn update(
    deps: &ContributorDeps<'_>,
    token: &str,
    item: Uuid,
    name: Option<String>,
    place: Option<(f64, f64)>,
) -> Result<SubmissionFacts, SharingError> {
    let who = own(deps, token).await?;
    deps.folders.update(who.row.id, item, name, place).await
}

/// On a verified contribution: its custody log starts with who sent it, and the contributor is
/// mailed a receipt listing every file of theirs that arrived in the folder, with its SHA-256.
pub struct ReceiptOnVerified {
    pub folders: Arc<dyn OrganizationFolders>,
    pub messengers: Messengers,
}

handler!(ReceiptOnVerified, ItemVerified, |handler, conn, event| {
    if event.contributor_id.is_empty() {
        return Ok(());
    }
    let contributor = Uuid::parse_str(&event.contributor_id)?;
    let owner = Uuid::parse_str(&event.owner_id)?;
    let item_id = Uuid::parse_str(&event.item_id)?;
    let folder_id = Uuid::parse_str(&event.folder_id)?;
    let theirs = handler
        .folders
        .list(contributor, folder_id, None)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let Some(item) = theirs.iter().find(|s| s.id == item_id) else {
        return Ok(()); // deleted meanwhile
    };
    if !crate::store::custody::has_entries(conn, item.id).await? {
        let place = if item.address.is_empty() {
            String::new()
        } else {
            format!(" at {}", item.address)
        };
        // The file's custody log starts with its capture, its receipt and its verification.
        let received = format!(
            "received from an anonymous contributor, {}{place}",
            event.contributor_email
        );
        let verified = format!("SHA-256 {}", item.sha256);
        for (kind, at, detail) in [
            (Kind::Captured, item.captured_at, "device time".to_owned()),
            (Kind::Uploaded, item.received_at, received),
            (Kind::Verified, item.verified_at, verified),
        ] {
            let at = at.unwrap_or_else(Utc::now);
            custody::append(conn, owner, item.id, Whose::OWNER, kind, at, &detail).await?;
        }
    }
    let folder = handler
        .folders
        .folder(folder_id)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let lines: Vec<String> = theirs
        .iter()
        .filter(|s| s.status == "verified")
        .map(|s| {
            format!(
                "- {} ({} bytes), received {}, SHA-256 {}",
                s.name,
                s.file_size,
                s.received_at
                    .map(crate::domain::written_time)
                    .unwrap_or_default(),
                s.sha256
            )
        })
        .collect();
    handler.messengers
        .send(
            "email",
            &event.contributor_email,
            &format!("Receipt: your files for {}", folder.name),
            &format!(
                "These files of yours arrived in \"{}\" and were checked against the fingerprints (SHA-256) your device computed:\n{}\nKeep this message: the fingerprints identify the exact files you sent.",
                folder.name,
                lines.join("\n")
            ),
        )
        .await?;
    Ok(())
});
