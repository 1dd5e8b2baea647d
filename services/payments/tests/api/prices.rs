//! Prices from the one pricing configuration, and every number a client sends kept to its range.

use evidentia_common::testing;
use evidentia_proto::payments::v1 as pb;
use tonic::{Code, Status};

use crate::helpers::{TestApp, account_created, as_user, user_of};

fn storage(size_bytes: i64, months: i32) -> pb::CalculateStoragePriceRequest {
    pb::CalculateStoragePriceRequest {
        folder: None,
        size_bytes,
        months,
    }
}

/// The first field error of `status`, which must be InvalidArgument.
#[track_caller]
fn first_field(status: &Status) -> (String, String) {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    testing::field_errors(status)
        .first()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn prices_come_from_the_one_pricing_configuration() {
    let app = TestApp::spawn().await;
    let caller = as_user(user_of(&account_created()));
    let mut client = app.client();
    let estimate = client
        .calculate_storage_price(caller.request(storage(2_500_000_000, 12)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(estimate.breakdown.unwrap().price, (199 + 2 * 99) * 12);
    assert_eq!(estimate.new_storage_date, None);
    let bad = client
        .calculate_storage_price(caller.request(storage(1, 5)))
        .await
        .unwrap_err();
    assert_eq!(first_field(&bad).0, "months");
    let sharing = client
        .calculate_sharing_price(caller.request(pb::CalculateSharingPriceRequest {
            copy_type: "authenticated".to_owned(),
            recipients: 2,
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(sharing.price, 998);
    assert!(sharing.wallet_total < sharing.total);
    let pricing = client
        .get_pricing(caller.request(pb::GetPricingRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(pricing.top_up_presets, [1000, 2500, 5000]);
    assert_eq!(pricing.auto_top_up_threshold, 500);
    app.stop().await;
}

/// Every number a client sends has a range (docs/decisions.md): past it is a field error, never
/// an overflow, a panic or an internal error.
#[tokio::test]
async fn numbers_past_their_ranges_are_field_errors_not_server_errors() {
    let app = TestApp::spawn().await;
    let caller = as_user(user_of(&account_created()));
    let mut client = app.client();
    for size in [i64::MAX, 10_000_000_000_001, -1] {
        let refused = client
            .calculate_storage_price(caller.request(storage(size, 12)))
            .await
            .unwrap_err();
        assert_eq!(first_field(&refused).0, "size_bytes", "{size}");
    }
    let refused = client
        .calculate_storage_price(caller.request(storage(i64::MAX, 12)))
        .await
        .unwrap_err();
    assert_eq!(first_field(&refused).1, "The size can be at most 10000 GB.");
    // The largest size priced for the longest period.
    let largest = client
        .calculate_storage_price(caller.request(storage(10_000_000_000_000, 12)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(largest.breakdown.unwrap().price, (199 + 9_999 * 99) * 12);
    for recipients in [0, 101, i32::MAX] {
        let refused = client
            .calculate_sharing_price(caller.request(pb::CalculateSharingPriceRequest {
                copy_type: "authenticated".to_owned(),
                recipients,
            }))
            .await
            .unwrap_err();
        assert_eq!(first_field(&refused).0, "recipients", "{recipients}");
    }
    let refused = client
        .calculate_storage_price(caller.request(storage(1, i32::MAX)))
        .await
        .unwrap_err();
    assert_eq!(first_field(&refused).0, "months");
    app.stop().await;
}
