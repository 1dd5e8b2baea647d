//! The evidence domain: validated values (names per spec §5 "File name", media types, client ids,
//! rentals and their sections per spec §1, §2 "Vehicle rental steps") and the records the
//! service keeps (usage, folders, items, templates and their steps, memberships).

use chrono::{DateTime, Utc};
use evidentia_common::errors::FieldError;
use uuid::Uuid;

use crate::{config::StoragePolicy, error::EvidenceError};

/// A file or folder name: 2 to 50 characters of letters, digits, space and , - _ ` | . ' ".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(String);

impl Name {
    pub fn parse(field: &str, value: &str) -> Result<Self, FieldError> {
        let value = value.trim();
        if !value.chars().all(|c| {
            c.is_alphanumeric() || matches!(c, ' ' | ',' | '-' | '_' | '`' | '|' | '.' | '\'' | '"')
        }) {
            return Err(FieldError::new(field, "Special characters can not be used"));
        }
        let len = value.chars().count();
        if len < 2 {
            return Err(FieldError::new(field, "Must be 2 characters or more"));
        }
        if len > 50 {
            return Err(FieldError::new(field, "Must be 50 characters or less"));
        }
        Ok(Self(value.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What kind of medium an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaType {
    Image,
    Video,
    Audio,
}

impl MediaType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Image => "image",
            Self::Video => "video",
            Self::Audio => "audio",
        }
    }

    pub fn from_db(value: &str) -> Option<Self> {
        match value {
            "image" => Some(Self::Image),
            "video" => Some(Self::Video),
            "audio" => Some(Self::Audio),
            _ => None,
        }
    }

    /// The MIME type must be of this kind (`image/jpeg` for an image, ...).
    pub fn accepts(self, mime: &str) -> bool {
        mime.split('/').next() == Some(self.as_str())
            && mime.len() <= 100
            && !mime.contains(['\r', '\n'])
    }
}

/// The device's own id for something it creates (a UUID), making the create idempotent.
pub fn client_id(field: &str, value: Option<&str>) -> Result<Option<Uuid>, FieldError> {
    value
        .map(|v| Uuid::parse_str(v).map_err(|_| FieldError::new(field, "Expected a UUID.")))
        .transpose()
}

/// The longest capture a duration may describe: 24 hours (docs/decisions.md "Evidence: input
/// ranges").
pub const MAX_DURATION_SECONDS: f64 = 86_400.0;

/// A video or audio item's length in seconds: a finite number from 0 to `MAX_DURATION_SECONDS`.
pub fn duration_seconds(field: &str, value: Option<f64>) -> Result<Option<f64>, FieldError> {
    match value {
        Some(seconds) if !(seconds.is_finite() && seconds >= 0.0) => Err(FieldError::new(
            field,
            "The duration must be zero or more seconds.",
        )),
        Some(seconds) if seconds > MAX_DURATION_SECONDS => Err(FieldError::new(
            field,
            "The duration can be at most 24 hours (86400 seconds).",
        )),
        other => Ok(other),
    }
}

/// A file's size in bytes: 1 to the configured maximum (`MAX_FILE_BYTES`, 10 GiB by default).
pub fn file_size(field: &str, bytes: i64, max_bytes: i64) -> Result<i64, FieldError> {
    if bytes <= 0 {
        Err(FieldError::new(field, "The file is empty."))
    } else if bytes > max_bytes {
        Err(FieldError::new(field, "The file is too large."))
    } else {
        Ok(bytes)
    }
}

/// A vehicle rental or a hotel stay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RentalKind {
    Vehicle,
    Hotel,
}

impl RentalKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Vehicle => "vehicle",
            Self::Hotel => "hotel",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "vehicle" => Some(Self::Vehicle),
            "hotel" => Some(Self::Hotel),
            _ => None,
        }
    }

    /// The sections a capture of this kind is guided through.
    pub fn sections(self) -> &'static [&'static str] {
        match self {
            Self::Vehicle => &["body", "interior", "mileage", "fuel"],
            Self::Hotel => &[
                "room",
                "bathroom",
                "bed",
                "furniture",
                "appliances",
                "damage",
            ],
        }
    }
}

