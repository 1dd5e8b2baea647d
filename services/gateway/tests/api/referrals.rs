//! Referrals through the REST API: the routes' shapes and statuses, the programme's numbers
//! from payments' pricing, and a friend's sign-up through accounts recorded by referrals, whose
//! first payment credits both wallets.
//! Referrals' own behaviour is tested next to it (services/referrals/tests/api).

use evidentia_common::testing;
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Stack, folder, read_message, with_default_card};

fn first_error(body: &Value) -> (String, String) {
    let error = &body["errors"][0];
    (
        error["field"].as_str().unwrap_or_default().to_owned(),
        error["message"].as_str().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn invitations_answer_their_statuses_and_a_friend_signing_up_with_the_link_counts() {
    let stack = Stack::start().await;
    let ann = stack.sign_up_with(json!({ "first_name": "Ann" })).await;
    let bob = stack.sign_up().await;

    let (status, info) = stack
        .get_auth("shareable-codes/referral-info/", &ann.access)
        .await;
    assert_eq!(status, 200, "{info}");
    let code = info["code"].as_str().unwrap().to_owned();
    assert_eq!(info["type"], "individual");
    assert!(
        info["link"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/sign-up?referred=true&code={code}")),
        "{info}"
    );
    assert_eq!(
        (
            &info["referrer_reward"],
            &info["friend_reward"],
            &info["monthly_cap"]
        ),
        (&json!(500), &json!(500), &json!(10)),
        "the numbers are payments' pricing"
    );

    let friend = format!("friend-{}@example.com", uuid::Uuid::new_v4().simple());
    let (status, sent) = stack
        .post_auth(
            "shareable-codes/individual/create/",
            &ann.access,
            json!({ "email": friend, "name": "Dan" }),
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(
        (&sent["status"], &sent["channel"]),
        (&json!("invited"), &json!("email"))
    );
    let mail = read_message(&friend, &format!("code={code}"), &[]).await;
    assert!(mail.contains("Ann invited you"), "{mail}");
    let id = sent["id"].as_str().unwrap().to_owned();

    let (status, again) = stack
        .post_auth(
            "shareable-codes/individual/create/",
            &ann.access,
            json!({ "email": friend }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(first_error(&again).0, "email");

    let (status, listed) = stack
        .get_auth("shareable-codes/retrieve/?sorting=name", &ann.access)
        .await;
    assert_eq!(status, 200);
    assert_eq!(listed["invitations"][0]["id"], json!(id));
    let (status, bad) = stack
        .get_auth("shareable-codes/retrieve/?sorting=sideways", &ann.access)
        .await;
    assert_eq!(status, 400);
    assert_eq!(first_error(&bad).0, "sorting");
    let (_, others) = stack
        .get_auth("shareable-codes/retrieve/", &bob.access)
        .await;
    assert_eq!(others["invitations"], json!([]));

    let response = stack
        .http
        .post(stack.url(&format!("shareable-codes/{id}/resend/")))
        .bearer_auth(&ann.access)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 429, "not again at once");
    assert!(response.headers().get("retry-after").is_some());
    let (status, _) = stack
        .post_auth(
            &format!("shareable-codes/{id}/resend/"),
            &bob.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 404, "another user's invitation");

    // Open to anyone: the sign-up screen asks before there is an account.
    let (status, check) = stack
        .post("shareable-codes/check/", json!({ "code": code }))
        .await;
    assert_eq!(status, 200);
    assert_eq!(check, json!({ "valid": true, "first_name": "Ann" }));

    let carl = stack
        .sign_up_with(json!({ "referral_code": code.to_lowercase() }))
        .await;
    let counts = |want: [i64; 3]| {
        let stack = &stack;
        let access = ann.access.clone();
        async move {
            testing::eventually("the referral's counts", testing::WAIT, || async {
                let (_, info) = stack
                    .get_auth("shareable-codes/referral-info/", &access)
                    .await;
                (info["signed_up"] == json!(want[0])
                    && info["rewarded"] == json!(want[1])
                    && info["earned"] == json!(want[2]))
                .then_some(())
            })
            .await;
        }
    };
    counts([1, 0, 0]).await;

    // Carl's first payment credits both wallets (payments decides, referrals counts).
    with_default_card(&stack, &carl, "5555555555554444").await;
    let folder_id = folder(&stack, &carl.access, "Flat inventory").await;
    let response = stack
        .http
        .post(stack.url("payments/stored-account/pay/"))
        .bearer_auth(&carl.access)
        .header("Idempotency-Key", "first")
        .json(&json!({ "kind": "storage_extension", "folder_id": folder_id, "months": 3, "pay_with": "card" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    counts([1, 1, 500]).await;
    for user in [&ann, &carl] {
        let (_, listed) = stack.get_auth("payments/transactions/", &user.access).await;
        let rewards: Vec<&Value> = listed["movements"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["kind"] == "referral")
            .collect();
        assert_eq!(rewards.len(), 1, "{listed}");
        assert_eq!(rewards[0]["amount"], json!(500));
    }
    let (status, bad_code) = stack
        .post(
            "accounts/create/",
            json!({ "referral_code": "no spaces allowed" }),
        )
        .await;
    assert_eq!(status, 400, "{bad_code}");

    let delete = |access: &str| {
        let access = access.to_owned();
        let path = format!("shareable-codes/{id}/delete/");
        let stack = &stack;
        async move {
            stack
                .send_auth(Method::DELETE, &path, &access, None)
                .await
                .0
        }
    };
    assert_eq!(delete(&bob.access).await, 404);
    assert_eq!(delete(&ann.access).await, 204);
    assert_eq!(delete(&ann.access).await, 404);
}
