//! Futuregrams with the scheduler's clock moved by the test: a dated release happens exactly once
//! with two sharing replicas running, its recipient sees watermarked copies whose numbers verify,
//! an expired view link is refreshed by mail; an executor's veto stops a dated release; an
//! executor-asked release waits for the owner, who can cancel it; a release due while sharing was
//! down happens when it returns; the items are kept until the release; a deleted owner's
//! futuregram waits for the account's recovery; another user's futuregram is NOT_FOUND.

use std::time::Duration;

use chrono::Utc;
use evidentia_common::{
    proto::{
        events::v1::{AccountDeleted, AccountRecovered},
        evidence::v1 as evidence_pb,
        sharing::v1::{self as pb, verify_request::By},
    },
    testing::{self, count_mail, field_errors, jpeg, read_message, reason, token_after, token_in},
    time::timestamp,
};
use tonic::{Code, Status};
use uuid::Uuid;

use crate::helpers::{TestApp, User, email, unique};

const DAY: Duration = Duration::from_secs(86_400);
const VIEW_LINK: &str = "/futuregram/view/";
const INVITATION: &str = "/futuregram/executor/accept/";

struct Scheduled {
    item: String,
    share_id: String,
    situation: String,
}

/// Executors by their e-mail addresses.
fn by_email(executors: &[&str]) -> Vec<pb::Executor> {
    executors
        .iter()
        .map(|&e| pb::Executor {
            email: e.into(),
            phone_number: None,
        })
        .collect()
}

/// A futuregram of `folder` for `recipient`, with `executors`, released at `release_at` (`None`:
/// by the executors), paid by card.
fn futuregram_of(
    folder: &str,
    recipient: &str,
    executors: &[&str],
    release_at: Option<chrono::DateTime<Utc>>,
) -> pb::CreateFuturegramRequest {
    pb::CreateFuturegramRequest {
        situation_id: Uuid::new_v4().to_string(),
        folder_id: folder.into(),
        copy_type: pb::CopyType::Authenticated as i32,
        recipients: vec![email(recipient)],
        executors: by_email(executors),
        release_at: release_at.map(timestamp),
        pay_with: "card".into(),
        idempotency_key: Uuid::now_v7().to_string(),
        ..Default::default()
    }
}

async fn create(
    app: &TestApp,
    owner: &User,
    request: pb::CreateFuturegramRequest,
) -> Result<pb::Futuregram, Status> {
    app.sharing()
        .create_futuregram(owner.req(request))
        .await
        .map(|r| r.into_inner().futuregram.unwrap())
}

/// Buys a futuregram of one photo for `recipient`, with `executors`, released at `release_at`
/// (`None`: by the executors).
async fn futuregram(
    app: &TestApp,
    owner: &User,
    recipient: &str,
    executors: &[&str],
    release_at: Option<chrono::DateTime<Utc>>,
) -> Scheduled {
    let folder = app.folder(owner, "Lease end").await;
    let uploaded = app
        .upload(owner, &folder, jpeg(320, 240, 90), "image/jpeg")
        .await;
    let request = futuregram_of(&folder, recipient, executors, release_at);
    let situation = request.situation_id.clone();
    let created = create(app, owner, request).await.unwrap();
    assert_eq!(created.state, "pending", "{created:?}");
    Scheduled {
        item: uploaded.id,
        share_id: created.share_id,
        situation,
    }
}

async fn respond(
    app: &TestApp,
    token: &str,
    email: &str,
    action: &str,
) -> Result<pb::ExecutorStanding, Status> {
    app.sharing()
        .respond_as_executor(pb::RespondAsExecutorRequest {
            token: token.into(),
            email: email.into(),
            action: action.into(),
        })
        .await
        .map(tonic::Response::into_inner)
}

async fn situation_of(app: &TestApp, user: &User, situation: &str) -> Vec<pb::Futuregram> {
    app.sharing()
        .list_situation_futuregrams(user.req(pb::ListSituationFuturegramsRequest {
            situation_id: situation.into(),
        }))
        .await
        .unwrap()
        .into_inner()
        .futuregrams
}

async fn situation(app: &TestApp, owner: &User, s: &Scheduled) -> pb::Futuregram {
    situation_of(app, owner, &s.situation).await.remove(0)
}

