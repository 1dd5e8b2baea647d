//! Folders: names, ownership (another user's folder or item is NOT_FOUND), storage dates that
//! close a folder to new files, and rental folders with their kind, vehicle, pick-up and sections.

use evidence::error::EXPIRED_MESSAGE;
use evidentia_common::{proto::evidence::v1 as pb, testing};
use tonic::Code;

use crate::helpers::{TestApp, User, assert_field, assert_message, capture};

#[tokio::test]
async fn folders_validate_names_and_another_users_folder_or_item_is_not_found() {
    let app = TestApp::spawn().await;
    let owner = app.user();
    let other = app.user();
    let folder = owner.folder("Mine").await;
    let rename = |user: &User, name: &str| {
        let mut client = user.client();
        let request = user.req(pb::RenameFolderRequest {
            folder_id: folder.clone(),
            name: name.into(),
        });
        async move {
            client
                .rename_folder(request)
                .await
                .map(tonic::Response::into_inner)
        }
    };

    // spec §5 File name
    for (name, message) in [
        ("a", "Must be 2 characters or more"),
        (&"x".repeat(51)[..], "Must be 50 characters or less"),
        ("no/slashes", "Special characters can not be used"),
    ] {
        let refused = rename(&owner, name).await.unwrap_err();
        assert_message(&refused, message);
    }
    let renamed = rename(&owner, "Renamed 1").await.unwrap();
    assert_eq!(renamed.name, "Renamed 1");

    let bytes = vec![3u8; 100];
    let created = owner
        .create_item(capture(&folder, &bytes, "image/jpeg"))
        .await
        .unwrap();
    let item = created.item.unwrap().id;
    let not_found = |answer: Result<(), tonic::Status>, what: &str| {
        assert_eq!(answer.map_err(|s| s.code()), Err(Code::NotFound), "{what}");
    };
    not_found(other.get_folder(&folder).await.map(drop), "their folder");
    not_found(
        other.list_items(&folder).await.map(drop),
        "their folder's items",
    );
    not_found(other.item(&item).await.map(drop), "their item");
    not_found(
        other.finish(&item).await.map(drop),
        "finishing their upload",
    );
    not_found(
        other
            .create_item(capture(&folder, &bytes, "image/jpeg"))
            .await
            .map(drop),
        "a file in their folder",
    );
    not_found(
        rename(&other, "Taken").await.map(drop),
        "renaming their folder",
    );
    let delete = |user: &User| {
        let mut client = user.client();
        let request = user.req(pb::DeleteFolderRequest {
            folder_id: folder.clone(),
        });
        async move { client.delete_folder(request).await.map(drop) }
    };
    not_found(delete(&other).await, "deleting their folder");
    not_found(
        owner.get_folder("not-a-uuid").await.map(drop),
        "an id that is not one",
    );

    assert!(other.list_folders(None).await.unwrap().is_empty());
    delete(&owner).await.unwrap();
    not_found(
        owner.item(&item).await.map(drop),
        "an item of a deleted folder",
    );
}