pub const VEHICLE_TYPES: [&str; 5] = ["car", "suv", "watercraft", "trailer", "truck"];

/// Pick-up or return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    Pickup,
    Return,
}

impl Moment {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pickup => "pickup",
            Self::Return => "return",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "pickup" => Some(Self::Pickup),
            "return" => Some(Self::Return),
            _ => None,
        }
    }
}

/// A rental folder's description, valid on its own (the pick-up folder's owner and kind are
/// checked against the database by `folders::create`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rental {
    pub kind: RentalKind,
    pub vehicle_type: Option<String>,
    pub moment: Moment,
    pub pickup_folder_id: Option<Uuid>,
}

pub const PICKUP_MESSAGE: &str = "Choose a Pick-up folder of yours of the same kind of rental.";

impl Rental {
    pub fn parse(
        kind: &str,
        vehicle_type: Option<&str>,
        moment: &str,
        pickup_folder_id: Option<&str>,
    ) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let kind = RentalKind::parse(kind);
        if kind.is_none() {
            errors.push(FieldError::new("rental.kind", "Choose vehicle or hotel."));
        }
        let vehicle_type = match (kind, vehicle_type) {
            (Some(RentalKind::Vehicle), Some(v)) if VEHICLE_TYPES.contains(&v) => {
                Some(v.to_owned())
            }
            (Some(RentalKind::Vehicle), _) => {
                errors.push(FieldError::new(
                    "rental.vehicle_type",
                    "Choose car, suv, watercraft, trailer or truck.",
                ));
                None
            }
            (_, Some(_)) => {
                errors.push(FieldError::new(
                    "rental.vehicle_type",
                    "Only a vehicle rental has a vehicle type.",
                ));
                None
            }
            (_, None) => None,
        };
        let moment = Moment::parse(moment);
        if moment.is_none() {
            errors.push(FieldError::new("rental.moment", "Choose pickup or return."));
        }
        let pickup_folder_id = match (moment, pickup_folder_id) {
            (_, None) => None,
            (Some(Moment::Return), Some(id)) => match Uuid::parse_str(id) {
                Ok(id) => Some(id),
                Err(_) => {
                    errors.push(FieldError::new("rental.pickup_folder_id", PICKUP_MESSAGE));
                    None
                }
            },
            (_, Some(_)) => {
                errors.push(FieldError::new(
                    "rental.pickup_folder_id",
                    "Only a return names its pick-up folder.",
                ));
                None
            }
        };
        match (kind, moment) {
            (Some(kind), Some(moment)) if errors.is_empty() => Ok(Self {
                kind,
                vehicle_type,
                moment,
                pickup_folder_id,
            }),
            _ => Err(errors),
        }
    }
}

/// The section of a capture: one of its rental kind's, and none outside a rental folder.
pub fn section(
    kind: Option<RentalKind>,
    value: Option<&str>,
) -> Result<Option<String>, FieldError> {
    match (kind, value) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(FieldError::new(
            "section",
            "Only a capture in a rental folder has a section.",
        )),
        (Some(kind), Some(v)) if kind.sections().contains(&v) => Ok(Some(v.to_owned())),
        (Some(kind), _) => Err(FieldError::new(
            "section",
            format!("Choose one of: {}.", kind.sections().join(", ")),
        )),
    }
}

/// A user's storage usage: what their verified files (and files a retake keeps) take.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    pub used_bytes: i64,
    pub file_count: i64,
    pub folder_count: i64,
}

/// A folder with its rental, its organization origin and what its files count for.
#[derive(Debug, Clone)]
pub struct Folder {
    pub id: Uuid,
    pub owner_id: Uuid,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub storage_expires_at: DateTime<Utc>,
    pub file_count: i64,
    pub used_bytes: i64,
    pub client_id: Option<Uuid>,
    pub rental_kind: Option<String>,
    pub vehicle_type: Option<String>,
    pub moment: Option<String>,
    pub pickup_folder_id: Option<Uuid>,
    pub organization_id: Option<Uuid>,
    pub template_id: Option<Uuid>,
}

