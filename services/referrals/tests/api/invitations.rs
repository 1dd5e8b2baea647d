//! Invitations by e-mail and SMS with the inviter's link (read back from the mail and SMS
//! sinks), their limits, the list and its sorting, and a friend's sign-up with the code and what
//! became of its reward.

use std::time::Duration;

use evidentia_common::testing::{field_errors, read_message};
use evidentia_proto::{
    events::v1::{AccountDeleted, AccountPurged, ReferralRewardSettled},
    referrals::v1::{self as pb},
};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, account_created, from, mails_to};

fn friend_email() -> String {
    format!("friend-{}@example.com", Uuid::now_v7().simple())
}

fn by_email(email: &str, name: &str) -> pb::CreateInvitationRequest {
    pb::CreateInvitationRequest {
        r#type: "individual".to_owned(),
        email: email.to_owned(),
        name: name.to_owned(),
        ..pb::CreateInvitationRequest::default()
    }
}

fn by_sms(national_number: &str) -> pb::CreateInvitationRequest {
    pb::CreateInvitationRequest {
        phone_number: Some(pb::PhoneNumber {
            country_code: "+1".to_owned(),
            national_number: national_number.to_owned(),
        }),
        ..pb::CreateInvitationRequest::default()
    }
}

async fn invite(app: &TestApp, user: Uuid, request: pb::CreateInvitationRequest) -> pb::Invitation {
    app.client()
        .create_invitation(from(user, request))
        .await
        .unwrap()
        .into_inner()
}

