//! Futuregrams: a share bought now and released later. The owner chooses a capture situation's
//! folder or items, recipients, executors and a release: by date (released then, unless an
//! executor stops it in the veto window before), or by executors (an accepted executor asks; once
//! enough have asked, the owner has a waiting period to cancel, then it is released). Until the
//! release evidence keeps the items, the owner may change recipients and executors, and nothing
//! reaches a recipient. Times come from the settings' clock, so tests can move it.

use chrono::{DateTime, Utc};
use evidentia_common::contact::Email;
use evidentia_proto::payments::v1 as payments;
use redis::aio::ConnectionManager;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{
        access,
        create_share::{self, NewShare},
        custody::{self, Kind, Whose},
        links::Links,
    },
    directory,
    domain::{ExecutorContact, MAX_EXECUTORS, Recipient, hash_secret, secret, written_time},
    error::SharingError,
    outbound::{Evidence, FolderFacts, ItemFacts, Messengers, Payments},
    state::Settings,
    store::{
        deliveries,
        futuregrams::{self, ExecutorRow, FuturegramRow, NewFuturegram, Outgoing},
        shares::{self, Paid},
    },
};

/// What the owner sees of one futuregram.
#[derive(Debug, Clone)]
pub struct FuturegramView {
    pub row: FuturegramRow,
    pub folder_id: Uuid,
    pub folder_name: String,
    pub copy_type: String,
    pub payment_transaction_number: Option<String>,
    pub items: Vec<(Uuid, String, String)>,
    /// (sent to, channel)
    pub recipients: Vec<(String, String)>,
    pub executors: Vec<ExecutorRow>,
}

pub struct NewFuturegramRequest {
    pub situation_id: Uuid,
    pub share: NewShare,
    pub executors: Vec<ExecutorContact>,
    pub release_at: Option<DateTime<Utc>>,
}

pub struct Created {
    pub futuregram: FuturegramView,
    pub payment: payments::PayResponse,
}

pub struct Deps<'a> {
    pub pool: &'a PgPool,
    pub evidence: &'a dyn Evidence,
    pub payments: &'a dyn Payments,
    pub links: &'a Links,
    pub settings: &'a Settings,
}

/// A futuregram can change only before its release: one released or stopped answers why not.
fn still_open(row: &FuturegramRow) -> Result<(), SharingError> {
    let closed = match row.state.as_str() {
        "released" => "This futuregram was already released.",
        "vetoed" => "This futuregram was stopped by an executor.",
        _ => return Ok(()),
    };
    Err(SharingError::Futuregram(closed.to_owned()))
}