async fn state_becomes(app: &TestApp, owner: &User, s: &Scheduled, want: &str) -> pb::Futuregram {
    testing::eventually(want, Duration::from_secs(20), || async {
        let f = situation(app, owner, s).await;
        (f.state == want).then_some(f)
    })
    .await
}

async fn update_executors(
    app: &TestApp,
    user: &User,
    share: &str,
    executors: &[&str],
) -> Result<pb::Futuregram, Status> {
    app.sharing()
        .update_futuregram_executors(user.req(pb::UpdateFuturegramExecutorsRequest {
            share_id: share.into(),
            executors: by_email(executors),
        }))
        .await
        .map(tonic::Response::into_inner)
}

async fn update_recipients(
    app: &TestApp,
    user: &User,
    share: &str,
    recipients: &[&str],
) -> Result<pb::Futuregram, Status> {
    app.sharing()
        .update_futuregram_recipients(user.req(pb::UpdateFuturegramRecipientsRequest {
            share_id: share.into(),
            recipients: recipients.iter().map(|&r| email(r)).collect(),
        }))
        .await
        .map(tonic::Response::into_inner)
}

async fn view(app: &TestApp, token: &str) -> Result<pb::SharedFolder, Status> {
    app.sharing()
        .view_futuregram(pb::ViewFuturegramRequest {
            token: token.into(),
        })
        .await
        .map(tonic::Response::into_inner)
}

async fn delete_item(app: &TestApp, owner: &User, item: &str) -> Result<(), Status> {
    app.evidence()
        .delete_item(owner.req(evidence_pb::DeleteItemRequest {
            item_id: item.into(),
        }))
        .await
        .map(drop)
}

#[tokio::test]
async fn a_dated_futuregram_is_released_once_to_its_recipient() {
    let mut app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let recipient = unique("heir");
    let executor = unique("lawyer");
    let release_at = Utc::now() + chrono::Duration::days(2);
    let s = futuregram(&app, &owner, &recipient, &[&executor], Some(release_at)).await;

    // The invitation: a link carrying the token and the executor's address (which the screen
    // fills in), and the address must be the one it went to.
    let (token, invitation) = token_after(&executor, INVITATION, &[]).await;
    let address: String = form_urlencoded::byte_serialize(executor.as_bytes()).collect();
    assert!(
        invitation
            .replace("=3D", "=")
            .contains(&format!("{INVITATION}{token}?email={address}")),
        "{invitation}"
    );
    let refused = respond(&app, &token, "someone-else@example.com", "accepted")
        .await
        .unwrap_err();
    assert_eq!(
        field_errors(&refused).first(),
        Some(&(
            "email".to_owned(),
            "This is not the address the invitation was sent to.".to_owned()
        )),
        "{refused:?}"
    );
    let standing = respond(&app, &token, &executor, "accepted").await.unwrap();
    assert_eq!(standing.state, "accepted");
    assert!(!standing.can_veto, "the veto window is not open yet");
    let unknown = respond(&app, "NoSuchToken", &executor, "accepted")
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
    let f = situation(&app, &owner, &s).await;
    assert_eq!(f.executors[0].state, "accepted", "{f:?}");
    assert_eq!(f.recipients[0].sent_to, recipient, "{f:?}");

    // Until the release the photo is kept.
    let held = delete_item(&app, &owner, &s.item).await.unwrap_err();
    assert_eq!(reason(&held).as_deref(), Some("held"), "{held:?}");

    // Another user sees nothing of it and can change nothing.
    let other = app.sign_up().await;
    assert!(situation_of(&app, &other, &s.situation).await.is_empty());
    let refused = update_recipients(&app, &other, &s.share_id, &[&unique("thief")])
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");

    // A second replica runs the same scheduler; the date passes.
    app.spawn_sharing_replica().await;
    app.clock().advance(2 * DAY + Duration::from_secs(60));
    let (link, _) = token_after(&recipient, VIEW_LINK, &[]).await;
    state_becomes(&app, &owner, &s, "released").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        count_mail(&recipient, VIEW_LINK),
        1,
        "released exactly once"
    );

    // The recipient sees a watermarked copy whose number verifies.
    let shown = testing::eventually("the copy made", Duration::from_secs(60), || async {
        let shown = view(&app, &link).await.unwrap();
        (shown.items[0].state == "ready").then_some(shown)
    })
    .await;
    let watermark = shown.watermark.unwrap();
    assert_eq!(watermark.sent_to, recipient);
    app.verify(By::TransactionNumber(watermark.transaction_number))
        .await
        .unwrap();

    // Once the copies are made, the photo is the owner's to delete again.
    testing::eventually("the hold released", Duration::from_secs(20), || async {
        delete_item(&app, &owner, &s.item).await.ok()
    })
    .await;

    // Released: no more changes.
    let refused = update_executors(&app, &owner, &s.share_id, &[])
        .await
        .unwrap_err();
    assert_eq!(
        reason(&refused).as_deref(),
        Some("futuregram_state"),
        "{refused:?}"
    );

    // A week later the link has expired; a fresh one goes to the recipient's own address.
    app.clock().advance(8 * DAY);
    let expired = view(&app, &link).await.unwrap_err();
    assert_eq!(
        reason(&expired).as_deref(),
        Some("link_expired"),
        "{expired:?}"
    );
    app.sharing()
        .refresh_futuregram_link(pb::RefreshFuturegramLinkRequest {
            token: link.clone(),
            client_ip: String::new(),
        })
        .await
        .unwrap();
    let (fresh, _) = token_after(&recipient, VIEW_LINK, &[]).await;
    assert_ne!(fresh, link);
    view(&app, &fresh).await.unwrap();
}

