//! The copy renderer: takes the next copy to make, streams the original from evidence into a
//! scratch folder, burns the watermark in (images in Rust, video and audio with ffmpeg), stores
//! the copy under sharing's own prefix and logs its hash in the item's custody log. An
//! authenticated copy is signed with a C2PA manifest before it is hashed and stored. A failed
//! attempt is retried later; after a few, the copy is marked failed.

use std::{path::PathBuf, time::Duration};

use chrono::Utc;
use tokio_util::sync::CancellationToken;

use crate::{
    app::custody::{self, Kind, Whose},
    domain::written_time,
    outbound::{self, COPIES_PREFIX},
    render::{self, Banner, Rendered, provenance::CopyFacts},
    state::AppState,
    store::copies::{self, Job},
};

/// How long a worker holds a copy before another may take it over.
const LEASE_SECS: f64 = 900.0;
/// The longest one render may take.
const RENDER_TIMEOUT: Duration = Duration::from_secs(840);

pub fn banner(job: &Job) -> Banner {
    Banner {
        copy_type: if job.copy_type == "authenticated" {
            render::CopyType::Authenticated
        } else {
            render::CopyType::Unauthenticated
        },
        generated_for: job.generated_for.clone(),
        sent_to: job.sent_to.clone(),
        generated_on: written_time(job.created_at),
        transaction_number: job.transaction_number.clone(),
    }
}

/// Runs until shutdown, woken when a share is paid and every few seconds.
pub async fn run(state: AppState, shutdown: CancellationToken) {
    loop {
        match render_next(&state).await {
            Ok(true) => continue,
            Ok(false) => {}
            Err(err) => tracing::error!(error = ?err, "the copy renderer failed"),
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = state.work.notified() => {}
            () = tokio::time::sleep(Duration::from_secs(5)) => {}
        }
    }
}

/// A scratch folder for one copy, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Err(err) = std::fs::remove_dir_all(&self.0) {
            tracing::warn!(error = %err, path = %self.0.display(), "cannot remove a copy's scratch folder");
        }
    }
}

/// Renders one copy; `false` when there was none to make.
pub async fn render_next(state: &AppState) -> anyhow::Result<bool> {
    let mut conn = state.pool.acquire().await?;
    let Some(job) = copies::claim(&mut conn, LEASE_SECS).await? else {
        return Ok(false);
    };
    drop(conn);
    let outcome = tokio::time::timeout(RENDER_TIMEOUT, make(state, &job))
        .await
        .unwrap_or_else(|_| {
            Err(anyhow::anyhow!(
                "rendering took longer than {RENDER_TIMEOUT:?}"
            ))
        });
    let mut tx = state.pool.begin().await?;
    match outcome {
        Ok((key, rendered)) => {
            let size = i64::try_from(rendered.size_bytes).unwrap_or(i64::MAX);
            if copies::finish(
                &mut tx,
                job.id,
                &key,
                rendered.content_type,
                &rendered.sha256,
                size,
            )
            .await?
            {
                custody::append(
                    &mut tx,
                    job.owner_id,
                    job.item_id,
                    Whose::delivery(job.share_id, job.delivery_id),
                    Kind::CopyGenerated,
                    Utc::now(),
                    &format!(
                        "for {} ({}), SHA-256 {}",
                        job.sent_to, job.transaction_number, rendered.sha256
                    ),
                )
                .await?;
            }
            tracing::info!(copy.id = %job.id, "copy ready");
        }
        Err(err) => {
            let give_up = job.attempts >= state.settings.render_attempts;
            tracing::warn!(copy.id = %job.id, attempt = job.attempts, give_up, error = ?err, "a copy could not be made");
            let retry = 30.0 * f64::from(job.attempts.max(1));
            copies::fail(&mut tx, job.id, &format!("{err:#}"), give_up, retry).await?;
        }
    }
    tx.commit().await?;
    Ok(true)
}

async fn make(state: &AppState, job: &Job) -> anyhow::Result<(String, Rendered)> {
    let settings = &state.settings;
    let dir = settings.work_dir.join(format!("copy-{}", job.id));
    tokio::fs::create_dir_all(&dir).await?;
    let scratch = Scratch(dir);
    let original = scratch.0.join("original");
    outbound::save_original(
        state.evidence.as_ref(),
        job.owner_id,
        job.item_id,
        &original,
    )
    .await
    .map_err(|err| anyhow::anyhow!("reading the original: {err}"))?;
    let banner = banner(job);
    let (output, rendered) = match job.media_type.as_str() {
        "image" => {
            let output = scratch.0.join("copy.jpg");
            let (input, out) = (original.clone(), output.clone());
            let rendered = tokio::task::spawn_blocking(move || {
                render::image::render_image(&input, &out, &banner)
            })
            .await??;
            (output, rendered)
        }
        "video" => {
            let output = scratch.0.join("copy.mp4");
            let rendered = render::video::render_video(
                &settings.ffmpeg,
                &original,
                &output,
                &banner,
                &settings.work_dir,
            )
            .await?;
            (output, rendered)
        }
        _ => {
            let output = scratch.0.join("copy.mp4");
            let rendered = render::audio::render_audio(
                &settings.ffmpeg,
                &original,
                &output,
                &banner,
                &settings.work_dir,
            )
            .await?;
            (output, rendered)
        }
    };
    let extension = if rendered.content_type == "image/jpeg" {
        "jpg"
    } else {
        "mp4"
    };
    // An authenticated copy carries its C2PA manifest; its hash is the signed file's.
    let (output, rendered) = if job.copy_type == "authenticated" {
        let signed = scratch.0.join(format!("copy.signed.{extension}"));
        let facts = CopyFacts {
            transaction_number: job.transaction_number.clone(),
            generated_for: job.generated_for.clone(),
            sent_to: job.sent_to.clone(),
            generated_on: job.created_at,
            original_name: job.original_name.clone(),
            original_sha256: job.original_sha256.clone(),
        };
        let provenance = state.provenance.clone();
        let content_type = rendered.content_type;
        let (input, out) = (output.clone(), signed.clone());
        let described = tokio::task::spawn_blocking(move || {
            provenance.sign(&input, &out, content_type, &facts)?;
            Ok::<_, anyhow::Error>(render::describe(&out, content_type)?)
        })
        .await??;
        (signed, described)
    } else {
        (output, rendered)
    };
    let key = format!("{COPIES_PREFIX}{}/{}.{extension}", job.share_id, job.id);
    state
        .copies
        .put_file(&key, &output, rendered.content_type)
        .await?;
    Ok((key, rendered))
}