/// The owner's futuregram, locked for a change before its release; another user's is not found.
async fn lock_open(
    conn: &mut PgConnection,
    owner: Uuid,
    share_id: Uuid,
) -> Result<FuturegramRow, SharingError> {
    let row = futuregrams::lock_owned(conn, owner, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    still_open(&row)?;
    Ok(row)
}

#[tracing::instrument(skip_all, fields(user.id = %owner))]
pub async fn create(
    deps: &Deps<'_>,
    owner: Uuid,
    new: NewFuturegramRequest,
) -> Result<Created, SharingError> {
    let now = deps.settings.clock.now();
    let folder = deps.evidence.folder(owner, new.share.folder_id).await?;
    if let Some(release_at) = new.release_at {
        if release_at <= now {
            return Err(SharingError::invalid(
                "release_at",
                "Choose a release time in the future.",
            ));
        }
        let storage_ends = folder
            .storage_expires_at
            .as_ref()
            .and_then(evidentia_common::time::datetime);
        if storage_ends.is_some_and(|ends| ends <= release_at) {
            return Err(SharingError::invalid(
                "release_at",
                "The folder's storage date ends before this release. Extend the storage date first.",
            ));
        }
    } else if new.executors.is_empty() {
        return Err(SharingError::invalid(
            "executors",
            "Add an executor who can release it, or choose a release date.",
        ));
    }
    let share_deps = create_share::Deps {
        pool: deps.pool,
        evidence: deps.evidence,
        payments: deps.payments,
        links: deps.links,
    };
    let (folder_ref, new_ref) = (&folder, &new);
    let (share_id, fresh) = create_share::claim(deps.pool, owner, &new.share, move || async move {
        let items = create_share::prepare(deps.evidence, owner, folder_ref, &new_ref.share).await?;
        record(deps.pool, owner, folder_ref, new_ref, &items).await
    })
    .await?;
    create_share::hold_unpaid(deps.pool, deps.evidence, owner, share_id).await?;
    let payment =
        create_share::pay(&share_deps, owner, &folder, &new.share, share_id, fresh).await?;
    schedule(
        deps,
        owner,
        share_id,
        &create_share::payment_number(&payment),
    )
    .await?;
    let mut conn = deps.pool.acquire().await?;
    let row = futuregrams::lock_owned(&mut conn, owner, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let futuregram = view_of(&mut conn, row).await?;
    Ok(Created {
        futuregram,
        payment,
    })
}

/// Records the futuregram awaiting payment: its share (as `create_share::record`), the release
/// and its executors, in one transaction. None when a concurrent request with the same key
/// recorded its own first (nothing of this one is kept).
async fn record(
    pool: &sqlx::PgPool,
    owner: Uuid,
    folder: &FolderFacts,
    new: &NewFuturegramRequest,
    items: &[ItemFacts],
) -> Result<Option<Uuid>, SharingError> {
    let mut tx = pool.begin().await?;
    let Some(share_id) = create_share::record(&mut tx, owner, folder, &new.share, items).await?
    else {
        return Ok(None);
    };
    futuregrams::insert(
        &mut tx,
        &NewFuturegram {
            share_id,
            owner_id: owner,
            situation_id: new.situation_id,
            release_at: new.release_at,
            recipients_paid: i32::try_from(new.share.recipients.len()).unwrap_or(i32::MAX),
        },
    )
    .await?;
    for executor in &new.executors {
        // The real link's secret is drawn once paid, when the invitation goes out.
        futuregrams::insert_executor(
            &mut tx,
            share_id,
            executor.email.as_str(),
            executor.phone_e164().as_deref(),
            &hash_secret(&secret()),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Some(share_id))
}

/// Once paid: the share waits for its release, executors are invited, the items' custody logs
/// say what is scheduled. Done once, by whichever call moves the share to scheduled.
async fn schedule(
    deps: &Deps<'_>,
    owner: Uuid,
    share_id: Uuid,
    payment_number: &str,
) -> Result<(), SharingError> {
    let now = deps.settings.clock.now();
    let mut tx = deps.pool.begin().await?;
    if !shares::mark_paid(&mut tx, share_id, payment_number, Paid::Scheduled).await? {
        return Ok(());
    }
    deliveries::mark_all_notified(&mut tx, share_id).await?;
    let row = futuregrams::lock(&mut tx, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let executors = futuregrams::executors(&mut tx, share_id).await?;
    if let Some(release_at) = row.release_at {
        let remind_at =
            release_at - chrono::Duration::from_std(deps.settings.futuregram_veto_window)?;
        let due = if executors.is_empty() {
            release_at
        } else {
            remind_at.max(now)
        };
        futuregrams::set_schedule(&mut tx, share_id, "pending", Some(due)).await?;
    }
    let owner_name = directory::find(&mut tx, owner)
        .await?
        .map_or_else(|| "Someone".to_owned(), |entry| entry.display_name());
    let share = shares::get(&mut tx, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    for executor in &executors {
        invite(
            &mut tx,
            deps.links,
            &owner_name,
            &share.folder_name,
            &row,
            executor,
        )
        .await?;
    }
    let detail = match row.release_at {
        Some(at) => format!("in a futuregram to be released on {}", written_time(at)),
        None => "in a futuregram to be released by its executors".to_owned(),
    };
    for item in shares::items(&mut tx, share_id).await? {
        custody::append(
            &mut tx,
            owner,
            item.item_id,
            Whose::share(share_id),
            Kind::Scheduled,
            now,
            &detail,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// An executor's link: the token, and the address the screen fills in for them (spec: a link
/// carrying a token and an e-mail). The token alone decides who answers.
pub fn executor_url(links: &Links, action: &str, token: &str, email: &str) -> String {
    let email: String = form_urlencoded::byte_serialize(email.as_bytes()).collect();
    links.app_url(&format!(
        "/futuregram/executor/{action}/{token}?email={email}"
    ))
}

/// A fresh link for the executor and the invitation carrying it (by e-mail, and by SMS too when
/// a phone number was given).
async fn invite(
    conn: &mut PgConnection,
    links: &Links,
    owner_name: &str,
    folder_name: &str,
    row: &FuturegramRow,
    executor: &ExecutorRow,
) -> Result<(), SharingError> {
    let token = secret();
    futuregrams::rotate_executor_token(&mut *conn, executor.id, &hash_secret(&token)).await?;
    let accept = executor_url(links, "accept", &token, &executor.email);
    let decline = executor_url(links, "decline", &token, &executor.email);
    let release = match row.release_at {
        Some(at) => format!(
            "It will be released on {}. Before then you can stop the release if it should not happen.",
            written_time(at)
        ),
        None => "It has no release date: it is released when its executors ask for it.".to_owned(),
    };
    let body = format!(
        "{owner_name} asked you to be an executor of a futuregram on Evidentia: files from {folder_name} to be shared later.\n\n{release}\n\nAccept: {accept}\nDecline: {decline}\n"
    );
    let subject = format!("{owner_name} asked you to be an executor");
    futuregrams::push(
        &mut *conn,
        &Outgoing {
            share_id: row.share_id,
            channel: "email",
            address: &executor.email,
            subject: &subject,
            body: &body,
        },
    )
    .await?;
    if let Some(phone) = &executor.phone {
        let text = format!(
            "{owner_name} asked you to be an executor of a futuregram on Evidentia. Accept: {accept} Decline: {decline}"
        );
        futuregrams::push(
            &mut *conn,
            &Outgoing {
                share_id: row.share_id,
                channel: "sms",
                address: phone,
                subject: &subject,
                body: &text,
            },
        )
        .await?;
    }
    Ok(())
}

pub async fn view_of(
    conn: &mut PgConnection,
    row: FuturegramRow,
) -> Result<FuturegramView, SharingError> {
    let share = shares::get(&mut *conn, row.share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let items = shares::items(&mut *conn, row.share_id)
        .await?
        .into_iter()
        .map(|item| (item.item_id, item.name, item.media_type))
        .collect();
    let recipients = deliveries::for_share(&mut *conn, row.share_id)
        .await?
        .into_iter()
        .filter(|d| d.channel != "link")
        .map(|d| (d.sent_to, d.channel))
        .collect();
    let executors = futuregrams::executors(&mut *conn, row.share_id).await?;
    Ok(FuturegramView {
        row,
        folder_id: share.folder_id,
        folder_name: share.folder_name,
        copy_type: share.copy_type,
        payment_transaction_number: share.payment_transaction_number,
        items,
        recipients,
        executors,
    })
}

/// The owner's futuregrams of a capture situation.
pub async fn for_situation(
    pool: &PgPool,
    owner: Uuid,
    situation: Uuid,
) -> Result<Vec<FuturegramView>, SharingError> {
    let mut conn = pool.acquire().await?;
    let rows = futuregrams::for_situation(&mut conn, owner, situation).await?;
    let mut views = Vec::with_capacity(rows.len());
    for row in rows {
        views.push(view_of(&mut conn, row).await?);
    }
    Ok(views)
}

/// Replaces the recipients before the release, up to as many as were paid for.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn update_recipients(
    pool: &PgPool,
    owner: Uuid,
    share_id: Uuid,
    recipients: &[Recipient],
) -> Result<FuturegramView, SharingError> {
    let mut tx = pool.begin().await?;
    let row = lock_open(&mut tx, owner, share_id).await?;
    if recipients.len() > usize::try_from(row.recipients_paid).unwrap_or(0) {
        return Err(SharingError::invalid(
            "recipients",
            &format!(
                "This futuregram was paid for {} recipient{}. Remove one to add another.",
                row.recipients_paid,
                if row.recipients_paid == 1 { "" } else { "s" }
            ),
        ));
    }
    deliveries::remove_recipients(&mut tx, share_id).await?;
    for recipient in recipients {
        create_share::add_delivery(
            &mut tx,
            share_id,
            recipient.channel(),
            &recipient.address(),
            &recipient.sent_to(),
        )
        .await?;
    }
    deliveries::mark_all_notified(&mut tx, share_id).await?;
    let view = view_of(&mut tx, row).await?;
    tx.commit().await?;
    Ok(view)
}

/// Sets the executors before the release: those kept keep their link and answer, removed ones'
/// links stop working, new ones are invited.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn update_executors(
    pool: &PgPool,
    links: &Links,
    owner: Uuid,
    share_id: Uuid,
    wanted: &[ExecutorContact],
) -> Result<FuturegramView, SharingError> {
    let mut tx = pool.begin().await?;
    let row = lock_open(&mut tx, owner, share_id).await?;
    if row.release_at.is_none() && wanted.is_empty() {
        return Err(SharingError::invalid(
            "executors",
            "A futuregram without a release date needs an executor who can release it.",
        ));
    }
    let current = futuregrams::executors(&mut tx, share_id).await?;
    for executor in &current {
        if !wanted.iter().any(|w| w.email.as_str() == executor.email) {
            futuregrams::remove_executor(&mut tx, share_id, executor.id).await?;
        }
    }
    let owner_name = directory::find(&mut tx, owner)
        .await?
        .map_or_else(|| "Someone".to_owned(), |entry| entry.display_name());
    let share = shares::get(&mut tx, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    for contact in wanted {
        let phone = contact.phone_e164();
        match current.iter().find(|c| c.email == contact.email.as_str()) {
            Some(kept) => {
                futuregrams::set_executor_phone(&mut tx, kept.id, share_id, phone.as_deref())
                    .await?;
            }
            None => {
                let id = futuregrams::insert_executor(
                    &mut tx,
                    share_id,
                    contact.email.as_str(),
                    phone.as_deref(),
                    &hash_secret(&secret()),
                )
                .await?;
                let added = ExecutorRow {
                    id,
                    share_id,
                    email: contact.email.as_str().to_owned(),
                    phone,
                    state: "invited".to_owned(),
                    release_requested_at: None,
                    vetoed_at: None,
                    responded_at: None,
                };
                invite(
                    &mut tx,
                    links,
                    &owner_name,
                    &share.folder_name,
                    &row,
                    &added,
                )
                .await?;
            }
        }
    }
    let view = view_of(&mut tx, row).await?;
    tx.commit().await?;
    Ok(view)
}

/// The owner stops a release executors asked for; it waits for them again.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn cancel_release(
    pool: &PgPool,
    owner: Uuid,
    share_id: Uuid,
) -> Result<FuturegramView, SharingError> {
    let mut tx = pool.begin().await?;
    let row = lock_open(&mut tx, owner, share_id).await?;
    if row.state != "waiting" {
        return Err(SharingError::Futuregram(
            "No release was asked for, so there is nothing to cancel.".to_owned(),
        ));
    }
    let share = shares::get(&mut tx, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    for executor in futuregrams::executors(&mut tx, share_id).await? {
        if executor.release_requested_at.is_some() {
            futuregrams::push(
                &mut tx,
                &Outgoing {
                    share_id,
                    channel: "email",
                    address: &executor.email,
                    subject: "The release was cancelled",
                    body: &format!(
                        "The owner cancelled the release of the futuregram of {} that you asked for. Nothing was shared.\n",
                        share.folder_name
                    ),
                },
            )
            .await?;
        }
    }
    futuregrams::clear_requests(&mut tx, share_id).await?;
    futuregrams::set_schedule(&mut tx, share_id, "pending", None).await?;
    let row = futuregrams::lock(&mut tx, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let view = view_of(&mut tx, row).await?;
    tx.commit().await?;
    Ok(view)
}

/// What an executor may do, answered to each of their calls.
#[derive(Debug, Clone)]
pub struct ExecutorView {
    pub state: String,
    pub owner_name: String,
    pub folder_name: String,
    pub release_at: Option<DateTime<Utc>>,
    /// pending, waiting, released or vetoed.
    pub futuregram_state: String,
    /// When a requested release happens (waiting), or when the veto window opens (dated).
    pub due_at: Option<DateTime<Utc>>,
    pub release_requested: bool,
    pub can_request_release: bool,
    pub can_veto: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Accept,
    Decline,
    RequestRelease,
    Veto,
}

impl Action {
    pub fn parse(value: &str) -> Result<Self, SharingError> {
        match value {
            "accepted" => Ok(Self::Accept),
            "declined" => Ok(Self::Decline),
            "release" => Ok(Self::RequestRelease),
            "veto" => Ok(Self::Veto),
            _ => Err(SharingError::invalid(
                "action",
                "Choose accepted, declined, release or veto.",
            )),
        }
    }
}

/// Whether enough accepted executors asked for the release: the configured quorum, but never more
/// than the executors who have not declined (nor fewer than one).
pub fn quorum_reached(executors: &[ExecutorRow], quorum: u32) -> bool {
    let asked = executors
        .iter()
        .filter(|e| e.state == "accepted" && e.release_requested_at.is_some())
        .count();
    let available = executors
        .iter()
        .filter(|e| e.state != "declined")
        .count()
        .max(1);
    let needed = usize::try_from(quorum).unwrap_or(1).clamp(1, available);
    asked >= needed
}

fn veto_opens(row: &FuturegramRow, settings: &Settings) -> Option<DateTime<Utc>> {
    let window = chrono::Duration::from_std(settings.futuregram_veto_window).ok()?;
    row.release_at.map(|at| at - window)
}

fn executor_view(
    row: &FuturegramRow,
    executor: &ExecutorRow,
    owner_name: String,
    folder_name: String,
    settings: &Settings,
    now: DateTime<Utc>,
) -> ExecutorView {
    let open = matches!(row.state.as_str(), "pending" | "waiting");
    let accepted = executor.state == "accepted";
    let opens = veto_opens(row, settings);
    ExecutorView {
        state: executor.state.clone(),
        owner_name,
        folder_name,
        release_at: row.release_at,
        futuregram_state: row.state.clone(),
        due_at: if row.state == "waiting" {
            row.due_at
        } else {
            opens
        },
        release_requested: executor.release_requested_at.is_some(),
        can_request_release: open
            && accepted
            && row.release_at.is_none()
            && executor.release_requested_at.is_none(),
        can_veto: open && accepted && row.release_at.is_some() && opens.is_some_and(|o| now >= o),
    }
}

pub struct RespondDeps<'a> {
    pub pool: &'a PgPool,
    pub settings: &'a Settings,
    pub links: &'a Links,
}

/// An executor answers through their link, giving the address the invitation went to.
#[tracing::instrument(skip_all)]
pub async fn respond(
    deps: &RespondDeps<'_>,
    token: &str,
    email: &Email,
    action: Action,
) -> Result<ExecutorView, SharingError> {
    let now = deps.settings.clock.now();
    let mut tx = deps.pool.begin().await?;
    let found = futuregrams::executor_by_token(&mut tx, &hash_secret(token))
        .await?
        .ok_or(SharingError::NotFound)?;
    // The futuregram's row first, then the executor's again: one order for every writer.
    let row = futuregrams::lock(&mut tx, found.share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let executor = futuregrams::executor_by_token(&mut tx, &hash_secret(token))
        .await?
        .ok_or(SharingError::NotFound)?;
    if executor.email != email.as_str() {
        return Err(SharingError::invalid(
            "email",
            "This is not the address the invitation was sent to.",
        ));
    }
    still_open(&row)?;
    let share = shares::get(&mut tx, row.share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let owner = directory::find(&mut tx, row.owner_id).await?;
    let owner_name = owner
        .as_ref()
        .map_or_else(|| "The owner".to_owned(), directory::Entry::display_name);
    let mut notice: Option<(String, String)> = None;
    match action {
        Action::Accept | Action::Decline => {
            let state = if action == Action::Accept {
                "accepted"
            } else {
                "declined"
            };
            if executor.state != state {
                futuregrams::respond(&mut tx, executor.id, state, now).await?;
                if action == Action::Decline {
                    // A release asked for stands only while enough executors still ask for it:
                    // one who declines takes their request back with them.
                    let called_off = row.state == "waiting" && {
                        let all = futuregrams::executors(&mut tx, row.share_id).await?;
                        !quorum_reached(&all, deps.settings.futuregram_quorum)
                    };
                    if called_off {
                        futuregrams::set_schedule(&mut tx, row.share_id, "pending", None).await?;
                    }
                    notice = Some((
                        "An executor declined".to_owned(),
                        format!(
                            "{} declined to be an executor of your futuregram of {}.{} You can choose another executor on Evidentia.\n",
                            executor.email,
                            share.folder_name,
                            if called_off {
                                " The release they asked for is called off: it happens when enough executors ask for it again."
                            } else {
                                ""
                            }
                        ),
                    ));
                }
            }
        }
        Action::RequestRelease => {
            if executor.state != "accepted" {
                return Err(SharingError::Futuregram(
                    "Accept the invitation before asking for the release.".to_owned(),
                ));
            }
            if row.release_at.is_some() {
                return Err(SharingError::Futuregram(
                    "This futuregram is released on its date; it cannot be released earlier."
                        .to_owned(),
                ));
            }
            futuregrams::request_release(&mut tx, executor.id, now).await?;
            if row.state == "pending" {
                // Read after this executor's request was recorded: it is counted.
                let all = futuregrams::executors(&mut tx, row.share_id).await?;
                if quorum_reached(&all, deps.settings.futuregram_quorum) {
                    let wait = chrono::Duration::from_std(deps.settings.futuregram_wait)?;
                    let due = now + wait;
                    futuregrams::set_schedule(&mut tx, row.share_id, "waiting", Some(due)).await?;
                    notice = Some((
                        "Your futuregram will be released".to_owned(),
                        format!(
                            "{} asked for the release of your futuregram of {}. It will be released on {} unless you cancel it.\n\nCancel it here: {}\n",
                            executor.email,
                            share.folder_name,
                            written_time(due),
                            deps.links
                                .app_url(&format!("/evidence?situation={}", row.situation_id))
                        ),
                    ));
                }
            }
        }
        Action::Veto => {
            if executor.state != "accepted" {
                return Err(SharingError::Futuregram(
                    "Accept the invitation before stopping the release.".to_owned(),
                ));
            }
            let Some(opens) = veto_opens(&row, deps.settings) else {
                return Err(SharingError::Futuregram(
                    "This futuregram has no release date to stop.".to_owned(),
                ));
            };
            if now < opens {
                return Err(SharingError::Futuregram(format!(
                    "The release can be stopped from {}.",
                    written_time(opens)
                )));
            }
            futuregrams::veto(&mut tx, executor.id, now).await?;
            futuregrams::set_schedule(&mut tx, row.share_id, "vetoed", None).await?;
            notice = Some((
                "An executor stopped your futuregram".to_owned(),
                format!(
                    "{} stopped the release of your futuregram of {}. Nothing was shared.\n",
                    executor.email, share.folder_name
                ),
            ));
        }
    }
    if let (Some((subject, body)), Some(owner)) = (&notice, &owner) {
        futuregrams::push(
            &mut tx,
            &Outgoing {
                share_id: row.share_id,
                channel: "email",
                address: &owner.email,
                subject,
                body,
            },
        )
        .await?;
    }
    let row = futuregrams::lock(&mut tx, row.share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let executor = futuregrams::executor_by_token(&mut tx, &hash_secret(token))
        .await?
        .ok_or(SharingError::NotFound)?;
    tx.commit().await?;
    Ok(executor_view(
        &row,
        &executor,
        owner_name,
        share.folder_name,
        deps.settings,
        now,
    ))
}

/// The delivery a recipient's view link opens, unless it expired (a fresh one can be sent).
pub async fn open_view(
    pool: &PgPool,
    settings: &Settings,
    token: &str,
) -> Result<Uuid, SharingError> {
    let mut conn = pool.acquire().await?;
    let (delivery, expires_at) = futuregrams::view_by_token(&mut conn, &hash_secret(token))
        .await?
        .ok_or(SharingError::NotFound)?;
    if expires_at <= settings.clock.now() {
        return Err(SharingError::LinkExpired);
    }
    Ok(delivery)
}

pub struct RefreshDeps<'a> {
    pub pool: &'a PgPool,
    pub redis: &'a ConnectionManager,
    pub links: &'a Links,
    pub messengers: &'a Messengers,
    pub settings: &'a Settings,
}

/// A fresh view link for an expired one, sent to the recipient's own address (never answered).
#[tracing::instrument(skip_all)]
pub async fn refresh(
    deps: &RefreshDeps<'_>,
    token: &str,
    client_ip: &str,
) -> Result<String, SharingError> {
    let now = deps.settings.clock.now();
    let mut conn = deps.pool.acquire().await?;
    let (delivery_id, expires_at) = futuregrams::view_by_token(&mut conn, &hash_secret(token))
        .await?
        .ok_or(SharingError::NotFound)?;
    if expires_at > now {
        return Err(SharingError::LinkStillValid);
    }
    let opened = deliveries::open(&mut conn, delivery_id)
        .await?
        .filter(|o| o.share_state == "active")
        .ok_or(SharingError::LinkInvalid)?;
    drop(conn);
    const TOO_MANY_LINKS: &str = "Too many links were sent. Try again later.";
    access::limit(
        deps.redis,
        &format!("sharing:futuregram-refresh:delivery:{delivery_id}"),
        deps.settings.code_sends_per_recipient,
        TOO_MANY_LINKS,
    )
    .await?;
    if !client_ip.is_empty() {
        access::limit(
            deps.redis,
            &format!("sharing:futuregram-refresh:client:{client_ip}"),
            deps.settings.code_sends_per_client,
            TOO_MANY_LINKS,
        )
        .await?;
    }
    let fresh = secret();
    let ttl = chrono::Duration::from_std(deps.settings.futuregram_view_ttl)?;
    let mut tx = deps.pool.begin().await?;
    futuregrams::insert_view(&mut tx, &hash_secret(&fresh), delivery_id, now + ttl).await?;
    let d = &opened.delivery;
    // Sent before the commit: if it cannot be sent, no new link exists.
    deps.messengers
        .send(
            &d.channel,
            &d.address,
            "Your new Evidentia link",
            &view_message(
                &opened.folder_name,
                &deps.links.app_url(&format!("/futuregram/view/{fresh}")),
            ),
        )
        .await?;
    tx.commit().await?;
    Ok(Recipient::masked(&d.channel, &d.address, &d.sent_to))
}

pub fn view_message(folder_name: &str, url: &str) -> String {
    format!(
        "Files from {folder_name} were shared with you on Evidentia in a futuregram.\n\nSee them here: {url}\n"
    )
}

/// Guards the number of executors one futuregram may have.
pub fn check_executor_count(count: usize) -> Result<(), SharingError> {
    if count > MAX_EXECUTORS {
        return Err(SharingError::invalid(
            "executors",
            "Choose at most 10 executors.",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn executor(state: &str, asked: bool) -> ExecutorRow {
        ExecutorRow {
            id: Uuid::now_v7(),
            share_id: Uuid::nil(),
            email: format!("{}@example.com", Uuid::now_v7().simple()),
            phone: None,
            state: state.to_owned(),
            release_requested_at: asked.then(Utc::now),
            vetoed_at: None,
            responded_at: None,
        }
    }

    #[test]
    fn the_quorum_counts_each_request_once_and_never_waits_for_those_who_declined() {
        let one = [executor("accepted", true), executor("accepted", false)];
        assert!(quorum_reached(&one, 1));
        assert!(!quorum_reached(&one, 2), "one request is not two");
        let both = [executor("accepted", true), executor("accepted", true)];
        assert!(quorum_reached(&both, 2));
        // A quorum of three with one of three declined needs the other two.
        let declined = [
            executor("accepted", true),
            executor("declined", false),
            executor("accepted", false),
        ];
        assert!(!quorum_reached(&declined, 3));
        let declined = [
            executor("accepted", true),
            executor("declined", false),
            executor("accepted", true),
        ];
        assert!(quorum_reached(&declined, 3));
        assert!(
            !quorum_reached(&[executor("invited", true)], 1),
            "only accepted executors count"
        );
    }
}