impl Folder {
    pub fn rental_kind(&self) -> Option<RentalKind> {
        self.rental_kind.as_deref().and_then(RentalKind::parse)
    }
}

/// An evidence item: its file, its upload, where and when it was captured, and its folder's
/// storage date.
#[derive(Debug, Clone)]
pub struct Item {
    pub id: Uuid,
    pub folder_id: Uuid,
    pub owner_id: Uuid,
    pub name: String,
    pub media_type: String,
    pub mime_type: String,
    pub object_key: String,
    pub file_size: i64,
    pub sha256: String,
    pub status: String,
    pub rejection_reason: String,
    pub upload_id: Option<String>,
    pub part_size: Option<i64>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub city: String,
    pub address: String,
    pub country_code: String,
    pub duration_seconds: Option<f64>,
    pub captured_at: DateTime<Utc>,
    pub received_at: Option<DateTime<Utc>>,
    pub verified_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub thumbnail_key: Option<String>,
    pub client_id: Option<Uuid>,
    pub section: Option<String>,
    pub previous_object_key: Option<String>,
    pub previous_thumbnail_key: Option<String>,
    pub previous_file_size: Option<i64>,
    pub purged_at: Option<DateTime<Utc>>,
    pub storage_expires_at: DateTime<Utc>,
    pub step_id: Option<Uuid>,
    pub contributor_id: Option<Uuid>,
    pub contributor_email: Option<String>,
    pub review_state: Option<String>,
    pub receipt: Option<String>,
    pub receipt_signature: Option<String>,
    /// The receipt's RFC 3161 token (DER) and the time it states, once an authority gave one.
    pub receipt_timestamp: Option<Vec<u8>>,
    pub receipt_timestamped_at: Option<DateTime<Utc>>,
}

impl Item {
    /// The stored file that opens and downloads, with its thumbnail: the current one once its
    /// bytes are in, else the previous verified one a pending retake replaces.
    pub fn readable(&self) -> Option<(&str, Option<&str>)> {
        if self.purged_at.is_some() {
            None
        } else if matches!(self.status.as_str(), "uploaded" | "verified") {
            Some((&self.object_key, self.thumbnail_key.as_deref()))
        } else {
            self.previous_object_key
                .as_deref()
                .map(|key| (key, self.previous_thumbnail_key.as_deref()))
        }
    }

    /// Bytes this item counts for in its owner's usage.
    pub fn counted_bytes(&self) -> Option<i64> {
        if self.purged_at.is_some() {
            None
        } else if self.status == "verified" {
            Some(self.file_size)
        } else {
            self.previous_object_key
                .as_ref()
                .map(|_| self.previous_file_size.unwrap_or(0))
        }
    }

    /// Every object of the item to remove from S3 when it goes (with the unfinished upload to
    /// abort, if any).
    pub fn objects(&self) -> Vec<(String, Option<String>)> {
        let upload = (self.status == "awaiting_upload")
            .then(|| self.upload_id.clone())
            .flatten();
        let mut objects = vec![(self.object_key.clone(), upload)];
        for key in [
            &self.thumbnail_key,
            &self.previous_object_key,
            &self.previous_thumbnail_key,
        ]
        .into_iter()
        .flatten()
        {
            objects.push((key.clone(), None));
        }
        objects
    }
}

/// A step of a capture template: what to capture, in which media, how many files.
#[derive(Debug, Clone)]
pub struct Step {
    pub id: Uuid,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<String>,
    pub min_files: i32,
    pub max_files: i32,
}

impl Step {
    pub fn media(&self) -> Vec<MediaType> {
        media(&self.media_types)
    }
}

/// A step of an organization folder (its own copy of the template's), with the files that count
/// towards it (verified, and not pending or declined).
#[derive(Debug, Clone)]
pub struct FolderStep {
    pub id: Uuid,
    pub folder_id: Uuid,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<String>,
    pub min_files: i32,
    pub max_files: i32,
    pub file_count: i64,
}

impl FolderStep {
    pub fn complete(&self) -> bool {
        self.file_count >= i64::from(self.min_files)
    }

