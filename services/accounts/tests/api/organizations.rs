//! Organizations: invites by e-mail or SMS with a code that joining spends, codes that are used,
//! revoked or expired refused, the roles' permission matrix, and removal, which ends the removed
//! participant's sessions. Invite codes are read from the SMTP sink's and the SMS sink's messages.

use evidentia_common::{
    auth,
    testing::{self, read_message},
};
use evidentia_proto::accounts::v1::{self as pb, accounts_service_client::AccountsServiceClient};
use tonic::{Code, Status, transport::Channel};
use uuid::Uuid;

use crate::{PASSWORD, Person, TestApp, as_user, field_violations, recovery::e164};

/// Signs up the owner of a new organization called `name`.
async fn sign_up_owner(app: &mut TestApp, name: &str) -> (Person, pb::TokenPair) {
    let person = Person::new();
    let verification_token = app.verified(&person.email).await;
    let tokens = app
        .client
        .create_account(pb::CreateAccountRequest {
            username: person.username.clone(),
            email: person.email.clone(),
            phone_number: Some(person.phone.clone()),
            password: PASSWORD.to_owned(),
            verification_token,
            organization_name: name.to_owned(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    (person, tokens)
}

/// Calls accounts as one signed-in user.
struct As {
    client: AccountsServiceClient<Channel>,
    user: Uuid,
}

impl As {
    fn new(app: &TestApp, tokens: &pb::TokenPair) -> Self {
        Self {
            client: app.client.clone(),
            user: app.user_of(tokens),
        }
    }

    async fn invite(
        &self,
        email: Option<&str>,
        phone: Option<&pb::PhoneNumber>,
        role: &str,
    ) -> Result<pb::Invite, Status> {
        let request = as_user(self.user).request(pb::InviteParticipantRequest {
            email: email.map(str::to_owned),
            phone_number: phone.cloned(),
            role: role.to_owned(),
        });
        self.client
            .clone()
            .invite_participant(request)
            .await
            .map(tonic::Response::into_inner)
    }

    async fn participants(&self) -> Result<pb::Participants, Status> {
        let request = as_user(self.user).request(pb::ListParticipantsRequest {});
        self.client
            .clone()
            .list_participants(request)
            .await
            .map(tonic::Response::into_inner)
    }

    async fn change_role(&self, user: Uuid, role: &str) -> Result<(), Status> {
        let request = as_user(self.user).request(pb::ChangeParticipantRoleRequest {
            user_id: user.to_string(),
            role: role.to_owned(),
        });
        self.client
            .clone()
            .change_participant_role(request)
            .await
            .map(drop)
    }

    async fn remove(&self, user: Uuid) -> Result<(), Status> {
        let request = as_user(self.user).request(pb::RemoveParticipantRequest {
            user_id: user.to_string(),
        });
        self.client
            .clone()
            .remove_participant(request)
            .await
            .map(drop)
    }
}

/// The invite code in the newest invite sent to `to` (an e-mail or an E.164 phone).
async fn invite_code(to: &str) -> String {
    let message = read_message(to, "/join-organization/", &[]).await;
    let at = message.find("with the code ").expect("a code") + "with the code ".len();
    let code = message[at..at + 8].to_owned();
    assert!(
        message.contains(&format!("/join-organization/{code}")),
        "the link carries the code: {message}"
    );
    code
}

async fn preview(app: &TestApp, code: &str) -> Result<pb::InvitePreview, Status> {
    app.client
        .clone()
        .preview_invite(pb::PreviewInviteRequest {
            code: code.to_owned(),
        })
        .await
        .map(tonic::Response::into_inner)
}

fn join_request(code: &str, person: &Person) -> pb::JoinOrganizationRequest {
    pb::JoinOrganizationRequest {
        code: code.to_owned(),
        username: person.username.clone(),
        email: person.email.clone(),
        phone_number: Some(person.phone.clone()),
        password: PASSWORD.to_owned(),
        ..Default::default()
    }
}

async fn join(
    app: &TestApp,
    request: pb::JoinOrganizationRequest,
) -> Result<pb::TokenPair, Status> {
    app.client
        .clone()
        .join_organization(request)
        .await
        .map(tonic::Response::into_inner)
}

/// Invites a new person by e-mail as `role` and joins with the mailed code.
async fn join_by_e_mail(app: &TestApp, by: &As, role: &str) -> (Person, pb::TokenPair) {
    let person = Person::new();
    by.invite(Some(&person.email), None, role).await.unwrap();
    let code = invite_code(&person.email).await;
    let tokens = join(app, join_request(&code, &person)).await.unwrap();
    (person, tokens)
}

/// A used, revoked or expired invite: the same answer, whatever the reason.
#[track_caller]
fn assert_invite_expired(status: &Status) {
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert_eq!(testing::reason(status).as_deref(), Some("invite_expired"));
    assert_eq!(
        status.message(),
        "This invite has expired. Please ask for a new one."
    );
}

#[tokio::test]
async fn an_invite_by_e_mail_or_sms_lets_the_invitee_join_once_with_the_code() {
    let mut app = TestApp::spawn().await;
    let (owner, owner_tokens) = sign_up_owner(&mut app, "Acme Rentals").await;
    let owner_as = As::new(&app, &owner_tokens);
    let profile = app
        .client
        .get_profile(as_user(owner_as.user).request(pb::GetProfileRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(profile.account_type, "organization");
    let organization = profile.organization.expect("the owner's organization");
    assert_eq!(
        (organization.name.as_str(), organization.role.as_str()),
        ("Acme Rentals", "owner")
    );
    let (loner, loner_tokens) = app.sign_up().await;
    let status = app
        .client
        .get_organization(
            as_user(app.user_of(&loner_tokens)).request(pb::GetOrganizationRequest {}),
        )
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);

    // By e-mail: the code arrives with the join link and opens a preview, however it is typed.
    let invited = Person {
        email: format!("invited-{}", loner.email),
        ..Person::new()
    };
    let invite = owner_as
        .invite(Some(&invited.email), None, "member")
        .await
        .unwrap();
    assert_eq!(
        (invite.channel.as_str(), invite.role.as_str()),
        ("email", "member")
    );
    let code = invite_code(&invited.email).await;
    let shown = preview(&app, &code.to_lowercase()).await.unwrap();
    assert_eq!(shown.organization_name, "Acme Rentals");
    assert_eq!(
        (shown.role.as_str(), shown.email.as_deref()),
        ("member", Some(invited.email.as_str()))
    );
    let status = preview(&app, "NOTACODE").await.unwrap_err();
    assert_eq!(status.code(), Code::NotFound);

    let elsewhere = Person {
        email: loner.email.clone(),
        ..invited.clone()
    };
    let status = join(&app, join_request(&code, &elsewhere))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&status),
        [(
            "email".into(),
            "Use the email address the invite was sent to.".into()
        )]
    );
    // Invited again meanwhile (the first mail was missed): joining with either closes both.
    owner_as
        .invite(Some(&invited.email), None, "admin")
        .await
        .unwrap();
    let second = invite_code(&invited.email).await;
    assert_ne!(second, code);
    let member = join(&app, join_request(&code, &invited)).await.unwrap();
    let member_id = app.user_of(&member);
    assert_invite_expired(&preview(&app, &second).await.unwrap_err());
    // A used code is refused, to join and to preview.
    let again = Person {
        email: invited.email.clone(),
        ..Person::new()
    };
    assert_invite_expired(&join(&app, join_request(&code, &again)).await.unwrap_err());
    assert_invite_expired(&preview(&app, &code).await.unwrap_err());
    // The same join sent again (its answer was lost): signed in again as the account it made,
    // never with another password.
    let retried = join(&app, join_request(&code, &invited)).await.unwrap();
    assert_eq!(app.user_of(&retried), member_id);
    let guessed = pb::JoinOrganizationRequest {
        password: format!("{PASSWORD}x"),
        ..join_request(&code, &invited)
    };
    assert_invite_expired(&join(&app, guessed).await.unwrap_err());

    // By SMS: the code proves the phone, not the e-mail, which needs a sign-up code.
    let by_sms = Person {
        email: format!("sms-{}", loner.email),
        ..Person::new()
    };
    let invite = owner_as
        .invite(None, Some(&by_sms.phone), "member")
        .await
        .unwrap();
    assert_eq!(invite.channel, "sms");
    let sms_code = invite_code(&e164(&by_sms.phone)).await;
    let shown = preview(&app, &sms_code).await.unwrap();
    assert_eq!(shown.phone_number.as_ref(), Some(&by_sms.phone));
    let status = join(&app, join_request(&sms_code, &by_sms))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&status),
        [(
            "email".into(),
            "Please confirm your email address again.".into()
        )]
    );
    let verification_token = app.verified(&by_sms.email).await;
    let joined = join(
        &app,
        pb::JoinOrganizationRequest {
            verification_token,
            ..join_request(&sms_code, &by_sms)
        },
    )
    .await
    .unwrap();

    let list = owner_as.participants().await.unwrap();
    let people: Vec<(&str, &str, &str)> = list
        .participants
        .iter()
        .map(|p| (p.user_id.as_str(), p.email.as_str(), p.role.as_str()))
        .collect();
    assert_eq!(
        people,
        [
            (
                owner_as.user.to_string().as_str(),
                owner.email.as_str(),
                "owner"
            ),
            (
                member_id.to_string().as_str(),
                invited.email.as_str(),
                "member"
            ),
            (
                app.user_of(&joined).to_string().as_str(),
                by_sms.email.as_str(),
                "member"
            ),
        ]
    );
    assert!(list.invites.is_empty(), "both invites are spent: {list:?}");
    app.stop().await;
}

