//! Reverse geocoding behind one interface: locally (and by default) a bundled offline gazetteer
//! of the world's places of 1,000 people or more (GeoNames, shipped by the `reverse_geocoder`
//! crate) gives the nearest city, its region and country code. Production may configure
//! Nominatim (`/reverse?format=jsonv2`), which falls back to the gazetteer when it fails.

use std::{sync::Arc, time::Duration};

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

/// Nominatim's reverse geocoding over HTTP (its own server, or a compatible provider). A
/// failure (unreachable, timeout, an error status, an unreadable answer) falls back to `fallback`;
/// Nominatim's own "Unable to geocode" (open sea) is no place.
pub struct Nominatim {
    client: reqwest::Client,
    base: String,
    fallback: Arc<dyn Geocoder>,
}

impl Nominatim {
    pub fn new(
        base: &str,
        user_agent: &str,
        timeout: Duration,
        fallback: Arc<dyn Geocoder>,
    ) -> anyhow::Result<Self> {
        Ok(Self {
            // Nominatim's usage policy asks every client to name itself.
            client: reqwest::Client::builder()
                .user_agent(user_agent)
                .timeout(timeout)
                .build()?,
            base: base.trim_end_matches('/').to_owned(),
            fallback,
        })
    }

    async fn reverse(&self, latitude: f64, longitude: f64) -> anyhow::Result<serde_json::Value> {
        let lat = latitude.to_string();
        let lon = longitude.to_string();
        let response = self
            .client
            .get(format!("{}/reverse", self.base))
            .query(&[
                ("format", "jsonv2"),
                ("lat", lat.as_str()),
                ("lon", lon.as_str()),
                ("zoom", "18"),
                ("addressdetails", "1"),
                ("accept-language", "en"),
            ])
            .send()
            .await?
            .error_for_status()?;
        Ok(response.json().await?)
    }
}

/// The place in a `format=jsonv2` answer; `None` for Nominatim's `{"error": ...}`.
pub fn place_from_nominatim(answer: &serde_json::Value) -> anyhow::Result<Option<Place>> {
    if answer.get("error").is_some() {
        return Ok(None);
    }
    let address = answer
        .get("address")
        .and_then(serde_json::Value::as_object)
        .ok_or_else(|| anyhow::anyhow!("a Nominatim answer without an address"))?;
    let text = |key: &str| address.get(key).and_then(serde_json::Value::as_str);
    // The settlement, from the largest kind Nominatim names.
    let city = [
        "city",
        "town",
        "village",
        "municipality",
        "hamlet",
        "suburb",
    ]
    .into_iter()
    .find_map(text)
    .unwrap_or_default();
    let display = answer
        .get("display_name")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    Ok(Some(Place {
        city: city.to_owned(),
        address: display.to_owned(),
        country_code: text("country_code").unwrap_or_default().to_uppercase(),
    }))
}

#[async_trait]
impl Geocoder for Nominatim {
    async fn locate(&self, latitude: f64, longitude: f64) -> anyhow::Result<Option<Place>> {
        match self
            .reverse(latitude, longitude)
            .await
            .and_then(|answer| place_from_nominatim(&answer))
        {
            Ok(place) => Ok(place),
            Err(err) => {
                tracing::warn!(error = ?err, "Nominatim failed; using the offline gazetteer");
                self.fallback.locate(latitude, longitude).await
            }
        }
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

    /// A tiny HTTP server answering every request with `status` and `body`; records the requests.
    async fn server(
        status: &'static str,
        body: &'static str,
    ) -> (String, Arc<std::sync::Mutex<Vec<String>>>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let record = seen.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut buf = vec![0u8; 8192];
                let n = socket.read(&mut buf).await.unwrap_or(0);
                record
                    .lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&buf[..n]).into_owned());
                let reply = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(reply.as_bytes()).await;
            }
        });
        (format!("http://{addr}"), seen)
    }

    /// Nominatim's documented `format=jsonv2` reverse answer (nominatim.org/release-docs, Reverse).
    const AMSTERDAM: &str = r#"{"place_id":132067209,"licence":"Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright","osm_type":"way","osm_id":7384624,"lat":"52.3730796","lon":"4.8924534","category":"highway","type":"pedestrian","place_rank":26,"importance":0.1,"addresstype":"road","name":"Dam","display_name":"Dam, Burgwallen-Oude Zijde, Centrum, Amsterdam, Noord-Holland, Nederland, 1012 JS, Nederland","address":{"road":"Dam","neighbourhood":"Burgwallen-Oude Zijde","suburb":"Centrum","city":"Amsterdam","state":"Noord-Holland","ISO3166-2-lvl4":"NL-NH","postcode":"1012 JS","country":"Nederland","country_code":"nl"},"boundingbox":["52.3727","52.3735","4.8919","4.8931"]}"#;

    fn nominatim(base: &str) -> Nominatim {
        Nominatim::new(
            base,
            "Evidentia test",
            Duration::from_secs(2),
            Arc::new(Gazetteer::default()),
        )
        .unwrap()
    }

    #[tokio::test]
    async fn nominatim_names_the_city_and_address_of_its_reverse_answer() {
        let (base, seen) = server("200 OK", AMSTERDAM).await;
        let place = nominatim(&base)
            .locate(52.3731, 4.8925)
            .await
            .unwrap()
            .expect("a place");
        assert_eq!(place.city, "Amsterdam");
        assert_eq!(place.country_code, "NL");
        assert!(place.address.starts_with("Dam, Burgwallen-Oude Zijde"));
        let request = seen.lock().unwrap()[0].clone();
        assert!(
            request.starts_with("GET /reverse?format=jsonv2&lat=52.3731&lon=4.8925"),
            "{request}"
        );
        assert!(
            request
                .to_lowercase()
                .contains("user-agent: evidentia test"),
            "{request}"
        );
    }

    #[tokio::test]
    async fn nominatim_answers_no_place_at_sea_and_falls_back_to_the_gazetteer_when_it_fails() {
        let (base, _) = server("200 OK", r#"{"error":"Unable to geocode"}"#).await;
        assert_eq!(nominatim(&base).locate(-40.0, -130.0).await.unwrap(), None);
        let (base, _) = server("503 Service Unavailable", "{}").await;
        let place = nominatim(&base).locate(52.3702, 4.8952).await.unwrap();
        assert_eq!(
            place.map(|p| p.city).as_deref(),
            Some("Amsterdam"),
            "from the gazetteer"
        );
        // Nothing listening at all.
        let place = nominatim("http://127.0.0.1:9")
            .locate(52.3702, 4.8952)
            .await
            .unwrap();
        assert_eq!(place.map(|p| p.country_code).as_deref(), Some("NL"));
    }
}
