//! Futuregrams through the gateway against the real components, with the scheduler's clock moved
//! by the test: a dated release happens exactly once with two sharing replicas running, its
//! recipient sees watermarked copies whose numbers verify, an expired view link is refreshed by
//! mail; an executor's veto stops a dated release; an executor-asked release waits for the
//! owner, who can cancel it; a release due while sharing was down happens when it returns; the
//! items are kept until the release; another user's futuregram is 404.

use std::time::Duration;

use crate::support::{
    OK_CARD, SignedUp, Stack, folder, jpeg, mail_dir, read_message, upload, with_default_card,
};
use chrono::{SecondsFormat, Utc};
use evidentia_common::testing;
use serde_json::{Value, json};
use uuid::Uuid;

const DAY: Duration = Duration::from_secs(86_400);

fn unique(prefix: &str) -> String {
    format!("{prefix}-{}@example.com", Uuid::now_v7().simple())
}

struct Scheduled {
    item: String,
    share_id: String,
    situation: String,
}

/// Buys a futuregram of one photo for `recipient`, with `executors`, released at `release_at`
/// (`None`: by the executors).
async fn futuregram(
    stack: &Stack,
    owner: &SignedUp,
    recipient: &str,
    executors: &[&str],
    release_at: Option<chrono::DateTime<Utc>>,
) -> Scheduled {
    let folder = folder(stack, &owner.access, "Lease end").await;
    let uploaded = upload(
        stack,
        &owner.access,
        &folder,
        jpeg(320, 240, 90),
        "image/jpeg",
    )
    .await;
    let situation = Uuid::new_v4().to_string();
    let (status, created) = create(
        stack,
        owner,
        &Uuid::now_v7().to_string(),
        &json!({
            "situation_id": situation,
            "folder_id": folder,
            "copy_type": "authenticated",
            "recipients": [{ "email": recipient }],
            "executors": executors.iter().map(|e| json!({ "email": e })).collect::<Vec<_>>(),
            "release_at": release_at.map(|at| at.to_rfc3339_opts(SecondsFormat::Secs, true)),
            "pay_with": "card",
        }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["futuregram"]["state"], "pending", "{created}");
    Scheduled {
        item: uploaded["id"].as_str().unwrap().to_owned(),
        share_id: created["futuregram"]["share_id"]
            .as_str()
            .unwrap()
            .to_owned(),
        situation,
    }
}

async fn create(stack: &Stack, owner: &SignedUp, key: &str, body: &Value) -> (u16, Value) {
    let response = stack
        .http
        .post(stack.url("sharing/scheduled-shares/create/"))
        .bearer_auth(&owner.access)
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The token after `marker` in the newest message to `to` that holds it.
async fn token_in_mail(to: &str, marker: &str, seen: &[String]) -> (String, String) {
    let message = read_message(to, marker, seen).await;
    let at = message.find(marker).unwrap() + marker.len();
    let token: String = message[at..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    (token, message)
}

/// The owner's PUT of `sharing/futuregram/{share}/{what}/update/`.
async fn update(stack: &Stack, access: &str, share: &str, what: &str, body: Value) -> (u16, Value) {
    stack
        .send_auth(
            reqwest::Method::PUT,
            &format!("sharing/futuregram/{share}/{what}/update/"),
            access,
            Some(body),
        )
        .await
}

async fn respond(stack: &Stack, token: &str, email: &str, action: &str) -> (u16, Value) {
    stack
        .post(
            &format!("sharing/futuregram/executor/respond/{token}/"),
            json!({ "email": email, "action": action }),
        )
        .await
}

async fn situation(stack: &Stack, owner: &SignedUp, s: &Scheduled) -> Value {
    let (status, body) = stack
        .get_auth(
            &format!("sharing/futuregram/situation/{}/", s.situation),
            &owner.access,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["futuregrams"][0].clone()
}

/// Messages to `to` in the mail sink that contain `needle`.
fn count_mail(to: &str, needle: &str) -> usize {
    std::fs::read_dir(mail_dir())
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .map(|t| t.replace("=\r\n", ""))
                .filter(|t| t.contains(&format!("To: {to}")) && t.contains(needle))
                .count()
        })
        .unwrap_or(0)
}

async fn state_becomes(stack: &Stack, owner: &SignedUp, s: &Scheduled, want: &str) -> Value {
    testing::eventually(want, Duration::from_secs(20), || async {
        let f = situation(stack, owner, s).await;
        (f["state"] == want).then_some(f)
    })
    .await
}

#[tokio::test]
async fn a_dated_futuregram_is_released_once_to_its_recipient() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let recipient = unique("heir");
    let executor = unique("lawyer");
    let release_at = Utc::now() + chrono::Duration::days(2);
    let s = futuregram(&stack, &owner, &recipient, &[&executor], Some(release_at)).await;

    // The invitation: a link, and the address must be the one it went to.
    let (token, _) = token_in_mail(&executor, "/futuregram/executor/accept/", &[]).await;
    let (status, body) = respond(&stack, &token, "someone-else@example.com", "accepted").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "email", "{body}");
    assert_eq!(
        body["errors"][0]["message"],
        "This is not the address the invitation was sent to."
    );
    let (status, body) = respond(&stack, &token, &executor, "accepted").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["state"], "accepted");
    assert_eq!(body["can_veto"], false, "the veto window is not open yet");
    let (status, _) = respond(&stack, "NoSuchToken", &executor, "accepted").await;
    assert_eq!(status, 404);
    let f = situation(&stack, &owner, &s).await;
    assert_eq!(f["executors"][0]["state"], "accepted", "{f}");
    assert_eq!(f["recipients"][0]["sent_to"], recipient.as_str(), "{f}");

    // Until the release the photo is kept.
    let (status, body) = stack
        .send_auth(
            reqwest::Method::DELETE,
            &format!("evidence/items/{}/delete/", s.item),
            &owner.access,
            None,
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["code"], "held", "{body}");

    // Another user sees nothing of it and can change nothing.
    let other = stack.sign_up().await;
    let (status, body) = stack
        .get_auth(
            &format!("sharing/futuregram/situation/{}/", s.situation),
            &other.access,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["futuregrams"], json!([]), "{body}");
    let (status, _) = update(
        &stack,
        &other.access,
        &s.share_id,
        "recipients",
        json!({ "recipients": [{ "email": unique("thief") }] }),
    )
    .await;
    assert_eq!(status, 404);

    // A second replica runs the same scheduler; the date passes.
    stack.spawn_sharing_replica().await;
    stack.clock.advance(2 * DAY + Duration::from_secs(60));
    let (view, _) = token_in_mail(&recipient, "/futuregram/view/", &[]).await;
    state_becomes(&stack, &owner, &s, "released").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        count_mail(&recipient, "/futuregram/view/"),
        1,
        "released exactly once"
    );

    // The recipient sees a watermarked copy whose number verifies.
    let shown = testing::eventually("the copy made", Duration::from_secs(60), || async {
        let (status, body) = stack.get(&format!("sharing/futuregram/view/{view}/")).await;
        assert_eq!(status, 200, "{body}");
        (body["items"][0]["state"] == "ready").then_some(body)
    })
    .await;
    let number = shown["watermark"]["transaction_number"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(shown["watermark"]["sent_to"], recipient.as_str());
    let (status, verified) = stack.get(&format!("sharing/verify/{number}/")).await;
    assert_eq!(status, 200, "{verified}");

    // Once the copies are made, the photo is the owner's to delete again.
    testing::eventually("the hold released", Duration::from_secs(20), || async {
        let (status, _) = stack
            .get_auth(&format!("evidence/items/{}/", s.item), &owner.access)
            .await;
        assert_eq!(status, 200);
        let (status, _) = stack
            .send_auth(
                reqwest::Method::DELETE,
                &format!("evidence/items/{}/delete/", s.item),
                &owner.access,
                None,
            )
            .await;
        (status == 204 || status == 200).then_some(())
    })
    .await;

    // Released: no more changes.
    let (status, body) = update(
        &stack,
        &owner.access,
        &s.share_id,
        "executors",
        json!({ "executors": [] }),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["code"], "futuregram_state", "{body}");

    // A week later the link has expired; a fresh one goes to the recipient's own address.
    stack.clock.advance(8 * DAY);
    let (status, body) = stack.get(&format!("sharing/futuregram/view/{view}/")).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["code"], "link_expired", "{body}");
    let (status, body) = stack
        .post(
            &format!("sharing/futuregram/refresh-token/{view}/"),
            json!({}),
        )
        .await;
    assert_eq!(status, 202, "{body}");
    assert!(body.get("token").is_none(), "{body}");
    let (fresh, _) = token_in_mail(&recipient, "/futuregram/view/", &[]).await;
    assert_ne!(fresh, view);
    let (status, body) = stack
        .get(&format!("sharing/futuregram/view/{fresh}/"))
        .await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn an_executor_can_stop_a_dated_release_in_its_window() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let recipient = unique("heir");
    let executor = unique("sister");
    let declining = unique("friend");
    let release_at = Utc::now() + chrono::Duration::days(3);
    let s = futuregram(
        &stack,
        &owner,
        &recipient,
        &[&executor, &declining],
        Some(release_at),
    )
    .await;
    let (token, _) = token_in_mail(&executor, "/futuregram/executor/accept/", &[]).await;
    let (other, _) = token_in_mail(&declining, "/futuregram/executor/decline/", &[]).await;
    let (status, _) = respond(&stack, &token, &executor, "accepted").await;
    assert_eq!(status, 200);

    // A declined executor shows as declined, and the owner is told.
    let (status, body) = respond(&stack, &other, &declining, "declined").await;
    assert_eq!(status, 200, "{body}");
    read_message(&owner.email, "declined to be an executor", &[]).await;
    let f = situation(&stack, &owner, &s).await;
    assert_eq!(f["executors"][1]["state"], "declined", "{f}");

    // Too early to stop it.
    let (status, body) = respond(&stack, &token, &executor, "veto").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["code"], "futuregram_state");

    // The window opens a day before: the executor is reminded with a fresh link and stops it.
    stack.clock.advance(2 * DAY + Duration::from_secs(60));
    let message = read_message(&executor, "stop it here", &[]).await;
    let at = message.find("/futuregram/executor/accept/").unwrap() + 28;
    let fresh: String = message[at..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    let (status, body) = respond(&stack, &fresh, &executor, "veto").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["futuregram_state"], "vetoed");
    read_message(&owner.email, "stopped the release", &[]).await;

    // The date passes: nothing is released.
    stack.clock.advance(2 * DAY);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(situation(&stack, &owner, &s).await["state"], "vetoed");
    assert_eq!(count_mail(&recipient, "/futuregram/view/"), 0);
}

