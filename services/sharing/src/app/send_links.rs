//! Sends each recipient of a paid share the link to their copies, by e-mail or SMS. A message
//! is claimed (marked sent) before it goes, so two replicas never both send it, and unmarked
//! again if sending fails, so it is retried.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::{state::AppState, store::deliveries};

pub async fn run(state: AppState, shutdown: CancellationToken) {
    loop {
        if let Err(err) = send_pending(&state).await {
            tracing::error!(error = ?err, "sending share links failed");
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = state.work.notified() => {}
            () = tokio::time::sleep(Duration::from_secs(5)) => {}
        }
    }
}

pub async fn send_pending(state: &AppState) -> anyhow::Result<usize> {
    let mut tx = state.pool.begin().await?;
    let pending = deliveries::claim_unsent(&mut tx, 20).await?;
    for opened in &pending {
        deliveries::mark_notified(&mut tx, opened.delivery.id).await?;
    }
    tx.commit().await?;
    let mut sent = 0;
    for opened in pending {
        let d = &opened.delivery;
        let url = state.links.recipient_url(d.id);
        let from = opened
            .generated_for
            .as_deref()
            .map_or_else(|| "Someone".to_owned(), str::to_owned);
        let text = format!(
            "{from} shared {} with you on Evidentia as {} copies.\n\nOpen them here: {url}\n\nTo open them you will be sent a code at this address.\n",
            opened.folder_name,
            if opened.copy_type == "authenticated" {
                "authenticated"
            } else {
                "unauthenticated"
            },
        );
        match state
            .messengers
            .send(
                &d.channel,
                &d.address,
                &format!("{from} shared files with you"),
                &text,
            )
            .await
        {
            Ok(()) => sent += 1,
            Err(err) => {
                tracing::warn!(delivery.id = %d.id, error = ?err, "a share link could not be sent; it will be retried");
                let mut conn = state.pool.acquire().await?;
                deliveries::unmark_notified(&mut conn, d.id).await?;
            }
        }
    }
    Ok(sent)
}
