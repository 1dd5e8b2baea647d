//! The history: each action recorded with the caller's address and agent, newest first, filtered
//! by action and date, paged, and only the user's own.

use evidentia_common::grpc::Caller;
use evidentia_proto::accounts::v1 as pb;

use crate::{PASSWORD, TestApp, as_user};

#[tokio::test]
async fn the_history_records_each_action_with_address_and_agent_and_filters_by_action_and_date() {
    let mut app = TestApp::spawn().await;
    let (person, _) = app.sign_up().await;
    let (_, their_tokens) = app.sign_up().await;
    assert!(app.login(&person.username, "Wrong12#x").await.is_err());
    let browser = Caller {
        client_ip: Some("203.0.113.9".to_owned()),
        user_agent: Some("HistoryTest/1.0".to_owned()),
        ..Caller::default()
    };
    let tokens = app
        .client
        .login(browser.request(pb::LoginRequest {
            username: person.username.clone(),
            password: PASSWORD.to_owned(),
        }))
        .await
        .unwrap()
        .into_inner();
    let caller = as_user(app.user_of(&tokens));
    let mut client = app.client.clone();
    let history = |request: pb::ListActionLogsRequest| {
        let request = caller.request(request);
        let mut client = client.clone();
        async move { client.list_action_logs(request).await.unwrap().into_inner() }
    };

    let page = history(pb::ListActionLogsRequest::default()).await;
    let actions: Vec<&str> = page.results.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        ["sign_in", "sign_in_failed", "sign_up"],
        "newest first"
    );
    assert_eq!(page.count, 3);
    let sign_in = &page.results[0];
    assert_eq!(sign_in.description, "Signed in");
    assert_eq!(sign_in.user_agent, "HistoryTest/1.0");
    assert_eq!(sign_in.ip_address, "203.0.113.9");

    let filtered = history(pb::ListActionLogsRequest {
        action: "sign_in_failed".to_owned(),
        page_size: 1,
        ..Default::default()
    })
    .await;
    assert_eq!(filtered.count, 1);
    assert_eq!(filtered.results[0].description, "Failed sign-in");
    let today = chrono::Utc::now().date_naive().to_string();
    let dated = history(pb::ListActionLogsRequest {
        date_from: today.clone(),
        date_to: today,
        page: 2,
        page_size: 2,
        ..Default::default()
    })
    .await;
    assert_eq!((dated.count, dated.results.len()), (3, 1));
    let yesterday = chrono::Utc::now()
        .date_naive()
        .pred_opt()
        .unwrap()
        .to_string();
    let before = history(pb::ListActionLogsRequest {
        date_to: yesterday,
        ..Default::default()
    })
    .await;
    assert_eq!(before.count, 0);

    // Another user's history holds only their own sign-up.
    let theirs = client
        .list_action_logs(
            as_user(app.user_of(&their_tokens)).request(pb::ListActionLogsRequest::default()),
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(theirs.count, 1);
    assert_eq!(theirs.results[0].action, "sign_up");
    app.stop().await;
}
