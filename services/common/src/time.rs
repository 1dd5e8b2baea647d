//! Times between the database (`chrono`, UTC), the contracts (`google.protobuf.Timestamp`) and
//! the REST API (RFC 3339 with milliseconds).

use chrono::{DateTime, SecondsFormat, Utc};
use prost_types::Timestamp;

pub fn timestamp(at: DateTime<Utc>) -> Timestamp {
    Timestamp {
        seconds: at.timestamp(),
        nanos: i32::try_from(at.timestamp_subsec_nanos()).unwrap_or(0),
    }
}

/// `None` for a timestamp outside chrono's range (or with negative nanos).
pub fn datetime(ts: &Timestamp) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(ts.seconds, u32::try_from(ts.nanos).ok()?)
}

pub fn rfc3339(ts: Option<Timestamp>) -> Option<String> {
    ts.as_ref()
        .and_then(datetime)
        .map(|at| at.to_rfc3339_opts(SecondsFormat::Millis, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_survive_the_round_trip() {
        let at = DateTime::parse_from_rfc3339("2026-01-15T10:00:00.123Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(datetime(&timestamp(at)), Some(at));
        assert_eq!(
            rfc3339(Some(timestamp(at))).as_deref(),
            Some("2026-01-15T10:00:00.123Z")
        );
        assert_eq!(rfc3339(None), None);
    }
}
