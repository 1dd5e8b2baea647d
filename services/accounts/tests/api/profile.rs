//! Profile changes: sensitive ones need a password token, and a new e-mail or phone needs the
//! code sent to it before it takes effect.

use evidentia_common::testing::{code_in, read_message};
use evidentia_proto::accounts::v1 as pb;
use tonic::Code;

use crate::{PASSWORD, TestApp, as_user, field_violations, recovery::e164};

#[tokio::test]
async fn sensitive_changes_need_a_password_token_and_a_new_address_needs_its_code() {
    let mut app = TestApp::spawn().await;
    let (person, tokens) = app.sign_up().await;
    let caller = as_user(app.user_of(&tokens));
    let mut client = app.client.clone();
    let wrong = client
        .verify_password(caller.request(pb::VerifyPasswordRequest {
            password: "Wrong12#x".to_owned(),
        }))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&wrong),
        [("password".into(), "Wrong Password. Please try again".into())]
    );
    let new_email = format!("new-{}", person.email);
    let change_email = |token: &str, code: Option<&str>| {
        caller.request(pb::ChangeEmailRequest {
            new_email: new_email.clone(),
            password_token: token.to_owned(),
            code: code.map(str::to_owned),
        })
    };
    let missing = client
        .change_email(change_email("forged", None))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&missing),
        [(
            "password_token".into(),
            "Please confirm your password again.".into()
        )]
    );
    let token = client
        .verify_password(caller.request(pb::VerifyPasswordRequest {
            password: PASSWORD.to_owned(),
        }))
        .await
        .unwrap()
        .into_inner()
        .password_token;
    let profile = |client: &mut pb::accounts_service_client::AccountsServiceClient<_>| {
        let request = caller.request(pb::GetProfileRequest {});
        let mut client = client.clone();
        async move { client.get_profile(request).await.unwrap().into_inner() }
    };

    // The account's own address (in any case) is no change: no code goes to it.
    let own = client
        .change_email(caller.request(pb::ChangeEmailRequest {
            new_email: person.email.to_uppercase(),
            password_token: token.clone(),
            code: None,
        }))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&own),
        [(
            "new_email".into(),
            "This is already your e-mail address.".into()
        )]
    );

    // E-mail: a code to the new address first; the change waits for it.
    let sent = client
        .change_email(change_email(&token, None))
        .await
        .unwrap()
        .into_inner();
    assert!(!sent.changed, "{sent:?}");
    assert_eq!(
        profile(&mut client).await.email,
        person.email,
        "not changed before the code"
    );
    let code = code_in(&read_message(&new_email, "confirmation code is", &[]).await);
    let wrong_code = if code == "000000" { "111111" } else { "000000" };
    let bad = client
        .change_email(change_email(&token, Some(wrong_code)))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&bad),
        [(
            "confirmation_code".into(),
            "The confirmation code is incorrect.".into()
        )]
    );
    let changed = client
        .change_email(change_email(&token, Some(&code)))
        .await
        .unwrap()
        .into_inner();
    assert!(changed.changed);

    // Nor is its own phone number.
    let own = client
        .change_phone(caller.request(pb::ChangePhoneRequest {
            new_phone_number: Some(person.phone.clone()),
            password_token: token.clone(),
            code: None,
        }))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&own),
        [(
            "new_phone_number".into(),
            "This is already your phone number.".into()
        )]
    );

    // Phone: the code goes by SMS to the new number; the same token still works.
    let new_phone = pb::PhoneNumber {
        country_code: "+44".to_owned(),
        national_number: format!("7{:09}", uuid::Uuid::new_v4().as_u128() % 1_000_000_000),
    };
    let change_phone = |code: Option<String>| {
        caller.request(pb::ChangePhoneRequest {
            new_phone_number: Some(new_phone.clone()),
            password_token: token.clone(),
            code,
        })
    };
    let sent = client
        .change_phone(change_phone(None))
        .await
        .unwrap()
        .into_inner();
    assert!(!sent.changed, "{sent:?}");
    let code = code_in(&read_message(&e164(&new_phone), "confirmation code is", &[]).await);
    assert!(
        client
            .change_phone(change_phone(Some(code)))
            .await
            .unwrap()
            .into_inner()
            .changed
    );

    // Username, names, address and the communication method.
    let change_username = |new_username: &str| {
        caller.request(pb::ChangeUsernameRequest {
            new_username: new_username.to_owned(),
            password_token: token.clone(),
        })
    };
    let bad = client
        .change_username(change_username("a b"))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&bad),
        [(
            "new_username".into(),
            "Please enter a valid username".into()
        )]
    );
    let new_username = format!("n{}", &person.username[1..]);
    client
        .change_username(change_username(&new_username))
        .await
        .unwrap();
    let names = |first: &str, last: &str| {
        caller.request(pb::UpdateNamesRequest {
            first_name: first.to_owned(),
            last_name: last.to_owned(),
        })
    };
    let bad = client.update_names(names("A", "")).await.unwrap_err();
    assert_eq!(
        field_violations(&bad),
        [
            ("first_name".into(), "Minimum 2 characters".into()),
            ("last_name".into(), "This field is required".into())
        ]
    );
    client.update_names(names("Ann", "Lee")).await.unwrap();
    let address = |country: &str, zip_code: &str| {
        caller.request(pb::Address {
            country: country.to_owned(),
            apartment_number: String::new(),
            province: "Ile de France".to_owned(),
            street: "Rue Rivoli".to_owned(),
            house: "1".to_owned(),
            city: "Paris".to_owned(),
            zip_code: zip_code.to_owned(),
        })
    };
    let bad = client
        .change_address(address("France1", "1234567890"))
        .await
        .unwrap_err();
    assert_eq!(
        field_violations(&bad),
        [
            (
                "country".into(),
                "Incorrect input. Only letters allowed".into()
            ),
            ("zip_code".into(), "Maximum 9 characters".into())
        ]
    );
    client
        .change_address(address("France", "75001"))
        .await
        .unwrap();
    let method = |communication_method: &str| {
        caller.request(pb::ChangeCommunicationMethodRequest {
            communication_method: communication_method.to_owned(),
        })
    };
    let bad = client
        .change_communication_method(method("pigeon"))
        .await
        .unwrap_err();
    assert_eq!(bad.code(), Code::InvalidArgument);
    client
        .change_communication_method(method("sms"))
        .await
        .unwrap();

    let me = profile(&mut client).await;
    assert_eq!(me.email, new_email);
    assert_eq!(me.username, new_username);
    assert_eq!(me.phone_number, Some(new_phone));
    assert_eq!(
        (me.first_name.as_str(), me.last_name.as_str()),
        ("Ann", "Lee")
    );
    assert_eq!(me.address.unwrap().city, "Paris");
    assert_eq!(me.communication_method, "sms");
    app.login(&new_username, PASSWORD).await.unwrap();
    app.stop().await;
}