#[tokio::test]
async fn executors_release_one_without_a_date_after_the_owner_may_cancel() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let recipient = unique("insurer");
    let executor = unique("partner");

    // Without a date it needs an executor.
    let folder_id = folder(&stack, &owner.access, "Flood").await;
    let (status, body) = create(
        &stack,
        &owner,
        &Uuid::now_v7().to_string(),
        &json!({
            "situation_id": Uuid::new_v4().to_string(),
            "folder_id": folder_id,
            "copy_type": "unauthenticated",
            "recipients": [{ "email": recipient }],
            "pay_with": "card",
        }),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "executors", "{body}");
    assert_eq!(
        body["errors"][0]["message"],
        "Add an executor who can release it, or choose a release date."
    );

    let s = futuregram(&stack, &owner, &recipient, &[&executor], None).await;
    let (token, _) = token_in_mail(&executor, "/futuregram/executor/accept/", &[]).await;
    let (status, body) = respond(&stack, &token, &executor, "release").await;
    assert_eq!(status, 400, "accept first: {body}");
    respond(&stack, &token, &executor, "accepted").await;
    let (status, body) = respond(&stack, &token, &executor, "release").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["futuregram_state"], "waiting");
    read_message(&owner.email, "unless you cancel it", &[]).await;

    // The owner cancels; it waits for the executors again.
    let (status, body) = stack
        .post_auth(
            &format!("sharing/futuregram/{}/cancel-release/", s.share_id),
            &owner.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["state"], "pending");
    stack.clock.advance(3 * DAY);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(situation(&stack, &owner, &s).await["state"], "pending");

    // Asked again, and this time the waiting period passes while sharing is down.
    let (status, body) = respond(&stack, &token, &executor, "release").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["futuregram_state"], "waiting");
    stack.stop_sharing();
    tokio::time::sleep(Duration::from_millis(500)).await;
    stack.clock.advance(2 * DAY + Duration::from_secs(60));
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(count_mail(&recipient, "/futuregram/view/"), 0);
    stack.start_sharing().await;
    token_in_mail(&recipient, "/futuregram/view/", &[]).await;
    state_becomes(&stack, &owner, &s, "released").await;
    assert_eq!(count_mail(&recipient, "/futuregram/view/"), 1);
}