#[tokio::test]
async fn an_expired_folder_takes_no_new_files() {
    let app = TestApp::spawn().await;
    let user = app.user();
    let folder = user.folder("Old").await;
    app.expire_now(&folder).await;
    assert!(user.get_folder(&folder).await.unwrap().expired);
    let bytes = vec![5u8; 64];
    let refused = user
        .create_item(capture(&folder, &bytes, "image/jpeg"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert_eq!(refused.message(), EXPIRED_MESSAGE);
    assert_eq!(
        testing::reason(&refused).as_deref(),
        Some("storage_expired")
    );
}

fn rental(
    kind: &str,
    vehicle_type: Option<&str>,
    moment: &str,
    pickup: Option<&str>,
) -> pb::Rental {
    pb::Rental {
        kind: kind.into(),
        vehicle_type: vehicle_type.map(str::to_owned),
        moment: moment.into(),
        pickup_folder_id: pickup.map(str::to_owned),
    }
}

fn rental_folder(name: &str, rental: pb::Rental) -> pb::CreateFolderRequest {
    pb::CreateFolderRequest {
        name: name.into(),
        rental: Some(rental),
        ..Default::default()
    }
}

#[tokio::test]
async fn rental_folders_validate_their_kind_vehicle_pickup_and_sections() {
    let app = TestApp::spawn().await;
    let user = app.user();
    let other = app.user();
    let pickup = user
        .create_folder(rental_folder(
            "Car pick-up",
            rental("vehicle", Some("suv"), "pickup", None),
        ))
        .await
        .unwrap();
    assert_eq!(
        pickup.rental,
        Some(rental("vehicle", Some("suv"), "pickup", None))
    );
    let pickup_id = pickup.id.as_str();
    let plain = user.folder("Plain").await;
    assert!(user.get_folder(&plain).await.unwrap().rental.is_none());

    for (rental, field) in [
        (
            rental("vehicle", Some("bicycle"), "pickup", None),
            "rental.vehicle_type",
        ),
        (
            rental("vehicle", None, "pickup", None),
            "rental.vehicle_type",
        ),
        (
            rental("hotel", Some("car"), "pickup", None),
            "rental.vehicle_type",
        ),
        (rental("hotel", None, "checkout", None), "rental.moment"),
        (
            rental("vehicle", Some("car"), "pickup", Some(pickup_id)),
            "rental.pickup_folder_id",
        ),
        // A hotel return cannot point at a vehicle pick-up.
        (
            rental("hotel", None, "return", Some(pickup_id)),
            "rental.pickup_folder_id",
        ),
        // Nor at a folder that is not a pick-up.
        (
            rental("vehicle", Some("car"), "return", Some(&plain)),
            "rental.pickup_folder_id",
        ),
    ] {
        let refused = user
            .create_folder(rental_folder("Rental", rental.clone()))
            .await
            .unwrap_err();
        assert_field(&refused, field);
    }
    // Another user's pick-up folder is refused like a missing one.
    let refused = other
        .create_folder(rental_folder(
            "Not mine",
            rental("vehicle", Some("suv"), "return", Some(pickup_id)),
        ))
        .await
        .unwrap_err();
    assert_field(&refused, "rental.pickup_folder_id");

    let returned = user
        .create_folder(rental_folder(
            "Car return",
            rental("vehicle", Some("suv"), "return", Some(pickup_id)),
        ))
        .await
        .unwrap();
    assert_eq!(
        returned
            .rental
            .as_ref()
            .unwrap()
            .pickup_folder_id
            .as_deref(),
        Some(pickup_id)
    );
    let returns = user.list_folders(Some(pickup_id.to_owned())).await.unwrap();
    let ids: Vec<&str> = returns.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, [returned.id.as_str()]);
    let theirs = other
        .list_folders(Some(pickup_id.to_owned()))
        .await
        .unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);

    // Sections: the rental kind's only, and none outside a rental folder.
    let bytes = vec![1u8; 256];
    for section in [Some("bathroom"), None] {
        let refused = user
            .create_item(pb::CreateItemRequest {
                section: section.map(str::to_owned),
                ..capture(pickup_id, &bytes, "image/jpeg")
            })
            .await
            .unwrap_err();
        assert_field(&refused, "section");
    }
    let fuel = user
        .create_item(pb::CreateItemRequest {
            section: Some("fuel".into()),
            ..capture(pickup_id, &bytes, "video/webm")
        })
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(fuel.section.as_deref(), Some("fuel"));
    assert!(fuel.can_retake);
    let refused = user
        .create_item(pb::CreateItemRequest {
            section: Some("body".into()),
            ..capture(&plain, &bytes, "image/jpeg")
        })
        .await
        .unwrap_err();
    assert_field(&refused, "section");
}