#[tokio::test]
async fn a_revoked_or_expired_invite_no_longer_opens() {
    let mut app = TestApp::spawn().await;
    let (_, owner_tokens) = sign_up_owner(&mut app, "Acme Rentals").await;
    let owner_as = As::new(&app, &owner_tokens);
    let (revoked, expired) = (Person::new(), Person::new());
    let mut codes = Vec::new();
    for person in [&revoked, &expired] {
        let invite = owner_as
            .invite(Some(&person.email), None, "member")
            .await
            .unwrap();
        let code = invite_code(&person.email).await;
        preview(&app, &code).await.expect("a fresh invite opens");
        codes.push((invite.id, code));
    }
    assert_eq!(owner_as.participants().await.unwrap().invites.len(), 2);

    app.client
        .clone()
        .revoke_invite(as_user(owner_as.user).request(pb::RevokeInviteRequest {
            id: codes[0].0.clone(),
        }))
        .await
        .unwrap();
    assert_invite_expired(&preview(&app, &codes[0].1).await.unwrap_err());
    assert_invite_expired(
        &join(&app, join_request(&codes[0].1, &revoked))
            .await
            .unwrap_err(),
    );

    sqlx::query!(
        "UPDATE organization_invites SET expires_at = now() - interval '1 second' WHERE code = $1",
        codes[1].1
    )
    .execute(&mut testing::connect(&app.config.service.database_url).await)
    .await
    .unwrap();
    assert_invite_expired(&preview(&app, &codes[1].1).await.unwrap_err());
    assert_invite_expired(
        &join(&app, join_request(&codes[1].1, &expired))
            .await
            .unwrap_err(),
    );
    assert!(
        owner_as.participants().await.unwrap().invites.is_empty(),
        "neither is open any more"
    );
    app.stop().await;
}