#[tokio::test]
async fn executors_and_recipients_change_until_the_release_within_what_was_paid() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let recipient = unique("heir");
    let first = unique("first");
    let second = unique("second");

    // A release past the folder's storage date is refused: the files would be gone by then.
    let folder_id = folder(&stack, &owner.access, "Long wait").await;
    upload(
        &stack,
        &owner.access,
        &folder_id,
        jpeg(64, 48, 10),
        "image/jpeg",
    )
    .await;
    let (status, body) = create(
        &stack,
        &owner,
        &Uuid::now_v7().to_string(),
        &json!({
            "situation_id": Uuid::new_v4().to_string(),
            "folder_id": folder_id,
            "copy_type": "authenticated",
            "recipients": [{ "email": recipient }],
            "release_at": (Utc::now() + chrono::Duration::days(3650)).to_rfc3339_opts(SecondsFormat::Secs, true),
            "pay_with": "card",
        }),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "release_at", "{body}");

    let s = futuregram(
        &stack,
        &owner,
        &recipient,
        &[&first],
        Some(Utc::now() + chrono::Duration::days(5)),
    )
    .await;
    let (old, _) = token_in_mail(&first, "/futuregram/executor/accept/", &[]).await;

    // The first executor is replaced: their link stops working, the new one is invited.
    let (status, body) = update(
        &stack,
        &owner.access,
        &s.share_id,
        "executors",
        json!({ "executors": [{ "email": second }] }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["executors"][0]["email"], second.as_str(), "{body}");
    assert_eq!(body["executors"][0]["state"], "invited", "{body}");
    let (status, _) = respond(&stack, &old, &first, "accepted").await;
    assert_eq!(status, 404, "a removed executor's link stops working");
    let (new, _) = token_in_mail(&second, "/futuregram/executor/accept/", &[]).await;
    let (status, _) = respond(&stack, &new, &second, "accepted").await;
    assert_eq!(status, 200);

    // A view link's token names nothing among executors, and the other way round.
    let (status, _) = stack.get(&format!("sharing/futuregram/view/{new}/")).await;
    assert_eq!(status, 404);

    // Recipients may change, not grow past what was paid for.
    let other = unique("other");
    let (status, body) = update(
        &stack,
        &owner.access,
        &s.share_id,
        "recipients",
        json!({ "recipients": [{ "email": other }, { "email": unique("more") }] }),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "recipients", "{body}");
    let (status, body) = update(
        &stack,
        &owner.access,
        &s.share_id,
        "recipients",
        json!({ "recipients": [{ "email": other }] }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["recipients"][0]["sent_to"], other.as_str(), "{body}");

    // The release goes to the new recipient only.
    stack.clock.advance(5 * DAY + Duration::from_secs(60));
    token_in_mail(&other, "/futuregram/view/", &[]).await;
    state_becomes(&stack, &owner, &s, "released").await;
    assert_eq!(count_mail(&recipient, "/futuregram/view/"), 0);
}

/// The futuregram's state in sharing's database, if it has a row.
async fn futuregram_state(stack: &Stack, share_id: &str) -> Option<String> {
    let mut conn = testing::connect(&stack.sharing_db).await;
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
async fn owner_in_directory(stack: &Stack, share_id: &str) -> Option<String> {
    let mut conn = testing::connect(&stack.sharing_db).await;
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
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let recipient = unique("heir");
    let s = futuregram(
        &stack,
        &owner,
        &recipient,
        &[],
        Some(Utc::now() + chrono::Duration::days(1)),
    )
    .await;

    let (status, token) = stack
        .post_auth(
            "accounts/password/verify/",
            &owner.access,
            json!({ "password": "Secret12#" }),
        )
        .await;
    assert_eq!(status, 200, "{token}");
    let (status, deleted) = stack
        .post_auth(
            "accounts/delete/",
            &owner.access,
            json!({ "reason_id": "privacy", "password_token": token["password_token"] }),
        )
        .await;
    assert_eq!(status, 200, "{deleted}");
    testing::eventually(
        "sharing told of the deletion",
        Duration::from_secs(20),
        || async {
            (owner_in_directory(&stack, &s.share_id).await.as_deref() == Some("deleted"))
                .then_some(())
        },
    )
    .await;

    // The date passes while the account is deleted: nothing is released.
    stack.clock.advance(DAY + Duration::from_secs(60));
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        futuregram_state(&stack, &s.share_id).await.as_deref(),
        Some("pending")
    );
    assert_eq!(count_mail(&recipient, "/futuregram/view/"), 0);

    // Recovered: it is released, once.
    let (status, pair) = stack
        .post(
            "accounts/recover/",
            json!({ "username": owner.email, "password": "Secret12#" }),
        )
        .await;
    assert_eq!(status, 200, "{pair}");
    token_in_mail(&recipient, "/futuregram/view/", &[]).await;
    assert_eq!(
        futuregram_state(&stack, &s.share_id).await.as_deref(),
        Some("released")
    );
    assert_eq!(count_mail(&recipient, "/futuregram/view/"), 1);
}