#[tokio::test]
async fn an_executor_can_stop_a_dated_release_in_its_window() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let recipient = unique("heir");
    let executor = unique("sister");
    let declining = unique("friend");
    let release_at = Utc::now() + chrono::Duration::days(3);
    let s = futuregram(
        &app,
        &owner,
        &recipient,
        &[&executor, &declining],
        Some(release_at),
    )
    .await;
    let (token, _) = token_after(&executor, INVITATION, &[]).await;
    let (other, _) = token_after(&declining, "/futuregram/executor/decline/", &[]).await;
    respond(&app, &token, &executor, "accepted").await.unwrap();

    // A declined executor shows as declined, and the owner is told.
    respond(&app, &other, &declining, "declined").await.unwrap();
    read_message(&owner.email, "declined to be an executor", &[]).await;
    let f = situation(&app, &owner, &s).await;
    assert_eq!(f.executors[1].state, "declined", "{f:?}");

    // Too early to stop it.
    let early = respond(&app, &token, &executor, "veto").await.unwrap_err();
    assert_eq!(reason(&early).as_deref(), Some("futuregram_state"));

    // The window opens a day before: the executor is reminded with a fresh link and stops it.
    app.clock().advance(2 * DAY + Duration::from_secs(60));
    let reminder = read_message(&executor, "stop it here", &[]).await;
    let fresh = token_in(&reminder, INVITATION);
    let standing = respond(&app, &fresh, &executor, "veto").await.unwrap();
    assert_eq!(standing.futuregram_state, "vetoed");
    read_message(&owner.email, "stopped the release", &[]).await;

    // The date passes: nothing is released.
    app.clock().advance(2 * DAY);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(situation(&app, &owner, &s).await.state, "vetoed");
    assert_eq!(count_mail(&recipient, VIEW_LINK), 0);
}

