//! A forgotten username or password: the username sent by e-mail or SMS, and a password reset
//! with a single-use code that ends every session. Messages are read from the SMTP sink's and the
//! SMS sink's directories.

use evidentia_common::testing::{code_in, read_message};
use evidentia_proto::accounts::v1::{self as pb, Channel, CodePurpose};
use tonic::Code;

use crate::{PASSWORD, TestApp, field_violations};

pub(crate) fn e164(phone: &pb::PhoneNumber) -> String {
    format!("{}{}", phone.country_code, phone.national_number)
}

#[tokio::test]
async fn forgot_password_with_a_single_use_code_sets_it_and_ends_every_session() {
    let mut app = TestApp::spawn().await;
    let (person, tokens) = app.sign_up().await;
    let sign_up_mail = read_message(&person.email, "confirmation code is", &[]).await;

    let options = app
        .client
        .get_recovery_options(pb::RecoveryOptionsRequest {
            username: person.email.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(options.communication_method, "email");
    assert!(
        options.email_hint.contains("***@example.com"),
        "{options:?}"
    );
    assert!(
        options.phone_hint.as_deref().unwrap().starts_with("+1 *"),
        "{options:?}"
    );
    let unknown = app
        .client
        .get_recovery_options(pb::RecoveryOptionsRequest {
            username: "nobody-here".to_owned(),
        })
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&unknown),
        [(
            "username".into(),
            "No account found with this username.".into()
        )]
    );

    // By SMS: the code reaches the phone's file in the SMS sink.
    let send = |channel: Channel| pb::SendConfirmationCodeRequest {
        username: person.username.clone(),
        purpose: CodePurpose::PasswordReset.into(),
        channel: channel.into(),
        ..Default::default()
    };
    let sent = app
        .client
        .send_confirmation_code(send(Channel::Sms))
        .await
        .unwrap()
        .into_inner();
    assert!(sent.sent_to.starts_with("+1 *"), "{sent:?}");
    let sms = read_message(&e164(&person.phone), "confirmation code is", &[]).await;
    // A newer code by e-mail supersedes the SMS one.
    app.client
        .send_confirmation_code(send(Channel::Unspecified))
        .await
        .unwrap();
    let mail = read_message(&person.email, "confirmation code is", &[sign_up_mail]).await;
    let verify = |code: String| pb::VerifyConfirmationCodeRequest {
        username: person.username.clone(),
        code,
        purpose: CodePurpose::PasswordReset.into(),
        ..Default::default()
    };
    let superseded = app
        .client
        .verify_confirmation_code(verify(code_in(&sms)))
        .await
        .unwrap_err();
    assert_eq!(
        superseded.code(),
        Code::InvalidArgument,
        "the superseded SMS code no longer works"
    );
    let token = app
        .client
        .verify_confirmation_code(verify(code_in(&mail)))
        .await
        .unwrap()
        .into_inner()
        .verification_token;
    let again = app
        .client
        .verify_confirmation_code(verify(code_in(&mail)))
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::InvalidArgument, "a code is single use");

    let reset = |new_password: &str| pb::ResetPasswordRequest {
        new_password: new_password.to_owned(),
        username: person.username.clone(),
        verification_token: token.clone(),
        ..Default::default()
    };
    let weak = app
        .client
        .reset_password(reset("weakpass"))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&weak),
        [(
            "new_password".into(),
            "Wrong Password. Please try again".into()
        )]
    );
    let pair = app
        .client
        .reset_password(reset("Newer12#x"))
        .await
        .unwrap()
        .into_inner();
    assert!(!pair.access.is_empty());
    let spent = app
        .client
        .reset_password(reset("Other12#x"))
        .await
        .unwrap_err();
    assert_eq!(
        spent.code(),
        Code::InvalidArgument,
        "the verification is spent"
    );

    // Every earlier session ended; the new password signs in, the old does not.
    let ended = app.refresh(&tokens.refresh).await.unwrap_err();
    assert_eq!(ended.code(), Code::Unauthenticated);
    assert!(app.login(&person.username, PASSWORD).await.is_err());
    app.login(&person.username, "Newer12#x").await.unwrap();
    app.stop().await;
}

#[tokio::test]
async fn a_forgotten_username_goes_by_e_mail_or_sms_and_unknown_addresses_are_field_errors() {
    let mut app = TestApp::spawn().await;
    let (person, _) = app.sign_up().await;
    let said = format!("Your Evidentia username is {}", person.username);
    app.client
        .send_username_by_email(pb::UsernameByEmailRequest {
            email: person.email.to_uppercase(),
        })
        .await
        .unwrap();
    read_message(&person.email, &said, &[]).await;
    let registered = app
        .client
        .is_phone_registered(pb::PhoneVerifyRequest {
            phone_number: Some(person.phone.clone()),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(registered.registered);
    app.client
        .send_username_by_phone(pb::UsernameByPhoneRequest {
            phone_number: Some(person.phone.clone()),
        })
        .await
        .unwrap();
    read_message(&e164(&person.phone), &said, &[]).await;

    let unknown = app
        .client
        .send_username_by_email(pb::UsernameByEmailRequest {
            email: "nobody-at-all@example.com".to_owned(),
        })
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&unknown),
        [(
            "email".into(),
            "No account found with this email address.".into()
        )]
    );
    let bad = app
        .client
        .send_username_by_phone(pb::UsernameByPhoneRequest {
            phone_number: Some(pb::PhoneNumber {
                country_code: "+999".to_owned(),
                national_number: "12".to_owned(),
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&bad),
        [("phone_number".into(), "Invalid country code".into())]
    );
    app.stop().await;
}
