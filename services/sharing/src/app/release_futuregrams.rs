//! The futuregram scheduler, in every sharing replica. Each due futuregram is claimed with
//! `FOR UPDATE SKIP LOCKED` and acted on in the claiming transaction: reminding its executors
//! when the veto window opens, or releasing it. The release's state change, its copies, view
//! links and messages commit together, so it happens exactly once however many replicas run,
//! and a futuregram that fell due while no replica ran is released by the first to start.
//! Messages leave through the outbox after the commit; evidence lets go of the items once the
//! released copies are made. The same pass lets go of a plain share's items once its copies are
//! made (they are held from before its payment, so its folder is not deleted in between).

use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio_util::sync::CancellationToken;

use crate::{
    app::{
        create_share,
        custody::{self, Kind, Whose},
        futuregram::{executor_url, view_message},
    },
    domain::{hash_secret, secret, written_time},
    state::AppState,
    store::{
        deliveries,
        futuregrams::{self, FuturegramRow, Outgoing},
        shares,
    },
};

pub async fn run(state: AppState, shutdown: CancellationToken) {
    loop {
        if let Err(err) = tick(&state).await {
            tracing::error!(error = ?err, "the futuregram scheduler failed; it tries again");
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(state.settings.futuregram_tick.max(Duration::from_millis(50))) => {}
        }
    }
}

/// One pass: what is due, then the messages, then the holds.
pub async fn tick(state: &AppState) -> anyhow::Result<()> {
    let released = act_on_due(state).await?;
    if released > 0 {
        state.work.notify_waiters();
    }
    send_outbox(state).await?;
    release_holds(state).await?;
    Ok(())
}

/// Acts on each due futuregram in its own transaction; answers how many were released.
pub async fn act_on_due(state: &AppState) -> anyhow::Result<usize> {
    let mut released = 0;
    for _ in 0..100 {
        let now = state.settings.clock.now();
        let mut tx = state.pool.begin().await?;
        let Some(row) = futuregrams::claim_due(&mut tx, now, 1).await?.pop() else {
            return Ok(released);
        };
        if due_action(&row, now) == Due::Release {
            release(state, &mut tx, &row, now).await?;
            released += 1;
        } else {
            remind(state, &mut tx, &row, now).await?;
        }
        tx.commit().await?;
    }
    Ok(released)
}

#[derive(Debug, PartialEq, Eq)]
enum Due {
    Remind,
    Release,
}

fn due_action(row: &FuturegramRow, now: DateTime<Utc>) -> Due {
    match (row.state.as_str(), row.release_at) {
        ("pending", Some(at)) if now < at && row.reminded_at.is_none() => Due::Remind,
        _ => Due::Release,
    }
}

async fn remind(
    state: &AppState,
    tx: &mut sqlx::PgConnection,
    row: &FuturegramRow,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    let share = shares::get(&mut *tx, row.share_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("futuregram without its share"))?;
    let release_at = row.release_at.unwrap_or(now);
    for executor in futuregrams::executors(&mut *tx, row.share_id).await? {
        if executor.state != "accepted" {
            continue;
        }
        // A fresh link: the invitation's may be long gone from their mailbox.
        let token = secret();
        futuregrams::rotate_executor_token(&mut *tx, executor.id, &hash_secret(&token)).await?;
        let url = executor_url(&state.links, "accept", &token, &executor.email);
        futuregrams::push(
            &mut *tx,
            &Outgoing {
                share_id: row.share_id,
                channel: "email",
                address: &executor.email,
                subject: "A futuregram will be released soon",
                body: &format!(
                    "The futuregram of {} you are an executor of will be released on {}.\n\nIf it should not be released, stop it here before then: {url}\n",
                    share.folder_name,
                    written_time(release_at),
                ),
            },
        )
        .await?;
    }
    futuregrams::mark_reminded(&mut *tx, row.share_id, now, Some(release_at)).await?;
    Ok(())
}