    pub fn media(&self) -> Vec<MediaType> {
        media(&self.media_types)
    }
}

fn media(stored: &[String]) -> Vec<MediaType> {
    stored
        .iter()
        .filter_map(|m| MediaType::from_db(m))
        .collect()
}

pub use evidentia_common::role::Role;

/// The caller's organization, as accounts knows it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Membership {
    pub organization_id: Uuid,
    pub owner_id: Uuid,
    pub role: Role,
}

impl Membership {
    pub fn require_manager(&self) -> Result<(), EvidenceError> {
        if self.role.manages() {
            Ok(())
        } else {
            Err(EvidenceError::Forbidden)
        }
    }
}

/// A folder as the device asks for it.
#[derive(Debug, Clone)]
pub struct NewFolder {
    pub name: Name,
    pub client_id: Option<Uuid>,
    pub rental: Option<Rental>,
    pub organization: Option<OrganizationOrigin>,
}

/// An organization folder's organization and the template it is made from.
#[derive(Debug, Clone, Copy)]
pub struct OrganizationOrigin {
    pub organization_id: Uuid,
    pub template_id: Uuid,
}

/// A folder as its reader sees it today: whether its storage date has passed or is near, and
/// whether the reader owns it (or reaches it through their organization).
#[derive(Debug, Clone)]
pub struct FolderView {
    pub folder: Folder,
    pub expired: bool,
    pub expire_soon: bool,
    pub owned_by_caller: bool,
}

impl FolderView {
    /// The folder as its owner sees it at `now`.
    pub fn new(folder: Folder, policy: &StoragePolicy, now: DateTime<Utc>) -> Self {
        Self {
            expired: policy.expired(folder.storage_expires_at, now),
            expire_soon: policy.expire_soon(folder.storage_expires_at, now),
            owned_by_caller: true,
            folder,
        }
    }
}

/// A capture as the device describes it.
#[derive(Debug, Clone)]
pub struct NewItem {
    pub folder_id: Uuid,
    pub name: String,
    pub media_type: Option<MediaType>,
    pub mime_type: String,
    pub file_size: i64,
    pub sha256: String,
    pub captured_at: Option<DateTime<Utc>>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub duration_seconds: Option<f64>,
    pub client_id: Option<String>,
    pub section: Option<String>,
    /// The step of an organization folder (required there, refused elsewhere).
    pub step_id: Option<String>,
    /// Set when an anonymous contributor sends the file (through the sharing service).
    pub contribution: Option<Contribution>,
}

/// Who contributed a file to an organization folder: the sharing service's id of a verified
/// contributor, the address they proved and the link they came by.
#[derive(Debug, Clone)]
pub struct Contribution {
    pub contributor_id: Uuid,
    pub email: String,
    pub link_id: Uuid,
}

/// A new capture of an item's subject, as the device describes it.
#[derive(Debug, Clone)]
pub struct Retake {
    pub item_id: Uuid,
    pub mime_type: String,
    pub file_size: i64,
    pub sha256: String,
    pub captured_at: Option<DateTime<Utc>>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub duration_seconds: Option<f64>,
}

/// A participant's decision on a contribution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Accepted,
    Declined,
}

impl Decision {
    pub fn parse(value: &str) -> Result<Self, EvidenceError> {
        match value {
            "accepted" => Ok(Self::Accepted),
            "declined" => Ok(Self::Declined),
            _ => Err(EvidenceError::Invalid(vec![FieldError::new(
                "decision",
                "Choose accepted or declined.",
            )])),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::Declined => "declined",
        }
    }
}

/// A template step as sent (checked by `app::templates::validate`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepInput {
    pub id: Option<Uuid>,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<MediaType>,
    pub min_files: i32,
    pub max_files: i32,
}

/// A template as sent.
#[derive(Debug, Clone)]
pub struct TemplateInput {
    pub name: String,
    pub description: String,
    pub steps: Vec<StepInput>,
}

/// A capture template with its steps in order.
#[derive(Debug, Clone)]
pub struct Template {
    pub id: Uuid,
    pub name: String,
    pub description: String,
    pub archived: bool,
    pub steps: Vec<Step>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(value: &str) -> String {
        Name::parse("name", value).expect_err("rejected").message
    }

