//! Timestamps of the synthetic crawl and their written forms.

/// Seconds in a day.
pub(crate) const DAY: i64 = 86_400;
/// Seconds in an hour.
pub(crate) const HOUR: i64 = 3_600;
/// When the crawl starts: 2023-01-02T00:00:00Z.
pub(crate) const EPOCH: Timestamp = Timestamp(1_672_617_600);
/// How long the crawl lasts.
pub(crate) const CRAWL_DAYS: i64 = 540;

/// Seconds since 1970-01-01T00:00:00Z.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Timestamp(pub(crate) i64);

/// A timestamp split into calendar fields (proleptic Gregorian, UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Civil {
    pub(crate) year: i64,
    /// 1–12.
    pub(crate) month: u32,
    /// 1–31.
    pub(crate) day: u32,
    pub(crate) hour: u32,
    pub(crate) minute: u32,
    pub(crate) second: u32,
    /// 0 = Monday.
    pub(crate) weekday: u32,
}

impl Timestamp {
    /// This time plus `seconds`.
    pub(crate) fn plus(self, seconds: i64) -> Self {
        Self(self.0 + seconds)
    }

    /// The calendar fields (Howard Hinnant's `civil_from_days`).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    pub(crate) fn civil(self) -> Civil {
        let days = self.0.div_euclid(DAY);
        let secs = self.0.rem_euclid(DAY);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        Civil {
            year: yoe + era * 400 + i64::from(month <= 2),
            month,
            day,
            hour: (secs / HOUR) as u32,
            minute: (secs % HOUR / 60) as u32,
            second: (secs % 60) as u32,
            weekday: (days + 3).rem_euclid(7) as u32,
        }
    }

    /// ISO 8601 in UTC, as in `WARC-Date`: `2023-03-14T09:41:00Z`.
    pub(crate) fn iso(self) -> String {
        let c = self.civil();
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            c.year, c.month, c.day, c.hour, c.minute, c.second
        )
    }

    /// The HTTP date form (RFC 9110 IMF-fixdate): `Tue, 14 Mar 2023 09:41:00 GMT`.
    pub(crate) fn http(self) -> String {
        const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let c = self.civil();
        format!(
            "{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
            DAYS[c.weekday as usize],
            c.day,
            MONTHS[c.month as usize - 1],
            c.year,
            c.hour,
            c.minute,
            c.second
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_and_known_dates() {
        assert_eq!(EPOCH.iso(), "2023-01-02T00:00:00Z");
        assert_eq!(EPOCH.http(), "Mon, 02 Jan 2023 00:00:00 GMT");
        let t = Timestamp(1_678_786_860);
        assert_eq!(t.iso(), "2023-03-14T09:41:00Z");
        assert_eq!(t.http(), "Tue, 14 Mar 2023 09:41:00 GMT");
        assert_eq!(Timestamp(951_782_400).iso(), "2000-02-29T00:00:00Z");
        assert_eq!(Timestamp(0).civil().weekday, 3);
    }
}
