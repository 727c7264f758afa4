//! 14-digit CDX timestamps from `WARC-Date` values, as warcio's `iso_date_to_timestamp`.

/// `YYYYMMDDhhmmss` of an ISO 8601 date, or `None` where warcio raises.
///
/// The date is split at every non-digit: three to seven numbers (year, month, day, then hour,
/// minute, second and fraction, the missing ones zero) forming a valid date and time. The
/// fraction is ignored; the year is not zero-padded, as Python's `strftime("%Y")` on Linux.
pub(super) fn from_iso_date(date: &str) -> Option<String> {
    let mut numbers: Vec<&str> = date.split(|c: char| !c.is_ascii_digit()).collect();
    if numbers.last() == Some(&"") {
        numbers.pop();
    }
    if !(3..=7).contains(&numbers.len()) {
        return None;
    }
    let mut fields = [0u32; 6];
    for (field, number) in fields.iter_mut().zip(&numbers) {
        *field = number.parse().ok()?;
    }
    let [year, month, day, hour, minute, second] = fields;
    let valid = (1..=9999).contains(&year)
        && (1..=12).contains(&month)
        && (1..=days_in_month(year, month)).contains(&day)
        && hour < 24
        && minute < 60
        && second < 60;
    valid.then(|| format!("{year}{month:02}{day:02}{hour:02}{minute:02}{second:02}"))
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_become_14_digits_like_warcio() {
        let cases = [
            ("2013-12-26T10:11:12Z", "20131226101112"),
            ("2013-12-26T10:11:12.456789Z", "20131226101112"),
            ("2013-12-26T10:11:12.1234567Z", "20131226101112"),
            ("2013-12-26T10:11:12.Z", "20131226101112"),
            ("2013-12-26T10:11Z", "20131226101100"),
            ("2013-12-26", "20131226000000"),
            ("2024-02-29T00:00:00Z", "20240229000000"),
            ("0999-01-01T00:00:00Z", "9990101000000"),
        ];
        for (date, expected) in cases {
            assert_eq!(from_iso_date(date).as_deref(), Some(expected), "{date}");
        }
    }

    #[test]
    fn invalid_dates_are_refused() {
        for date in [
            "",
            "2013-12",
            "2013-12-26T10:11:12+00:00",
            "2013--12-26",
            "2013-13-26",
            "2023-02-29",
            "2013-12-26T24:00:00Z",
            "99999999999-01-01",
        ] {
            assert_eq!(from_iso_date(date), None, "{date}");
        }
    }
}