/// Releases the futuregram in the caller's transaction: its share becomes an ordinary active
/// share, a copy is queued per recipient and item, and each recipient gets a view link.
async fn release(
    state: &AppState,
    tx: &mut sqlx::PgConnection,
    row: &FuturegramRow,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    futuregrams::mark_released(&mut *tx, row.share_id, now).await?;
    if !shares::release(&mut *tx, row.share_id, now).await? {
        return Ok(());
    }
    create_share::queue_copies(&mut *tx, row.owner_id, row.share_id).await?;
    let share = shares::get(&mut *tx, row.share_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("futuregram without its share"))?;
    for item in shares::items(&mut *tx, row.share_id).await? {
        custody::append(
            &mut *tx,
            row.owner_id,
            item.item_id,
            Whose::share(row.share_id),
            Kind::Released,
            now,
            "the futuregram was released",
        )
        .await?;
    }
    let ttl = chrono::Duration::from_std(state.settings.futuregram_view_ttl)?;
    let mut sent_to = Vec::new();
    for delivery in deliveries::for_share(&mut *tx, row.share_id).await? {
        if delivery.channel == "link" {
            continue;
        }
        let token = secret();
        futuregrams::insert_view(&mut *tx, &hash_secret(&token), delivery.id, now + ttl).await?;
        let url = state.links.app_url(&format!("/futuregram/view/{token}"));
        futuregrams::push(
            &mut *tx,
            &Outgoing {
                share_id: row.share_id,
                channel: &delivery.channel,
                address: &delivery.address,
                subject: "Files were shared with you",
                body: &view_message(&share.folder_name, &url),
            },
        )
        .await?;
        sent_to.push(delivery.sent_to);
    }
    deliveries::mark_all_notified(&mut *tx, row.share_id).await?;
    if let Some(owner) = crate::directory::find(&mut *tx, row.owner_id).await? {
        futuregrams::push(
            &mut *tx,
            &Outgoing {
                share_id: row.share_id,
                channel: "email",
                address: &owner.email,
                subject: "Your futuregram was released",
                body: &format!(
                    "Your futuregram of {} was released to {}.\n",
                    share.folder_name,
                    sent_to.join(", ")
                ),
            },
        )
        .await?;
    }
    tracing::info!(share.id = %row.share_id, "futuregram released");
    Ok(())
}

/// Sends what the outbox holds; a message that cannot be sent is tried again on a later pass.
pub async fn send_outbox(state: &AppState) -> anyhow::Result<usize> {
    let now = state.settings.clock.now();
    let mut conn = state.pool.acquire().await?;
    let claimed =
        futuregrams::claim_outbox(&mut conn, now, now + chrono::Duration::seconds(60), 50).await?;
    let mut sent = 0;
    for message in claimed {
        match state
            .messengers
            .send(
                &message.channel,
                &message.address,
                &message.subject,
                &message.body,
            )
            .await
        {
            Ok(()) => {
                futuregrams::sent(&mut conn, message.id).await?;
                sent += 1;
            }
            Err(err) => {
                tracing::warn!(message.id = %message.id, error = ?err, "a futuregram message could not be sent; it will be retried");
                futuregrams::unclaim(&mut conn, message.id).await?;
            }
        }
    }
    Ok(sent)
}

async fn release_holds(state: &AppState) -> anyhow::Result<()> {
    let mut conn = state.pool.acquire().await?;
    for (share_id, owner) in shares::holds_to_release(&mut conn, 20).await? {
        if let_go(state, owner, share_id).await {
            shares::hold_released(&mut conn, share_id).await?;
        }
    }
    for (share_id, owner) in futuregrams::holds_to_release(&mut conn, 20).await? {
        if let_go(state, owner, share_id).await {
            futuregrams::hold_released(&mut conn, share_id).await?;
        }
    }
    Ok(())
}

/// Asks evidence to let go of the share's items; false (and a warning) when it could not, to be
/// asked again at the next pass.
async fn let_go(state: &AppState, owner: uuid::Uuid, share_id: uuid::Uuid) -> bool {
    match state.evidence.release_hold(owner, share_id).await {
        Ok(()) => true,
        Err(err) => {
            tracing::warn!(share.id = %share_id, error = ?err, "evidence did not let go of a share's items; tried again later");
            false
        }
    }
}
