//! Tells a participant who is away that messages wait for them: one message (e-mail, or SMS for
//! a recipient reached by phone) when something has waited unread longer than
//! `chat_away_after`, and no other until they have looked at the conversation again, however
//! many messages arrive meanwhile. The owner's message links to their conversation, a
//! recipient's to the link of their share (a new code opens it).

use std::time::Duration;

use chrono::Utc;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::{
    app::chat::OWNER,
    directory,
    state::AppState,
    store::{chat, deliveries},
};

pub async fn run(state: AppState, shutdown: CancellationToken) {
    loop {
        if let Err(err) = notify_away(&state).await {
            tracing::error!(error = ?err, "telling participants of unread messages failed");
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(state.settings.chat_notify_every.max(Duration::from_millis(100))) => {}
        }
    }
}

fn plural(n: i64) -> String {
    if n == 1 {
        "1 new message".to_owned()
    } else {
        format!("{n} new messages")
    }
}

pub async fn notify_away(state: &AppState) -> anyhow::Result<usize> {
    let away_after = chrono::Duration::from_std(state.settings.chat_away_after)?;
    let mut tx = state.pool.begin().await?;
    let due = chat::claim_away(&mut tx, Utc::now() - away_after, 50).await?;
    tx.commit().await?;
    let mut sent = 0;
    for away in due {
        let mut conn = state.pool.acquire().await?;
        let about = format!(
            "You have {} about {} on Evidentia.",
            plural(away.unread),
            away.folder_name
        );
        let target = if away.participant == OWNER {
            directory::find(&mut conn, away.owner_id)
                .await?
                .map(|entry| {
                    (
                        "email".to_owned(),
                        entry.email,
                        state.links.app_url(&format!("/chats/{}", away.share_id)),
                    )
                })
        } else {
            match Uuid::parse_str(&away.participant) {
                Ok(delivery) => deliveries::open(&mut conn, delivery).await?.map(|opened| {
                    (
                        opened.delivery.channel,
                        opened.delivery.address,
                        state.links.recipient_url(delivery),
                    )
                }),
                Err(_) => None,
            }
        };
        // A participant with nowhere to write to (a deleted account) stays marked as told.
        let Some((channel, address, url)) = target else {
            continue;
        };
        let text = format!("{about}\n\nRead and answer them here: {url}\n");
        match state
            .messengers
            .send(&channel, &address, "New messages on Evidentia", &text)
            .await
        {
            Ok(()) => sent += 1,
            Err(err) => {
                tracing::warn!(share.id = %away.share_id, error = ?err, "a chat notice could not be sent; it will be retried");
                chat::unclaim(&mut conn, away.share_id, &away.participant).await?;
            }
        }
    }
    Ok(sent)
}