async fn list(app: &TestApp, user: Uuid, sorting: &str) -> Vec<pb::Invitation> {
    app.client()
        .list_invitations(from(
            user,
            pb::ListInvitationsRequest {
                sorting: sorting.to_owned(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .invitations
}

#[tokio::test]
async fn an_invitation_by_e_mail_or_sms_carries_the_inviters_link() {
    let app = TestApp::spawn().await;
    let (ann, _) = app.user().await;
    let code = app.info(ann).await.code;
    let link = format!("/sign-up?referred=true&code={code}");

    let email = friend_email();
    let sent = invite(&app, ann, by_email(&email.to_uppercase(), "Bob")).await;
    assert_eq!(
        (
            sent.channel.as_str(),
            sent.sent_to.as_str(),
            sent.name.as_str()
        ),
        ("email", email.as_str(), "Bob")
    );
    assert_eq!((sent.status.as_str(), sent.sends), ("invited", 1));
    assert!(sent.resend_after.is_some(), "not again at once");
    let mail = read_message(&email, &link, &[]).await;
    assert!(mail.contains("Ann invited you to Evidentia"), "{mail}");

    let number = format!("55{}", &Uuid::now_v7().as_u128().to_string()[..8]);
    let sms = invite(&app, ann, by_sms(&number)).await;
    assert_eq!(
        (sms.channel.as_str(), sms.sent_to.clone()),
        ("sms", format!("+1{number}"))
    );
    read_message(&format!("+1{number}"), &link, &[]).await;

    let info = app.info(ann).await;
    assert_eq!(
        (info.invited, info.signed_up, info.rewarded, info.earned),
        (2, 0, 0, 0)
    );
    assert!(info.link.ends_with(&link), "{}", info.link);
    app.stop().await;
}

#[tokio::test]
async fn a_bad_or_pointless_invitation_is_refused_on_its_field() {
    let app = TestApp::spawn().await;
    let (ann, ann_event) = app.user().await;
    let (_, bob_event) = app.user().await;
    let refused = |request: pb::CreateInvitationRequest| {
        let mut client = app.client();
        async move {
            let status = client
                .create_invitation(from(ann, request))
                .await
                .unwrap_err();
            assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
            field_errors(&status)
        }
    };
    let field = |field: &str, message: &str| vec![(field.to_owned(), message.to_owned())];

    assert_eq!(
        refused(by_email("not an address", "")).await,
        field("email", "Please enter a valid email address")
    );
    assert_eq!(
        refused(by_sms("12")).await,
        field("phone_number", "Minimum 9 digits")
    );
    assert_eq!(
        refused(by_email("", "")).await,
        field(
            "email",
            "Enter your friend's e-mail address or phone number."
        )
    );
    let mut both = by_sms("5550100123");
    both.email = friend_email();
    assert_eq!(refused(both).await.len(), 1);
    assert_eq!(
        refused(by_email(&ann_event.email, "")).await,
        field("email", "You cannot invite yourself.")
    );
    assert_eq!(
        refused(by_sms(&ann_event.phone_national_number)).await,
        field("phone_number", "You cannot invite yourself.")
    );
    assert_eq!(
        refused(by_email(&bob_event.email, "")).await,
        field("email", "This person already has an Evidentia account.")
    );
    let mut unknown_type = by_email(&friend_email(), "");
    unknown_type.r#type = "corporate".to_owned();
    assert_eq!(
        refused(unknown_type).await,
        field("type", "Unknown type of code.")
    );
    assert_eq!(
        refused(by_email(&friend_email(), "\u{202e}Bob")).await[0].0,
        "name"
    );

    let email = friend_email();
    invite(&app, ann, by_email(&email, "")).await;
    assert_eq!(
        refused(by_email(&email, "Again")).await,
        field(
            "email",
            "You have already invited this address. You can send the invitation again from your list."
        )
    );
    assert_eq!(
        app.info(ann).await.invited,
        1,
        "nothing refused was recorded"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_list_is_the_callers_own_in_the_order_asked_for() {
    let app = TestApp::spawn().await;
    let (ann, _) = app.user().await;
    let (bob, _) = app.user().await;
    for name in ["carol", "Alice", "bob"] {
        invite(&app, ann, by_email(&friend_email(), name)).await;
    }
    invite(&app, bob, by_email(&friend_email(), "Zed")).await;

    let names =
        |found: Vec<pb::Invitation>| -> Vec<String> { found.into_iter().map(|i| i.name).collect() };
    assert_eq!(names(list(&app, ann, "").await), ["bob", "Alice", "carol"]);
    assert_eq!(
        names(list(&app, ann, "newest").await),
        ["bob", "Alice", "carol"]
    );
    assert_eq!(
        names(list(&app, ann, "oldest").await),
        ["carol", "Alice", "bob"]
    );
    assert_eq!(
        names(list(&app, ann, "name").await),
        ["Alice", "bob", "carol"]
    );
    assert_eq!(names(list(&app, bob, "status").await), ["Zed"]);

    let status = app
        .client()
        .list_invitations(from(
            ann,
            pb::ListInvitationsRequest {
                sorting: "created_at".to_owned(),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(
        field_errors(&status),
        [(
            "sorting".to_owned(),
            "Sort by newest, oldest, name or status.".to_owned()
        )]
    );
    app.stop().await;
}

#[tokio::test]
async fn an_invitation_is_sent_again_only_after_its_wait_and_a_few_times_in_all() {
    let app = TestApp::spawn_with(|config| {
        config.limits.sends_per_invitation = 2;
    })
    .await;
    let (ann, _) = app.user().await;
    let (bob, _) = app.user().await;
    let email = friend_email();
    let sent = invite(&app, ann, by_email(&email, "")).await;
    read_message(&email, "invited you", &[]).await;
    let resend = |user: Uuid, id: &str| {
        let mut client = app.client();
        let id = id.to_owned();
        async move {
            client
                .resend_invitation(from(user, pb::InvitationRef { id }))
                .await
        }
    };

    let too_soon = resend(ann, &sent.id).await.unwrap_err();
    assert_eq!(too_soon.code(), Code::ResourceExhausted);
    assert_eq!(
        resend(bob, &sent.id).await.unwrap_err().code(),
        Code::NotFound,
        "another user's invitation"
    );
    assert_eq!(
        resend(ann, "not-an-id").await.unwrap_err().code(),
        Code::NotFound
    );

    app.age_invitations(ann, Duration::from_secs(601)).await;
    let again = resend(ann, &sent.id).await.unwrap().into_inner();
    assert_eq!(again.sends, 2);
    assert_eq!(mails_to(&email), 2, "sent again");

    app.age_invitations(ann, Duration::from_secs(601)).await;
    let enough = resend(ann, &sent.id).await.unwrap_err();
    assert_eq!(enough.code(), Code::ResourceExhausted);
    assert!(enough.message().contains("as many times"), "{enough:?}");
    app.stop().await;
}

#[tokio::test]
async fn a_user_sends_only_so_many_invitations_a_day() {
    let app = TestApp::spawn_with(|config| {
        config.limits.invitations_per_day = 2;
    })
    .await;
    let (ann, _) = app.user().await;
    invite(&app, ann, by_email(&friend_email(), "")).await;
    invite(&app, ann, by_email(&friend_email(), "")).await;
    let status = app
        .client()
        .create_invitation(from(ann, by_email(&friend_email(), "")))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert_eq!(app.info(ann).await.invited, 2);

    app.age_invitations(ann, Duration::from_secs(86_401)).await;
    invite(&app, ann, by_email(&friend_email(), "")).await;
    app.stop().await;
}

#[tokio::test]
async fn deleting_an_invitation_is_the_owners_alone() {
    let app = TestApp::spawn().await;
    let (ann, _) = app.user().await;
    let (bob, _) = app.user().await;
    let sent = invite(&app, ann, by_email(&friend_email(), "")).await;
    let delete = |user: Uuid| {
        let mut client = app.client();
        let id = sent.id.clone();
        async move {
            client
                .delete_invitation(from(user, pb::InvitationRef { id }))
                .await
        }
    };
    assert_eq!(delete(bob).await.unwrap_err().code(), Code::NotFound);
    assert_eq!(list(&app, ann, "").await.len(), 1);
    delete(ann).await.unwrap();
    assert!(list(&app, ann, "").await.is_empty());
    assert_eq!(delete(ann).await.unwrap_err().code(), Code::NotFound);
    app.stop().await;
}

#[tokio::test]
async fn a_friend_who_signs_up_with_the_code_is_the_inviters_referral_once() {
    let app = TestApp::spawn().await;
    let (ann, ann_event) = app.user().await;
    let code = app.info(ann).await.code;
    let email = friend_email();
    invite(&app, ann, by_email(&email, "Bob")).await;

    let check = |typed: &str| {
        let mut client = app.client();
        let code = typed.to_owned();
        async move {
            client
                .check_referral_code(pb::CheckReferralCodeRequest { code })
                .await
                .unwrap()
                .into_inner()
        }
    };
    let found = check(&format!(" {} ", code.to_lowercase())).await;
    assert!(found.valid);
    assert_eq!(found.first_name, "Ann");
    assert!(!check("ZZZZZZZZ").await.valid);
    assert!(!check("").await.valid);

    // Bob signs up through the link, from the invited address.
    let bob = Uuid::now_v7();
    let mut bob_event = account_created(bob);
    bob_event.email = email.clone();
    bob_event.referral_code = code.to_lowercase();
    app.deliver(&bob_event).await;
    // A second account signing up with Ann's code from one of Ann's own addresses is Ann.
    let mut sock_puppet = account_created(Uuid::now_v7());
    sock_puppet.phone_national_number = ann_event.phone_national_number.clone();
    sock_puppet.referral_code = code.clone();
    app.deliver(&sock_puppet).await;
    // An unknown code records nothing, and Bob's sign-up delivered again changes nothing.
    let mut stranger = account_created(Uuid::now_v7());
    stranger.referral_code = "ZZZZZZZZ".to_owned();
    app.deliver(&stranger).await;
    app.deliver(&bob_event).await;

    let info = app.info(ann).await;
    assert_eq!((info.invited, info.signed_up, info.rewarded), (1, 1, 0));
    let listed = list(&app, ann, "status").await;
    assert_eq!(listed[0].status, "signed_up");

    // Payments paid the reward on Bob's first payment, then took it back on its refund.
    for (state, rewarded, earned, status) in [
        ("paid", 1, 500, "rewarded"),
        ("reversed", 0, 0, "signed_up"),
    ] {
        let message = Uuid::now_v7();
        app.service
            .publish(
                &ReferralRewardSettled {
                    referred_id: bob.to_string(),
                    referrer_id: ann.to_string(),
                    state: state.to_owned(),
                    referrer_reward: 500,
                    friend_reward: 500,
                    occurred_at: None,
                },
                message,
            )
            .await;
        app.service.wait_processed(message).await;
        let info = app.info(ann).await;
        assert_eq!(
            (info.signed_up, info.rewarded, info.earned),
            (1, rewarded, earned)
        );
        assert_eq!(list(&app, ann, "").await[0].status, status);
    }
    app.stop().await;
}

#[tokio::test]
async fn deletion_removes_the_invitations_and_a_purge_everything_else() {
    let app = TestApp::spawn().await;
    let (ann, _) = app.user().await;
    let code = app.info(ann).await.code;
    invite(&app, ann, by_email(&friend_email(), "")).await;
    let mut bob = account_created(Uuid::now_v7());
    bob.referral_code = code.clone();
    app.deliver(&bob).await;

    let deleted = Uuid::now_v7();
    app.service
        .publish(
            &AccountDeleted {
                user_id: ann.to_string(),
                ..AccountDeleted::default()
            },
            deleted,
        )
        .await;
    app.service.wait_processed(deleted).await;
    assert!(list(&app, ann, "").await.is_empty());
    assert_eq!(
        app.info(ann).await.signed_up,
        1,
        "the referral stays until the purge"
    );

    let purged = Uuid::now_v7();
    app.service
        .publish(
            &AccountPurged {
                user_id: ann.to_string(),
                ..AccountPurged::default()
            },
            purged,
        )
        .await;
    app.service.wait_processed(purged).await;
    assert!(app.stored_codes(ann).await.is_empty());
    let check = app
        .client()
        .check_referral_code(pb::CheckReferralCodeRequest { code })
        .await
        .unwrap()
        .into_inner();
    assert!(!check.valid, "a purged user's code is no one's");
    app.stop().await;
}
