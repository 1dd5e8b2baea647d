//! What every request handler of evidence can reach: the configuration, the database and the
//! outbound systems (S3, the geocoder, accounts' organization memberships).

use std::sync::Arc;

use sqlx::PgPool;

use crate::{config::Config, geocode::Geocoder, memberships::Memberships, storage::MediaStore};

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub pool: PgPool,
    pub store: Arc<MediaStore>,
    pub geocoder: Arc<dyn Geocoder>,
    pub memberships: Arc<dyn Memberships>,
}
