//! Saved cards against the Stripe emulator (localstripe): the first is the default and the same
//! card again is a duplicate, a card declined at setup is never saved, the default cannot be
//! removed, ids off Stripe's shape are field errors, and the card holder's name.

use evidentia_common::testing;
use evidentia_proto::payments::v1 as pb;
use tonic::{Code, Status};

use crate::helpers::{TestApp, account_created, as_user, user_of};

const OK_CARD: &str = "4242424242424242";
const DECLINED_CARD: &str = "4000000000000002";

/// Asserts `status` is InvalidArgument whose first field error names `field`; answers its message.
#[track_caller]
fn field_error(status: &Status, field: &str) -> String {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let errors = testing::field_errors(status);
    let (first, message) = errors.first().cloned().unwrap_or_default();
    assert_eq!(first, field, "{status:?}");
    message
}

#[tokio::test]
async fn a_card_is_saved_as_default_and_the_same_card_again_is_a_duplicate() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let (first, confirmed) = app.add_card(&user, OK_CARD).await;
    assert!(confirmed);
    let cards = app.cards(&user).await;
    assert_eq!(cards.len(), 1);
    assert_eq!(cards[0].brand, "visa");
    assert_eq!(cards[0].last4, "4242");
    assert!(
        cards[0].default_method,
        "spec §2: the first card is the default"
    );
    assert!(!cards[0].wallet);
    assert_eq!(cards[0].fingerprint, first.fingerprint);
    // Spec §9: the first authorisation charges $0.50, kept as wallet credit.
    assert_eq!(app.balance(&user).await, 50);

    // Spec §4: the same card number has the same fingerprint; the client stops there, and a
    // client that did not is not given a second card.
    let (second, confirmed) = app.add_card(&user, OK_CARD).await;
    assert_eq!(second.fingerprint, first.fingerprint);
    assert!(confirmed);
    assert_eq!(app.cards(&user).await.len(), 1);
    assert_eq!(
        app.balance(&user).await,
        50,
        "the first authorisation is charged once"
    );

    // Another user's card is not reachable.
    let other = as_user(user_of(&account_created()));
    let card = pb::PaymentMethodRef {
        payment_method_id: cards[0].id.clone(),
    };
    let mut client = app.client();
    let found = client
        .get_payment_method(other.request(card.clone()))
        .await
        .unwrap_err();
    assert_eq!(found.code(), Code::NotFound);
    let made_default = client
        .set_default_payment_method(other.request(card))
        .await
        .unwrap_err();
    assert_eq!(made_default.code(), Code::NotFound);
    app.stop().await;
}

/// Spec §7 ids go into Stripe's URLs: only Stripe's shape (prefix, `_`, letters and digits) is
/// taken from a client, as a field error, before anything is looked up, stored or sent.
#[tokio::test]
async fn stripe_ids_off_stripes_shape_are_field_errors_and_nothing_is_stored() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    let customer = app.ensure(&user).await;
    let mut client = app.client();
    for bad in ["é", " ", "a\r\nb", "../x", "pm_X?expand[]=customer"] {
        let card = || pb::PaymentMethodRef {
            payment_method_id: bad.to_owned(),
        };
        let refused = client
            .register_payment_method(caller.request(pb::RegisterPaymentMethodRequest {
                payment_method_id: bad.to_owned(),
            }))
            .await
            .unwrap_err();
        let message = field_error(&refused, "payment_method_id");
        assert!(
            message == "This field is required" || message.starts_with("Expected a Stripe"),
            "{bad:?}: {message}"
        );
        let refused = client
            .set_default_payment_method(caller.request(card()))
            .await
            .unwrap_err();
        field_error(&refused, "payment_method_id");
        let refused = client
            .remove_payment_method(caller.request(card()))
            .await
            .unwrap_err();
        field_error(&refused, "payment_method_id");
        let refused = client
            .update_stored_account(caller.request(pb::UpdateStoredAccountRequest {
                auto_topping_up_amount: 1000,
                payment_method_id: bad.to_owned(),
            }))
            .await
            .unwrap_err();
        field_error(&refused, "payment_method_id");
        let refused = client
            .create_payment_intent(caller.request(pb::CreatePaymentIntentRequest {
                payment_method_id: bad.to_owned(),
                metadata: Some(pb::PaymentIntentMetadata {
                    action: 4,
                    amount: 1000,
                }),
                idempotency_key: uuid::Uuid::new_v4().to_string(),
            }))
            .await
            .unwrap_err();
        field_error(&refused, "payment_method_id");
        let refused = client
            .create_setup_intent(caller.request(pb::CreateSetupIntentRequest {
                stripe_customer_id: bad.to_owned(),
            }))
            .await
            .unwrap_err();
        field_error(&refused, "stripe_customer_id");
    }
    let refused = client
        .create_setup_intent(caller.request(pb::CreateSetupIntentRequest {
            stripe_customer_id: format!("{customer}?expand[]=x"),
        }))
        .await
        .unwrap_err();
    field_error(&refused, "stripe_customer_id");
    let found = client
        .get_payment_method(caller.request(pb::PaymentMethodRef {
            payment_method_id: "pm_X?expand[]=customer".to_owned(),
        }))
        .await
        .unwrap_err();
    assert_eq!(
        found.code(),
        Code::NotFound,
        "an id that cannot be a card names no card"
    );

    // No card id was stored.
    assert!(app.cards(&user).await.is_empty());
    assert_eq!(app.stored_account(&user).await.payment_method_id, None);
    assert_eq!(
        app.profile(user_of(&user)).await.default_payment_method,
        None
    );
    app.stop().await;
}