#[tokio::test]
async fn roles_limit_who_invites_and_removes_and_another_organization_reaches_nobody() {
    let mut app = TestApp::spawn().await;
    let (_, owner_tokens) = sign_up_owner(&mut app, "Acme Rentals").await;
    let owner_as = As::new(&app, &owner_tokens);
    let (_, member_tokens) = join_by_e_mail(&app, &owner_as, "member").await;
    let member_as = As::new(&app, &member_tokens);
    let (_, other_tokens) = join_by_e_mail(&app, &owner_as, "member").await;
    let other_id = app.user_of(&other_tokens);
    let forbidden = |result: Result<(), Status>| {
        let status = result.expect_err("forbidden");
        assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
        assert_eq!(
            testing::reason(&status).as_deref(),
            Some("permission_denied")
        );
    };

    // A member sees the participants but not the invites, and manages nothing.
    let seen = member_as.participants().await.unwrap();
    assert_eq!((seen.participants.len(), seen.invites.len()), (3, 0));
    forbidden(
        member_as
            .invite(Some(&Person::new().email), None, "member")
            .await
            .map(drop),
    );
    forbidden(member_as.change_role(other_id, "admin").await);
    forbidden(member_as.remove(other_id).await);

    // Made an admin, they invite members (here by SMS) but not admins, and cannot remove the
    // owner.
    owner_as.change_role(member_as.user, "admin").await.unwrap();
    let phone = Person::new().phone;
    forbidden(
        member_as
            .invite(None, Some(&phone), "admin")
            .await
            .map(drop),
    );
    member_as
        .invite(None, Some(&phone), "member")
        .await
        .expect("an admin invites members");
    invite_code(&e164(&phone)).await;
    forbidden(member_as.remove(owner_as.user).await);
    forbidden(member_as.change_role(owner_as.user, "member").await);

    // Another organization's owner reaches nobody here.
    let (_, stranger_tokens) = sign_up_owner(&mut app, "Other Org").await;
    let stranger_as = As::new(&app, &stranger_tokens);
    for user in [other_id, member_as.user, owner_as.user] {
        let status = stranger_as.remove(user).await.unwrap_err();
        assert_eq!(status.code(), Code::NotFound, "{status:?}");
        assert_eq!(status.message(), "Participant not found.");
        let status = stranger_as.change_role(user, "admin").await.unwrap_err();
        assert_eq!(status.code(), Code::NotFound, "{status:?}");
    }
    let theirs = stranger_as.participants().await.unwrap();
    assert_eq!(theirs.participants.len(), 1, "{theirs:?}");
    assert_eq!(owner_as.participants().await.unwrap().participants.len(), 3);
    app.stop().await;
}

