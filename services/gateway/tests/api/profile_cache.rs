//! `accounts/me/` answered from the stored profile: served again while nothing it is made of
//! changed, and never after a change, whichever way the change came (the user's own write through
//! the API, a row changed in accounts' or payments' database). How a recorded change is passed on
//! to Redis is tested in `services/common`.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use sqlx::{Connection as _, PgConnection};
use uuid::Uuid;

use crate::support::{SignedUp, Stack};
use evidentia_common::testing;

async fn me(stack: &Stack, user: &SignedUp) -> Value {
    let (status, me) = stack.get_auth("accounts/me/", &user.access).await;
    assert_eq!(status, 200, "{me}");
    me
}

/// Reads `accounts/me/` until `done` holds, for at most ten seconds.
async fn me_until(stack: &Stack, user: &SignedUp, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let me = me(stack, user).await;
        if done(&me) {
            return me;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the stored profile stayed stale: {me}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn user_id(me: &Value) -> Uuid {
    me["id"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .expect("id")
}

async fn set_first_name(accounts: &mut PgConnection, user: Uuid, name: &str) {
    sqlx::query("UPDATE users SET first_name = $2 WHERE id = $1")
        .bind(user)
        .bind(name)
        .execute(accounts)
        .await
        .expect("update users");
}

/// The epoch and the user's version a stored profile is stamped with. Either may move for reasons
/// of its own during a check: another test's services, starting, replace the epoch (the Redis
/// database is shared), and a drainer may pass on a change recorded before the user's trigger was
/// turned off (the sign-up's own rows) a little late on a busy machine. Either makes a stored
/// profile a miss, so a check that needs a hit reads both around itself.
async fn stamp(user: Uuid) -> (Option<String>, Option<String>) {
    let client = redis::Client::open(testing::redis_url()).expect("redis url");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("redis");
    redis::pipe()
        .get("profile:epoch")
        .get(format!("profile:version:{user}"))
        .query_async(&mut conn)
        .await
        .expect("GET")
}

/// A new user whose `users` row changes without notice (its trigger off), with their id and a
/// connection to accounts' database: a change made there beside the API is unseen by the cache.
/// The user's payments customer exists first: payments makes it after the sign-up, and its
/// arrival would rightly replace the stored profile in the middle of a check.
async fn unnoticed_user(stack: &Stack) -> (SignedUp, Uuid, PgConnection) {
    let user = stack.sign_up().await;
    let settled = me_until(stack, &user, |me| me["stripe_customer_id"].is_string()).await;
    let id = user_id(&settled);
    let mut accounts = testing::connect(&stack.accounts_db).await;
    sqlx::query("ALTER TABLE users DISABLE TRIGGER profile_changed")
        .execute(&mut accounts)
        .await
        .expect("disable trigger");
    (user, id, accounts)
}

#[tokio::test]
async fn a_stored_profile_is_served_until_its_user_writes() {
    let stack = Stack::start().await;
    let (user, id, mut accounts) = unnoticed_user(&stack).await;
    let mut checked = false;
    for attempt in 0..5 {
        let before = stamp(id).await;
        let stored = me(&stack, &user).await;
        set_first_name(&mut accounts, id, &format!("Beside{attempt}")).await;
        let served = me(&stack, &user).await;
        if stamp(id).await != before {
            continue;
        }
        assert_eq!(served, stored, "the stored answer is served again");
        assert_ne!(served["first_name"], format!("Beside{attempt}"));
        checked = true;
        break;
    }
    assert!(checked, "the stamp moved in every attempt");
    let (status, _) = stack
        .send_auth(
            Method::PATCH,
            "accounts/first-last-names/update/",
            &user.access,
            Some(json!({ "first_name": "Ann", "last_name": "Lee" })),
        )
        .await;
    assert_eq!(status, 204);
    // At once: the gateway marked the writer's profile stale before it answered.
    let me = me(&stack, &user).await;
    assert_eq!(
        (&me["first_name"], &me["last_name"]),
        (&json!("Ann"), &json!("Lee"))
    );
}

#[tokio::test]
async fn a_row_changed_in_either_database_reaches_the_stored_profile() {
    let stack = Stack::start().await;
    let user = stack.sign_up_organization("Acme Evidence").await;
    let stored = me(&stack, &user).await;
    assert_eq!(stored["organization"]["name"], "Acme Evidence");
    assert_eq!(stored["one_time_benefit_applied"], false);
    let id = user_id(&stored);
    let mut accounts = testing::connect(&stack.accounts_db).await;
    set_first_name(&mut accounts, id, "Changed").await;
    me_until(&stack, &user, |me| me["first_name"] == "Changed").await;
    sqlx::query("UPDATE organizations SET name = 'Renamed Evidence' WHERE owner_id = $1")
        .bind(id)
        .execute(&mut accounts)
        .await
        .expect("rename");
    me_until(&stack, &user, |me| {
        me["organization"]["name"] == "Renamed Evidence"
    })
    .await;
    let mut payments = testing::connect(&stack.payments_db).await;
    sqlx::query("UPDATE customers SET one_time_benefit_applied = true WHERE user_id = $1")
        .bind(id)
        .execute(&mut payments)
        .await
        .expect("update customers");
    me_until(&stack, &user, |me| me["one_time_benefit_applied"] == true).await;
    payments.close().await.expect("close");
}