#[tokio::test]
async fn a_card_declined_at_setup_is_never_saved() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let (_, confirmed) = app.add_card(&user, DECLINED_CARD).await;
    assert!(!confirmed, "4000000000000002 is declined when set up");
    assert!(app.cards(&user).await.is_empty());
    assert_eq!(app.balance(&user).await, 0);
    app.stop().await;
}

#[tokio::test]
async fn the_default_card_cannot_be_removed_until_another_is_default() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    app.saved_card(&user, OK_CARD).await;
    app.saved_card(&user, "5555555555554444").await;
    let cards = app.cards(&user).await;
    assert_eq!(cards.len(), 2);
    let first = cards[0].id.clone();
    let second = cards[1].id.clone();
    assert_eq!(cards[1].last4, "4444");
    let card = |id: &str| {
        caller.request(pb::PaymentMethodRef {
            payment_method_id: id.to_owned(),
        })
    };
    let mut client = app.client();

    let refused = client
        .remove_payment_method(card(&first))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert_eq!(
        refused.message(),
        "Cannot remove user's default payment method. Set another method as default and try again."
    );

    let listed = client
        .set_default_payment_method(card(&second))
        .await
        .unwrap()
        .into_inner();
    assert!(listed.payment_methods[1].default_method);
    assert_eq!(
        app.profile(user_of(&user)).await.default_payment_method,
        Some(second.clone())
    );

    let left = client
        .remove_payment_method(card(&first))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(left.payment_methods.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn the_card_holder_name_is_checked_and_set_on_the_stripe_customer() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    let name = |first: &str, last: &str| {
        caller.request(pb::UpdateCustomerNameRequest {
            first_name: first.to_owned(),
            last_name: last.to_owned(),
            email: user.email.clone(),
        })
    };
    let mut client = app.client();
    // Spec §5 "Billing first and last name".
    let refused = client
        .update_customer_name(name("A", ""))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(
        testing::field_errors(&refused),
        [
            ("first_name".to_owned(), "Minimum 2 characters".to_owned()),
            ("last_name".to_owned(), "This field is required".to_owned()),
        ]
    );
    let refused = client
        .update_customer_name(name("Ann", &"x".repeat(51)))
        .await
        .unwrap_err();
    field_error(&refused, "last_name");

    let saved = client
        .update_customer_name(name(" Bea ", "Kim"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (saved.first_name.as_str(), saved.last_name.as_str()),
        ("Bea", "Kim")
    );
    let customer = app.ensure(&user).await;
    let at_stripe = app
        .stripe(reqwest::Method::GET, &format!("customers/{customer}"), &[])
        .await;
    // Not the sign-up name (Ann Lee) the customer was made with.
    assert_eq!(at_stripe["name"], "Bea Kim");
    app.stop().await;
}

/// Removing a card while other requests make it the default and the wallet's card leaves the
/// removed card in neither place: the three take one lock, so whichever comes second sees what
/// the first did (a removed card is not found; the default or the wallet card cannot be removed).
/// A removed card left there would be charged by the next card payment or auto top-up.
#[tokio::test]
async fn a_card_removed_while_made_default_or_the_wallet_card_is_left_in_neither() {
    let app = TestApp::spawn().await;
    let mut removals = 0;
    for round in 0..6 {
        let user = account_created();
        let caller = as_user(user_of(&user));
        app.saved_card(&user, OK_CARD).await;
        let second = app.saved_card(&user, "5555555555554444").await;
        let card = || {
            caller.request(pb::PaymentMethodRef {
                payment_method_id: second.clone(),
            })
        };
        let wallet = caller.request(pb::UpdateStoredAccountRequest {
            auto_topping_up_amount: 1000,
            payment_method_id: second.clone(),
        });
        let (mut a, mut b, mut c) = (app.client(), app.client(), app.client());
        let (removed, made_default, moved_wallet) = tokio::join!(
            c.remove_payment_method(card()),
            a.set_default_payment_method(card()),
            b.update_stored_account(wallet),
        );
        let still_saved = app.cards(&user).await.iter().any(|c| c.id == second);
        assert_eq!(removed.is_ok(), !still_saved, "round {round}: {removed:?}");
        let default = app.profile(user_of(&user)).await.default_payment_method;
        let wallet_card = app
            .client()
            .get_stored_account(caller.request(pb::GetStoredAccountRequest {}))
            .await
            .unwrap()
            .into_inner()
            .payment_method_id;
        if removed.is_ok() {
            removals += 1;
            assert!(made_default.is_err(), "round {round}: {made_default:?}");
            assert!(moved_wallet.is_err(), "round {round}: {moved_wallet:?}");
            assert_ne!(default.as_deref(), Some(second.as_str()), "round {round}");
            assert_ne!(
                wallet_card.as_deref(),
                Some(second.as_str()),
                "round {round}"
            );
        } else {
            assert!(
                default.as_deref() == Some(second.as_str())
                    || wallet_card.as_deref() == Some(second.as_str()),
                "round {round}: refused although neither default nor the wallet's: {removed:?}"
            );
        }
    }
    app.stop().await;
    // Each order was possible; a run where the removal never won showed nothing of the race.
    assert!(removals > 0, "the removal never came first in six rounds");
}
