//! Reverse geocoding behind one interface: locally (and by default) a bundled offline gazetteer
//! of the world's places of 1,000 people or more (GeoNames, shipped by the `reverse_geocoder`
//! crate) gives the nearest city, its region and country code.

use std::sync::Arc;

use async_trait::async_trait;
use reverse_geocoder::ReverseGeocoder;
use tokio::sync::OnceCell;

/// Where a capture was made, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub city: String,
    /// One line: city, region, country code.
    pub address: String,
    /// ISO 3166-1 alpha-2.
    pub country_code: String,
}

#[async_trait]
pub trait Geocoder: Send + Sync + 'static {
    async fn locate(&self, latitude: f64, longitude: f64) -> anyhow::Result<Option<Place>>;
}

/// The bundled gazetteer, loaded on first use (off the async threads).
#[derive(Default)]
pub struct Gazetteer {
    index: OnceCell<Arc<ReverseGeocoder>>,
}

/// Farther than this from any listed place, the capture gets no city (open sea, wilderness).
const MAX_DISTANCE_KM: f64 = 100.0;

impl Gazetteer {
    async fn index(&self) -> anyhow::Result<Arc<ReverseGeocoder>> {
        Ok(self
            .index
            .get_or_try_init(|| async {
                tokio::task::spawn_blocking(|| Arc::new(ReverseGeocoder::new())).await
            })
            .await?
            .clone())
    }
}

#[async_trait]
impl Geocoder for Gazetteer {
    async fn locate(&self, latitude: f64, longitude: f64) -> anyhow::Result<Option<Place>> {
        let index = self.index().await?;
        let found = index.search((latitude, longitude));
        // The crate reports the squared chord distance on the unit sphere.
        let km = 2.0 * 6371.0 * (found.distance.sqrt() / 2.0).asin();
        if !km.is_finite() || km > MAX_DISTANCE_KM {
            return Ok(None);
        }
        let record = found.record;
        let parts: Vec<&str> = [
            record.name.as_str(),
            record.admin1.as_str(),
            record.cc.as_str(),
        ]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
        Ok(Some(Place {
            city: record.name.clone(),
            address: parts.join(", "),
            country_code: record.cc.clone(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_gazetteer_names_the_nearest_city_and_nothing_far_out_at_sea() {
        let gazetteer = Gazetteer::default();
        let amsterdam = gazetteer
            .locate(52.3702, 4.8952)
            .await
            .unwrap()
            .expect("a place");
        assert_eq!(amsterdam.city, "Amsterdam");
        assert_eq!(amsterdam.country_code, "NL");
        assert!(
            amsterdam.address.starts_with("Amsterdam, "),
            "{}",
            amsterdam.address
        );
        let nairobi = gazetteer
            .locate(-1.2864, 36.8172)
            .await
            .unwrap()
            .expect("a place");
        assert_eq!(nairobi.country_code, "KE");
        assert_eq!(
            gazetteer.locate(-40.0, -130.0).await.unwrap(),
            None,
            "the middle of the Pacific"
        );
    }
}