#[tokio::test]
async fn removing_a_participant_ends_their_sessions_and_leaves_an_individual_account() {
    let mut app = TestApp::spawn().await;
    let (_, owner_tokens) = sign_up_owner(&mut app, "Acme Rentals").await;
    let owner_as = As::new(&app, &owner_tokens);
    let (admin, admin_tokens) = join_by_e_mail(&app, &owner_as, "admin").await;
    let (removed, joined) = join_by_e_mail(&app, &owner_as, "member").await;
    let removed_id = app.user_of(&joined);
    let second_session = app.login(&removed.username, PASSWORD).await.unwrap();

    owner_as.remove(removed_id).await.unwrap();

    // Accounts refuses their refresh tokens and puts their sessions on the deny-list that every
    // service's caller check reads; the admin's session goes on.
    let redis = redis::Client::open(app.config.service.redis_url.as_str()).unwrap();
    let redis = redis::aio::ConnectionManager::new(redis).await.unwrap();
    let secret = app.config.sessions.jwt_secret.clone();
    for tokens in [&joined, &second_session] {
        let status = app.refresh(&tokens.refresh).await.unwrap_err();
        assert_eq!(status.code(), Code::Unauthenticated);
        assert_eq!(testing::reason(&status).as_deref(), Some("token_not_valid"));
        let session = auth::verify_access(&secret, &tokens.access)
            .unwrap()
            .session_id;
        assert!(auth::is_session_revoked(&redis, session).await.unwrap());
    }
    let session = auth::verify_access(&secret, &admin_tokens.access)
        .unwrap()
        .session_id;
    assert!(!auth::is_session_revoked(&redis, session).await.unwrap());
    app.refresh(&admin_tokens.refresh)
        .await
        .expect("another participant's session goes on");

    // The account stays, outside the organization; a new sign-in works.
    let tokens = app.login(&removed.username, PASSWORD).await.unwrap();
    let profile = app
        .client
        .get_profile(as_user(app.user_of(&tokens)).request(pb::GetProfileRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(profile.organization, None);
    let list = owner_as.participants().await.unwrap();
    let left: Vec<&str> = list.participants.iter().map(|p| p.email.as_str()).collect();
    assert!(!left.contains(&removed.email.as_str()), "{left:?}");
    assert_eq!(list.participants.len(), 2);
    assert!(left.contains(&admin.email.as_str()));
    app.stop().await;
}