#[tokio::test]
async fn executors_release_one_without_a_date_after_the_owner_may_cancel() {
    let mut app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let recipient = unique("insurer");
    let executor = unique("partner");

    // Without a date it needs an executor.
    let folder = app.folder(&owner, "Flood").await;
    let refused = create(
        &app,
        &owner,
        pb::CreateFuturegramRequest {
            copy_type: pb::CopyType::Unauthenticated as i32,
            ..futuregram_of(&folder, &recipient, &[], None)
        },
    )
    .await
    .unwrap_err();
    assert_eq!(
        field_errors(&refused).first(),
        Some(&(
            "executors".to_owned(),
            "Add an executor who can release it, or choose a release date.".to_owned()
        )),
        "{refused:?}"
    );

    let s = futuregram(&app, &owner, &recipient, &[&executor], None).await;
    let (token, _) = token_after(&executor, INVITATION, &[]).await;
    let early = respond(&app, &token, &executor, "release")
        .await
        .unwrap_err();
    assert_eq!(
        reason(&early).as_deref(),
        Some("futuregram_state"),
        "accept first: {early:?}"
    );
    respond(&app, &token, &executor, "accepted").await.unwrap();
    let standing = respond(&app, &token, &executor, "release").await.unwrap();
    assert_eq!(standing.futuregram_state, "waiting");
    read_message(&owner.email, "unless you cancel it", &[]).await;

    // The owner cancels; it waits for the executors again.
    let cancelled = app
        .sharing()
        .cancel_futuregram_release(owner.req(pb::CancelFuturegramReleaseRequest {
            share_id: s.share_id.clone(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(cancelled.state, "pending");
    app.clock().advance(3 * DAY);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(situation(&app, &owner, &s).await.state, "pending");

    // An executor who asked and then declines takes the request back: nobody asks any more.
    let standing = respond(&app, &token, &executor, "release").await.unwrap();
    assert_eq!(standing.futuregram_state, "waiting");
    let standing = respond(&app, &token, &executor, "declined").await.unwrap();
    assert_eq!(standing.futuregram_state, "pending");
    read_message(&owner.email, "is called off", &[]).await;
    app.clock().advance(3 * DAY);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(situation(&app, &owner, &s).await.state, "pending");
    assert_eq!(count_mail(&recipient, VIEW_LINK), 0);
    respond(&app, &token, &executor, "accepted").await.unwrap();

    // Asked again, and this time the waiting period passes while sharing is down.
    let standing = respond(&app, &token, &executor, "release").await.unwrap();
    assert_eq!(standing.futuregram_state, "waiting");
    app.stop_sharing().await;
    app.clock().advance(2 * DAY + Duration::from_secs(60));
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(count_mail(&recipient, VIEW_LINK), 0);
    app.start_sharing().await;
    token_after(&recipient, VIEW_LINK, &[]).await;
    state_becomes(&app, &owner, &s, "released").await;
    assert_eq!(count_mail(&recipient, VIEW_LINK), 1);
}

#[tokio::test]
async fn executors_and_recipients_change_until_the_release_within_what_was_paid() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let recipient = unique("heir");
    let first = unique("first");
    let second = unique("second");

    // A release past the folder's storage date is refused: the files would be gone by then.
    let folder = app.folder(&owner, "Long wait").await;
    app.upload(&owner, &folder, jpeg(64, 48, 10), "image/jpeg")
        .await;
    let too_late = Utc::now() + chrono::Duration::days(3650);
    let refused = create(
        &app,
        &owner,
        futuregram_of(&folder, &recipient, &[], Some(too_late)),
    )
    .await
    .unwrap_err();
    assert_eq!(
        field_errors(&refused).first().map(|(f, _)| f.as_str()),
        Some("release_at"),
        "{refused:?}"
    );

    let s = futuregram(
        &app,
        &owner,
        &recipient,
        &[&first],
        Some(Utc::now() + chrono::Duration::days(5)),
    )
    .await;
    let (old, _) = token_after(&first, INVITATION, &[]).await;

    // The first executor is replaced: their link stops working, the new one is invited.
    let changed = update_executors(&app, &owner, &s.share_id, &[&second])
        .await
        .unwrap();
    assert_eq!(changed.executors[0].email, second, "{changed:?}");
    assert_eq!(changed.executors[0].state, "invited", "{changed:?}");
    let removed = respond(&app, &old, &first, "accepted").await.unwrap_err();
    assert_eq!(
        removed.code(),
        Code::NotFound,
        "a removed executor's link stops working"
    );
    let (new, _) = token_after(&second, INVITATION, &[]).await;
    respond(&app, &new, &second, "accepted").await.unwrap();

    // A view link's token names nothing among executors, and the other way round.
    let crossed = view(&app, &new).await.unwrap_err();
    assert_eq!(crossed.code(), Code::NotFound);

    // Recipients may change, not grow past what was paid for.
    let other = unique("other");
    let refused = update_recipients(&app, &owner, &s.share_id, &[&other, &unique("more")])
        .await
        .unwrap_err();
    assert_eq!(
        field_errors(&refused).first().map(|(f, _)| f.as_str()),
        Some("recipients"),
        "{refused:?}"
    );
    let changed = update_recipients(&app, &owner, &s.share_id, &[&other])
        .await
        .unwrap();
    assert_eq!(changed.recipients[0].sent_to, other, "{changed:?}");

    // The release goes to the new recipient only.
    app.clock().advance(5 * DAY + Duration::from_secs(60));
    token_after(&other, VIEW_LINK, &[]).await;
    state_becomes(&app, &owner, &s, "released").await;
    assert_eq!(count_mail(&recipient, VIEW_LINK), 0);
}

/// The futuregram's state in sharing's database, if it has a row.
/// Requests sent together with one key make one futuregram and one charge, each answered with it,
/// and its photo is held.
#[tokio::test]
async fn requests_sent_together_with_one_key_make_one_futuregram() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let folder = app.folder(&owner, "Lease end").await;
    let photo = app
        .upload(&owner, &folder, jpeg(320, 240, 90), "image/jpeg")
        .await;
    let request = futuregram_of(&folder, &unique("heir"), &[], Some(Utc::now() + 3 * DAY));
    let answers =
        futures::future::join_all((0..4).map(|_| create(&app, &owner, request.clone()))).await;
    let ids: Vec<String> = answers
        .into_iter()
        .map(|answer| answer.expect("every request is answered").share_id)
        .collect();
    assert!(
        ids.iter().all(|id| *id == ids[0]),
        "one futuregram: {ids:?}"
    );
    assert_eq!(
        situation_of(&app, &owner, &request.situation_id)
            .await
            .len(),
        1
    );
    let purchases = app.sharing_purchases(&owner).await;
    assert_eq!(purchases.len(), 1, "one purchase: {purchases:?}");
    let held = delete_item(&app, &owner, &photo.id).await.unwrap_err();
    assert_eq!(reason(&held).as_deref(), Some("held"), "{held:?}");
}

async fn futuregram_state(app: &TestApp, share_id: &str) -> Option<String> {
    let mut conn = testing::connect(app.sharing_db()).await;
    sqlx::query_scalar!(
        "SELECT state FROM futuregrams WHERE share_id = $1",
        Uuid::parse_str(share_id).unwrap()
    )
    .fetch_optional(&mut conn)
    .await
    .unwrap()
}

/// Whether sharing's directory has the futuregram's owner as "live" or "deleted", if it has
/// the futuregram.
async fn owner_in_directory(app: &TestApp, share_id: &str) -> Option<String> {
    let mut conn = testing::connect(app.sharing_db()).await;
    sqlx::query_scalar!(
        r#"SELECT CASE WHEN a.deleted_at IS NULL THEN 'live' ELSE 'deleted' END AS "marked!"
           FROM futuregrams f JOIN account_directory a ON a.user_id = f.owner_id
           WHERE f.share_id = $1"#,
        Uuid::parse_str(share_id).unwrap()
    )
    .fetch_optional(&mut conn)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_deleted_owners_futuregram_waits_until_the_account_is_recovered() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let recipient = unique("heir");
    let s = futuregram(
        &app,
        &owner,
        &recipient,
        &[],
        Some(Utc::now() + chrono::Duration::days(1)),
    )
    .await;

    app.publish(&AccountDeleted {
        user_id: owner.id.to_string(),
        reason: "privacy".to_owned(),
        recoverable_until: Some(timestamp(Utc::now() + chrono::Duration::days(30))),
        occurred_at: Some(timestamp(Utc::now())),
    })
    .await;
    assert_eq!(
        owner_in_directory(&app, &s.share_id).await.as_deref(),
        Some("deleted")
    );

    // The date passes while the account is deleted: nothing is released.
    app.clock().advance(DAY + Duration::from_secs(60));
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        futuregram_state(&app, &s.share_id).await.as_deref(),
        Some("pending")
    );
    assert_eq!(count_mail(&recipient, VIEW_LINK), 0);

    // Recovered: it is released, once.
    app.publish(&AccountRecovered {
        user_id: owner.id.to_string(),
        occurred_at: Some(timestamp(Utc::now())),
    })
    .await;
    token_after(&recipient, VIEW_LINK, &[]).await;
    assert_eq!(
        futuregram_state(&app, &s.share_id).await.as_deref(),
        Some("released")
    );
    assert_eq!(count_mail(&recipient, VIEW_LINK), 1);
}
