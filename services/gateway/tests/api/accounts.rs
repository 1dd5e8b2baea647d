//! The account calls through the REST API with every service running: recovery, password tokens, profile
//! changes with codes to the new address, the history, deletion with recovery and the purge every
//! service follows, and the organization routes. Codes are read from the real SMTP sink and the
//! SMS file sink.

use std::time::Duration;

use crate::support::{SignedUp, Stack, code_in, read_message};
use evidentia_common::testing;
use reqwest::Method;
use secrecy::ExposeSecret;
use serde_json::{Value, json};

fn fields(body: &Value) -> Vec<(String, String)> {
    body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap_or("").to_owned(),
                e["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn first(body: &Value) -> (String, String) {
    let e = &body["errors"][0];
    (
        e["code"].as_str().unwrap().to_owned(),
        e["message"].as_str().unwrap().to_owned(),
    )
}

/// A random 10-digit national number starting with `first`, unlike any other in the test.
fn fresh_national(first: char) -> String {
    format!(
        "{first}{:09}",
        uuid::Uuid::new_v4().as_u128() % 1_000_000_000
    )
}

async fn password_token(stack: &Stack, access: &str) -> String {
    let (status, token) = stack
        .post_auth(
            "accounts/password/verify/",
            access,
            json!({ "password": "Secret12#" }),
        )
        .await;
    assert_eq!(status, 200, "{token}");
    token["password_token"].as_str().unwrap().to_owned()
}

async fn login(stack: &Stack, username: &str, password: &str) -> (u16, Value) {
    stack
        .post(
            "accounts/login/",
            json!({ "username": username, "password": password }),
        )
        .await
}

/// The recovery routes over accounts: their REST shapes and field errors. What they do (codes,
/// sessions ended, messages sent) is accounts', tested next to it (services/accounts/tests/api).
#[tokio::test]
async fn recovery_routes_answer_their_rest_shapes_and_field_errors() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let (status, options) = stack
        .post(
            "accounts/username-has-phone/verify/",
            json!({ "username": user.email }),
        )
        .await;
    assert_eq!(status, 200, "{options}");
    assert_eq!(options["communication_method"], "email");
    assert!(options["phone_hint"].as_str().unwrap().starts_with("+44 *"));
    let (status, unknown) = stack
        .post(
            "accounts/username-has-phone/verify/",
            json!({ "username": "nobody-here" }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        fields(&unknown),
        [(
            "username".into(),
            "No account found with this username.".into()
        )]
    );
    let (status, sent) = stack
        .post(
            "accounts/confirmation-code/send/",
            json!({ "username": user.username, "purpose": "password_reset", "channel": "sms" }),
        )
        .await;
    assert_eq!(status, 200, "{sent}");
    assert!(sent["sent_to"].as_str().unwrap().starts_with("+44 *"));
    let sms = read_message(&user.phone, "confirmation code is", &[]).await;
    let (status, verified) = stack
        .post(
            "accounts/confirmation-code/verify/",
            json!({ "username": user.username, "code": code_in(&sms), "purpose": "password_reset" }),
        )
        .await;
    assert_eq!(status, 200, "{verified}");
    let token = verified["verification_token"].as_str().unwrap();
    let (status, weak) = stack
        .post(
            "accounts/password/reset/",
            json!({ "username": user.username, "verification_token": token, "new_password": "weakpass" }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(fields(&weak)[0].0, "new_password");
    let (status, pair) = stack
        .post(
            "accounts/password/reset/",
            json!({ "username": user.username, "verification_token": token, "new_password": "Newer12#x" }),
        )
        .await;
    assert_eq!(status, 200, "{pair}");
    assert!(pair["access"].is_string());

    let phone = json!({ "country_code": "+44", "national_number": user.national });
    let (status, registered) = stack
        .post("accounts/phone/verify/", json!({ "phone_number": phone }))
        .await;
    assert_eq!((status, &registered["registered"]), (200, &json!(true)));
    for (path, body) in [
        (
            "accounts/username-by-email/verify/",
            json!({ "email": user.email }),
        ),
        (
            "accounts/username-by-phone/verify/",
            json!({ "phone_number": phone }),
        ),
    ] {
        let (status, sent) = stack.post(path, body).await;
        assert_eq!(status, 200, "{path}: {sent}");
    }
    let (status, bad) = stack
        .post(
            "accounts/username-by-phone/verify/",
            json!({ "phone_number": { "country_code": "+999", "national_number": "12" } }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        fields(&bad),
        [("phone_number".into(), "Invalid country code".into())]
    );
}

/// The profile-change routes over accounts: a change waiting for its code is 202, a change made
/// 204, field errors 400, and `accounts/me/` shows the result. The rules behind them are accounts',
/// tested next to it (services/accounts/tests/api).
#[tokio::test]
async fn profile_change_routes_answer_202_while_a_code_is_awaited_and_204_once_changed() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let (status, wrong) = stack
        .post_auth(
            "accounts/password/verify/",
            &user.access,
            json!({ "password": "Wrong12#x" }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(fields(&wrong)[0].0, "password");
    let token = password_token(&stack, &user.access).await;
    let new_email = format!("new-{}", user.email);
    let change = |code: Option<String>| {
        let stack = &stack;
        let body = json!({ "new_email": new_email, "password_token": token, "code": code });
        let access = user.access.clone();
        async move {
            stack
                .send_auth(Method::PATCH, "accounts/email/change/", &access, Some(body))
                .await
        }
    };
    let (status, sent) = change(None).await;
    assert_eq!(status, 202, "{sent}");
    let code = code_in(&read_message(&new_email, "confirmation code is", &[]).await);
    let (status, _) = change(Some(code)).await;
    assert_eq!(status, 204);
    let (status, bad) = stack
        .send_auth(
            Method::PATCH,
            "accounts/username/change/",
            &user.access,
            Some(json!({ "new_username": "a b", "password_token": token })),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(fields(&bad)[0].0, "new_username");
    let (status, _) = stack
        .send_auth(
            Method::PATCH,
            "accounts/first-last-names/update/",
            &user.access,
            Some(json!({ "first_name": "Ann", "last_name": "Lee" })),
        )
        .await;
    assert_eq!(status, 204);
    let (status, _) = stack
        .post_auth(
            "accounts/communication-method/change/",
            &user.access,
            json!({ "communication_method": "sms" }),
        )
        .await;
    assert_eq!(status, 204);
    let (_, me) = stack.get_auth("accounts/me/", &user.access).await;
    assert_eq!(me["email"], new_email.as_str());
    assert_eq!(
        (&me["first_name"], &me["last_name"]),
        (&json!("Ann"), &json!("Lee"))
    );
    assert_eq!(me["communication_method"], "sms");
}

/// The history route: the browser's address and agent reach accounts from the request's headers,
/// and the query string becomes the filter (a malformed one is a field error). What is recorded
/// is accounts', tested next to it (services/accounts/tests/api).
#[tokio::test]
async fn the_history_route_passes_the_browsers_address_and_agent_and_reads_its_query_string() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    assert_eq!(login(&stack, &user.username, "Wrong12#x").await.0, 400);
    let response = stack
        .http
        .post(stack.url("accounts/login/"))
        .header("user-agent", "HistoryTest/1.0")
        .header("x-forwarded-for", "203.0.113.9")
        .json(&json!({ "username": user.username, "password": "Secret12#" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);

    let (status, page) = stack.get_auth("action-logs/history/", &user.access).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["count"], 3);
    let sign_in = &page["results"][0];
    assert_eq!(sign_in["action"], "sign_in");
    assert_eq!(sign_in["user_agent"], "HistoryTest/1.0");
    assert!(!sign_in["ip_address"].as_str().unwrap().is_empty());

    let (_, filtered) = stack
        .get_auth(
            "action-logs/history/?action=sign_in_failed&page_size=1",
            &user.access,
        )
        .await;
    assert_eq!(filtered["count"], 1);
    assert_eq!(filtered["results"][0]["description"], "Failed sign-in");
    let today = chrono::Utc::now().date_naive();
    let (_, dated) = stack
        .get_auth(
            &format!("action-logs/history/?date_from={today}&date_to={today}&page=2&page_size=2"),
            &user.access,
        )
        .await;
    assert_eq!(
        (
            dated["count"].as_i64(),
            dated["results"].as_array().map(Vec::len)
        ),
        (Some(3), Some(1))
    );
    let (status, bad) = stack
        .get_auth(
            "action-logs/history/?page_size=500&action=dance&page=x",
            &user.access,
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(fields(&bad)[0].0, "page");
}

#[tokio::test]
async fn a_deleted_account_is_recovered_within_its_grace_period_and_purged_everywhere_after_it() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let (status, reasons) = stack
        .get_auth(
            "accounts/delete-reasons/?delete_type=soft_delete",
            &user.access,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(reasons.as_array().unwrap().len(), 6);
    assert_eq!(reasons[5], json!({ "id": "other", "title": "Other" }));
    let token = password_token(&stack, &user.access).await;
    let (status, bad) = stack
        .post_auth(
            "accounts/delete/",
            &user.access,
            json!({ "reason_id": "other", "password_token": token }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        fields(&bad),
        [("details".into(), "Please tell us why.".into())]
    );
    let (status, deleted) = stack
        .post_auth(
            "accounts/delete/",
            &user.access,
            json!({ "reason_id": "privacy", "password_token": token }),
        )
        .await;
    assert_eq!(status, 200, "{deleted}");
    assert!(
        deleted["recoverable_until"]
            .as_str()
            .unwrap()
            .starts_with('2')
    );

    // Signed out everywhere; the old access token reaches nothing.
    let (status, _) = stack
        .post(
            "accounts/token/refresh/",
            json!({ "refresh": user.refresh }),
        )
        .await;
    assert_eq!(status, 401);
    assert_eq!(stack.get_auth("accounts/me/", &user.access).await.0, 401);
    // Every service refuses it at once, not when it expires.
    assert_eq!(
        stack.get_auth("evidence/folders/", &user.access).await.0,
        401
    );
    let (status, _) = stack
        .post_auth(
            "evidence/folders/create/",
            &user.access,
            json!({ "name": "After deletion" }),
        )
        .await;
    assert_eq!(status, 401);
    let (status, refused) = login(&stack, &user.username, "Secret12#").await;
    assert_eq!(status, 403);
    let (code, message) = first(&refused);
    assert_eq!(code, "account_deleted");
    assert!(
        message.starts_with("This account was deleted. You can recover it until "),
        "{message}"
    );
    let (status, _) = stack
        .post(
            "accounts/recover/",
            json!({ "username": user.username, "password": "Wrong12#x" }),
        )
        .await;
    assert_eq!(status, 400);
    let (status, pair) = stack
        .post(
            "accounts/recover/",
            json!({ "username": user.email, "password": "Secret12#" }),
        )
        .await;
    assert_eq!(status, 200, "{pair}");
    let access = pair["access"].as_str().unwrap();
    let (status, me) = stack.get_auth("accounts/me/", access).await;
    assert_eq!((status, &me["username"]), (200, &json!(user.username)));
    let (_, again) = stack
        .post(
            "accounts/recover/",
            json!({ "username": user.username, "password": "Secret12#" }),
        )
        .await;
    assert_eq!(first(&again).1, "This account is not deleted.");

    // Deleted again, and past the grace period: every service forgets the user.
    let token = password_token(&stack, access).await;
    let (status, _) = stack
        .post_auth(
            "accounts/delete/",
            access,
            json!({ "reason_id": "too_expensive", "password_token": token }),
        )
        .await;
    assert_eq!(status, 200);
    purge_now(&stack, &user).await;
}

/// The rows each service keeps for one user.
struct UserRows {
    users: i64,
    customers: i64,
    storage_usage: i64,
    referral_codes: i64,
    directory: i64,
    directory_deleted: i64,
}

async fn user_rows(stack: &Stack, id: uuid::Uuid) -> UserRows {
    let mut accounts = testing::connect(&stack.accounts_db).await;
    let mut payments = testing::connect(&stack.payments_db).await;
    let mut evidence = testing::connect(&stack.evidence_db).await;
    let mut referrals = testing::connect(&stack.referrals_db).await;
    let mut sharing = testing::connect(&stack.sharing_db).await;
    let directory = sqlx::query!(
        r#"SELECT count(*) AS "all!", count(*) FILTER (WHERE deleted_at IS NOT NULL) AS "deleted!"
           FROM account_directory WHERE user_id = $1"#,
        id
    )
    .fetch_one(&mut sharing)
    .await
    .unwrap();
    UserRows {
        users: sqlx::query_scalar!(r#"SELECT count(*) AS "n!" FROM users WHERE id = $1"#, id)
            .fetch_one(&mut accounts)
            .await
            .unwrap(),
        customers: sqlx::query_scalar!(
            r#"SELECT count(*) AS "n!" FROM customers WHERE user_id = $1"#,
            id
        )
        .fetch_one(&mut payments)
        .await
        .unwrap(),
        storage_usage: sqlx::query_scalar!(
            r#"SELECT count(*) AS "n!" FROM storage_usage WHERE user_id = $1"#,
            id
        )
        .fetch_one(&mut evidence)
        .await
        .unwrap(),
        referral_codes: sqlx::query_scalar!(
            r#"SELECT count(*) AS "n!" FROM referral_codes WHERE user_id = $1"#,
            id
        )
        .fetch_one(&mut referrals)
        .await
        .unwrap(),
        directory: directory.all,
        directory_deleted: directory.deleted,
    }
}

async fn purge_now(stack: &Stack, user: &SignedUp) {
    let accounts = sqlx::PgPool::connect(stack.accounts_db.expose_secret())
        .await
        .unwrap();
    let id = sqlx::query_scalar!("SELECT id FROM users WHERE username = $1", &user.username)
        .fetch_one(&accounts)
        .await
        .unwrap();
    // Everything the services made at sign-up is there before the purge.
    testing::eventually(
        "the sign-up reached every service",
        Duration::from_secs(20),
        || async {
            let rows = user_rows(stack, id).await;
            let ready = rows.customers == 1
                && rows.storage_usage == 1
                && rows.referral_codes == 1
                && rows.directory_deleted == 1;
            ready.then_some(())
        },
    )
    .await;
    sqlx::query!(
        "UPDATE users SET recoverable_until = now() - interval '1 second' WHERE id = $1",
        id
    )
    .execute(&accounts)
    .await
    .unwrap();
    testing::eventually(
        "the purge reached every service",
        Duration::from_secs(30),
        || async {
            let rows = user_rows(stack, id).await;
            let gone = rows.users == 0
                && rows.customers == 0
                && rows.storage_usage == 0
                && rows.referral_codes == 0
                && rows.directory == 0;
            gone.then_some(())
        },
    )
    .await;
    let (status, _) = stack
        .post(
            "accounts/recover/",
            json!({ "username": user.username, "password": "Secret12#" }),
        )
        .await;
    assert_eq!(status, 400, "nothing left to recover");
    accounts.close().await;
}

/// The organization routes over accounts: their statuses, JSON shapes, the public invite preview
/// and a field error. What invites, codes, roles and removal do is accounts', tested next to it
/// (services/accounts/tests/api/organizations.rs); a removed participant's sessions end on the
/// deny-list that the gateway reads for every service, as a logged-out one's do (hardening.rs).
#[tokio::test]
async fn organization_routes_answer_their_rest_shapes_statuses_and_field_errors() {
    let stack = Stack::start().await;
    let owner = stack.sign_up_organization("Acme Rentals").await;
    let (status, organization) = stack
        .get_auth("accounts/organization/", &owner.access)
        .await;
    assert_eq!(status, 200, "{organization}");
    assert_eq!(
        (&organization["name"], &organization["role"]),
        (&json!("Acme Rentals"), &json!("owner"))
    );
    assert!(organization["created_at"].is_string(), "{organization}");
    let loner = stack.sign_up().await;
    let (status, _) = stack
        .get_auth("accounts/organization/", &loner.access)
        .await;
    assert_eq!(status, 404);
    assert_eq!(stack.get("accounts/organization/").await.0, 401);

    let invites = "accounts/organization/invites/";
    let (status, bad) = stack
        .post_auth(
            invites,
            &owner.access,
            json!({ "email": "invited", "role": "member" }),
        )
        .await;
    assert_eq!(status, 400, "{bad}");
    assert_eq!(fields(&bad)[0].0, "email");
    let invited = format!("invited-{}", loner.email);
    let (status, invite) = stack
        .post_auth(
            invites,
            &owner.access,
            json!({ "email": invited, "role": "member" }),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    assert_eq!(
        (&invite["channel"], &invite["role"]),
        (&json!("email"), &json!("member"))
    );
    assert!(invite["id"].is_string() && invite["expires_at"].is_string());
    let mail = read_message(&invited, "/join-organization/", &[]).await;
    let at = mail.find("with the code ").unwrap() + "with the code ".len();
    let code = mail[at..at + 8].to_owned();

    // The preview is public: whoever holds the code sees it without a token.
    let (status, preview) = stack.get(&format!("{invites}{code}/")).await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(preview["organization_name"], "Acme Rentals");
    assert_eq!(
        (&preview["role"], &preview["email"]),
        (&json!("member"), &json!(invited))
    );
    assert_eq!(stack.get(&format!("{invites}NOTACODE/")).await.0, 404);

    let join = |email: &str| {
        let unique = uuid::Uuid::new_v4().simple().to_string();
        json!({
            "code": code, "username": format!("p{}", &unique[..12]), "email": email,
            "phone_number": { "country_code": "+44", "national_number": fresh_national('7') },
            "password": "Secret12#",
        })
    };
    let (status, wrong) = stack
        .post("accounts/organization/join/", join(&loner.email))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        fields(&wrong),
        [(
            "email".into(),
            "Use the email address the invite was sent to.".into()
        )]
    );
    let (status, member) = stack
        .post("accounts/organization/join/", join(&invited))
        .await;
    assert_eq!(status, 201, "{member}");
    assert!(member["refresh"].is_string());
    let member_access = member["access"].as_str().unwrap();
    let (status, used) = stack.get(&format!("{invites}{code}/")).await;
    assert_eq!(status, 400);
    assert_eq!(
        first(&used),
        (
            "invite_expired".into(),
            "This invite has expired. Please ask for a new one.".into()
        )
    );

    let participants = "accounts/organization/participants/";
    let (status, list) = stack.get_auth(participants, &owner.access).await;
    assert_eq!(status, 200, "{list}");
    let people: Vec<(&str, &str)> = list["participants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["email"].as_str().unwrap(), p["role"].as_str().unwrap()))
        .collect();
    assert_eq!(
        people,
        [
            (owner.email.as_str(), "owner"),
            (invited.as_str(), "member")
        ]
    );
    assert_eq!(list["invites"], json!([]));
    let owner_id = list["participants"][0]["user_id"].as_str().unwrap();
    let member_id = list["participants"][1]["user_id"].as_str().unwrap();

    // Changes are 204; what the caller's role does not allow is 403.
    let (status, refused) = stack
        .send_auth(
            Method::DELETE,
            &format!("{participants}{owner_id}/"),
            member_access,
            None,
        )
        .await;
    assert_eq!(status, 403);
    assert_eq!(first(&refused).0, "permission_denied");
    let (status, _) = stack
        .send_auth(
            Method::PATCH,
            &format!("{participants}{member_id}/"),
            &owner.access,
            Some(json!({ "role": "admin" })),
        )
        .await;
    assert_eq!(status, 204);
    let (status, invite) = stack
        .post_auth(
            invites,
            member_access,
            json!({ "email": format!("revoked-{}", loner.email), "role": "member" }),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let revoke = format!("{invites}{}/", invite["id"].as_str().unwrap());
    let (status, _) = stack
        .send_auth(Method::DELETE, &revoke, &owner.access, None)
        .await;
    assert_eq!(status, 204);
    let (status, _) = stack
        .send_auth(
            Method::DELETE,
            &format!("{participants}{member_id}/"),
            &owner.access,
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (_, list) = stack.get_auth(participants, &owner.access).await;
    assert_eq!(list["participants"].as_array().unwrap().len(), 1);
}