    #[test]
    fn file_names_follow_spec_section_5() {
        assert_eq!(message("a"), "Must be 2 characters or more");
        assert_eq!(message("  "), "Must be 2 characters or more");
        assert_eq!(message(&"a".repeat(51)), "Must be 50 characters or less");
        assert_eq!(message("bad/name"), "Special characters can not be used");
        assert_eq!(message("no#hash"), "Special characters can not be used");
        assert!(Name::parse("name", "Car, front-left_1 `|.'\"").is_ok());
        assert!(Name::parse("name", "Ünïcode 12").is_ok());
    }

    #[test]
    fn durations_are_finite_and_at_most_a_day() {
        let refused = |v: f64| {
            duration_seconds("duration_seconds", Some(v))
                .unwrap_err()
                .message
        };
        assert_eq!(duration_seconds("d", None), Ok(None));
        assert_eq!(duration_seconds("d", Some(0.0)), Ok(Some(0.0)));
        assert_eq!(
            duration_seconds("d", Some(MAX_DURATION_SECONDS)),
            Ok(Some(86_400.0))
        );
        assert_eq!(
            refused(86_400.001),
            "The duration can be at most 24 hours (86400 seconds)."
        );
        assert_eq!(
            refused(1e308),
            "The duration can be at most 24 hours (86400 seconds)."
        );
        for bad in [-0.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(refused(bad), "The duration must be zero or more seconds.");
        }
    }

    #[test]
    fn file_sizes_are_one_byte_to_the_maximum() {
        assert_eq!(file_size("f", 1, 10), Ok(1));
        assert_eq!(file_size("f", 10, 10), Ok(10));
        assert_eq!(
            file_size("f", 0, 10).unwrap_err().message,
            "The file is empty."
        );
        assert_eq!(
            file_size("f", i64::MAX, 10).unwrap_err().message,
            "The file is too large."
        );
    }

    #[test]
    fn media_types_take_their_own_mime_types() {
        assert!(MediaType::Image.accepts("image/jpeg"));
        assert!(MediaType::Video.accepts("video/webm"));
        assert!(!MediaType::Audio.accepts("video/webm"));
        assert!(!MediaType::Image.accepts("image/png\r\nx: y"));
    }

    #[test]
    fn a_rental_needs_a_vehicle_type_only_for_a_vehicle_and_a_pickup_only_on_return() {
        let car = Rental::parse("vehicle", Some("suv"), "pickup", None).unwrap();
        assert_eq!(car.kind, RentalKind::Vehicle);
        assert!(Rental::parse("hotel", None, "return", Some(&Uuid::now_v7().to_string())).is_ok());
        let fields = |r: Result<Rental, Vec<FieldError>>| {
            r.unwrap_err()
                .into_iter()
                .map(|e| e.field)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            fields(Rental::parse("vehicle", Some("bicycle"), "pickup", None)),
            ["rental.vehicle_type"]
        );
        assert_eq!(
            fields(Rental::parse("vehicle", None, "pickup", None)),
            ["rental.vehicle_type"]
        );
        assert_eq!(
            fields(Rental::parse("hotel", Some("car"), "pickup", None)),
            ["rental.vehicle_type"]
        );
        assert_eq!(
            fields(Rental::parse("boat", None, "later", None)),
            ["rental.kind", "rental.moment"]
        );
        assert_eq!(
            fields(Rental::parse("hotel", None, "pickup", Some("x"))),
            ["rental.pickup_folder_id"]
        );
    }

    #[test]
    fn sections_belong_to_their_rental_kind() {
        assert_eq!(
            section(Some(RentalKind::Vehicle), Some("fuel")),
            Ok(Some("fuel".into()))
        );
        assert!(section(Some(RentalKind::Vehicle), Some("bathroom")).is_err());
        assert!(section(Some(RentalKind::Hotel), None).is_err());
        assert!(section(None, Some("room")).is_err());
        assert_eq!(section(None, None), Ok(None));
    }
}
