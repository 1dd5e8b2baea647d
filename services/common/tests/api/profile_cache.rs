//! The recorded profile changes passed on to Redis: each recorded user's version is replaced and
//! the record leaves the table, and a record stays while Redis cannot take it.

use evidentia_common::{profile_cache, ratelimit, testing};
use sqlx::PgPool;
use uuid::Uuid;

use crate::support::database;

async fn version(user_id: Uuid) -> Option<String> {
    let client = redis::Client::open(testing::redis_url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    redis::cmd("GET")
        .arg(format!("profile:version:{user_id}"))
        .query_async(&mut conn)
        .await
        .unwrap()
}

async fn record(pool: &PgPool, user_id: Uuid) {
    sqlx::query!("INSERT INTO profile_changes (user_id) VALUES ($1)", user_id)
        .execute(pool)
        .await
        .unwrap();
}

async fn recorded(pool: &PgPool) -> i64 {
    sqlx::query_scalar!(r#"SELECT count(*) AS "n!" FROM profile_changes"#)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn each_recorded_user_gets_a_new_version_and_the_records_go() {
    let (_url, pool) = database().await;
    let redis = ratelimit::connect_lazy(&testing::redis_url()).unwrap();
    let (ann, bob, cyd) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    for user in [ann, bob, cyd] {
        profile_cache::invalidate(&redis, user).await.unwrap();
    }
    let before = [version(ann).await, version(bob).await, version(cyd).await];
    record(&pool, ann).await;
    record(&pool, ann).await;
    record(&pool, bob).await;

    profile_cache::drain(&pool, &redis).await.unwrap();

    assert_eq!(recorded(&pool).await, 0);
    assert_ne!(version(ann).await, before[0]);
    assert_ne!(version(bob).await, before[1]);
    assert_eq!(
        version(cyd).await,
        before[2],
        "an unrecorded user keeps their version"
    );
}

#[tokio::test]
async fn a_record_stays_while_redis_cannot_take_it() {
    let (_url, pool) = database().await;
    let ann = Uuid::now_v7();
    record(&pool, ann).await;
    // Nothing listens on port 1.
    let away = ratelimit::connect_lazy("redis://127.0.0.1:1").unwrap();

    assert!(profile_cache::drain(&pool, &away).await.is_err());
    assert_eq!(
        recorded(&pool).await,
        1,
        "the change was lost with Redis away"
    );

    let redis = ratelimit::connect_lazy(&testing::redis_url()).unwrap();
    profile_cache::drain(&pool, &redis).await.unwrap();
    assert_eq!(recorded(&pool).await, 0);
    assert!(version(ann).await.is_some());
}

#[tokio::test]
async fn more_records_than_one_batch_all_go() {
    let (_url, pool) = database().await;
    let users: Vec<Uuid> = (0..2_500).map(|_| Uuid::now_v7()).collect();
    sqlx::query!(
        "INSERT INTO profile_changes (user_id) SELECT * FROM unnest($1::uuid[])",
        &users
    )
    .execute(&pool)
    .await
    .unwrap();
    let redis = ratelimit::connect_lazy(&testing::redis_url()).unwrap();

    profile_cache::drain(&pool, &redis).await.unwrap();

    assert_eq!(recorded(&pool).await, 0);
    assert!(version(users[2_499]).await.is_some());
}
