//! The run overview (`index.html`): counts per stage from `report.json`, and what the pages
//! came out as, summed over every page of every site.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use dbce_pipeline::PageId;
use dbce_pipeline::StageTimings;
use dbce_pipeline::finish::{RunReport, report_stage_name};

use crate::html;
use crate::site::{PageRow, Site};

/// Bars of the kept-share histogram: "nothing kept", then tenths `(0, 10%]` … `(90%, 100%]`.
pub(crate) const HISTOGRAM_BARS: usize = 11;

/// The histogram bar of a page that kept `kept` of `words` words.
pub(crate) fn histogram_bar(kept: u64, words: u64) -> usize {
    if kept == 0 || words == 0 {
        return 0;
    }
    // ⌈10 · kept / words⌉ in integers, so that 10% falls in the first tenth.
    let tenth = (kept * 10).div_ceil(words);
    usize::try_from(tenth.clamp(1, 10)).unwrap_or(10)
}

/// A page as the lists of the report show it.
#[derive(Debug, Clone)]
pub(crate) struct ListedPage {
    /// Its id; its viewer is `pages/ID.html`.
    pub(crate) id: PageId,
    /// Its site's name.
    pub(crate) site: String,
    /// Its URL.
    pub(crate) url: String,
    /// Its capture time.
    pub(crate) date: String,
    /// `page_type`.
    pub(crate) page_type: &'static str,
    /// `method`.
    pub(crate) method: String,
    /// `decided_by`.
    pub(crate) route: String,
    /// `empty_reason`, if any.
    pub(crate) empty_reason: Option<String>,
    /// Share of its words kept.
    pub(crate) kept_share: f64,
}

impl ListedPage {
    pub(crate) fn of(row: &PageRow) -> Self {
        Self {
            id: row.id,
            site: row.record.site.clone(),
            url: row.record.url.clone(),
            date: row.record.date.clone(),
            page_type: row.record.page_type.name(),
            method: row.record.method.clone(),
            route: row.record.decided_by.clone(),
            empty_reason: row.record.empty_reason.clone(),
            kept_share: row.kept_share(),
        }
    }
}

/// A site's line in the overview.
#[derive(Debug, Clone)]
pub(crate) struct SiteLine {
    name: String,
    file: String,
    pages: usize,
    viewers: usize,
    mean_kept_share: f64,
    emptied: usize,
    templates: usize,
}

/// What the overview sums over the sites.
#[derive(Debug, Clone, Default)]
pub(crate) struct Overview {
    /// Pages in all.
    pub(crate) pages: u64,
    by_method: BTreeMap<String, u64>,
    by_route: BTreeMap<String, u64>,
    by_type: BTreeMap<String, u64>,
    histogram: [u64; HISTOGRAM_BARS],
    emptied: BTreeMap<String, u64>,
    /// The pages with a viewer, by site then id.
    pub(crate) listed: Vec<ListedPage>,
    sites: Vec<SiteLine>,
    /// Pages whose viewer could not be written, by reason.
    pub(crate) viewer_skips: BTreeMap<String, u64>,
}

impl Overview {
    /// Adds `site`, whose pages `viewers` got a viewer.
    pub(crate) fn absorb(&mut self, site: &Site, viewers: &[PageId]) {
        for row in &site.pages {
            let record = &row.record;
            self.pages += 1;
            *self.by_method.entry(record.method.clone()).or_default() += 1;
            *self.by_route.entry(record.decided_by.clone()).or_default() += 1;
            *self
                .by_type
                .entry(record.page_type.name().to_owned())
                .or_default() += 1;
            self.histogram[histogram_bar(row.kept_words, row.words)] += 1;
            if let Some(reason) = &record.empty_reason {
                *self.emptied.entry(reason.clone()).or_default() += 1;
            }
        }
        self.listed.extend(
            viewers
                .iter()
                .filter_map(|&id| site.page(id))
                .map(ListedPage::of),
        );
        self.sites.push(SiteLine {
            name: site.name.clone(),
            file: site.file(),
            pages: site.pages.len(),
            viewers: viewers.len(),
            mean_kept_share: site.mean_kept_share(),
            emptied: site.emptied().count(),
            templates: site.templates.len(),
        });
    }

    /// How many sites it holds.
    pub(crate) fn sites_len(&self) -> usize {
        self.sites.len()
    }

    /// `index.html`: the run's counts (`run`, `timings`) and this overview.
    pub(crate) fn render(&self, run: &RunReport, timings: Option<&StageTimings>) -> String {
        let mut body = String::from("<h1>dbce run report</h1>\n");
        let _ = writeln!(
            body,
            "<p>Inputs: {}. Configuration fingerprint <code>{}</code>. \
             <span id=\"total-pages\">{}</span> pages of {} sites; {} have a viewer \
             (<a href=\"pages.html\">list and filter</a>).</p>",
            html::text(&run.inputs.join(", ")),
            html::text(&run.fingerprint),
            self.pages,
            self.sites.len(),
            self.listed.len(),
        );
        body.push_str(&stages_table(run, timings));
        body.push_str("<div class=\"columns\">");
        for (id, title, counts) in [
            ("by-method", "Pages per method", &self.by_method),
            (
                "by-route",
                "Pages per deciding route (decided_by)",
                &self.by_route,
            ),
            ("by-type", "Pages per page_type", &self.by_type),
            ("emptied", "Pages emptied, by empty_reason", &self.emptied),
        ] {
            let _ = write!(body, "<section><h2>{title}</h2>");
            body.push_str(&count_table(id, counts, self.pages));
            body.push_str("</section>");
        }
        body.push_str("</div>\n");
        body.push_str(&self.histogram_table());
        body.push_str(&self.emptied_list());
        body.push_str(&self.sites_table());
        if !self.viewer_skips.is_empty() {
            body.push_str("<h2>Pages without a viewer</h2>");
            body.push_str(&count_table("viewer-skips", &self.viewer_skips, self.pages));
        }
        html::page("dbce run report", "", &body)
    }

    fn histogram_table(&self) -> String {
        let most = self.histogram.iter().copied().max().unwrap_or(0).max(1);
        let rows: Vec<String> = self
            .histogram
            .iter()
            .enumerate()
            .map(|(bar, &count)| {
                let label = match bar {
                    0 => "nothing".to_owned(),
                    n => format!("{}–{}%", (n - 1) * 10, n * 10),
                };
                format!(
                    "<tr data-bar=\"{bar}\"><td>{label}</td><td class=\"num\" data-count>{count}</td>\
                     <td class=\"plot\">{}</td></tr>",
                    html::bar(count as f64 / most as f64)
                )
            })
            .collect();
        format!(
            "<h2>Share of each page's words kept</h2>{}",
            html::table("kept-histogram", &["kept", "pages", ""], &rows)
        )
    }

    fn emptied_list(&self) -> String {
        let rows: Vec<String> = self
            .listed
            .iter()
            .filter_map(|page| {
                let reason = page.empty_reason.as_deref()?;
                Some(format!(
                    "<tr><td><a href=\"pages/{}.html\">{}</a></td><td>{}</td><td>{}</td></tr>",
                    page.id,
                    html::text(&page.url),
                    html::text(reason),
                    html::text(page.page_type),
                ))
            })
            .collect();
        if rows.is_empty() {
            return String::new();
        }
        format!(
            "<h2>Emptied pages with a viewer</h2>{}",
            html::table(
                "emptied-pages",
                &["page", "empty_reason", "page_type"],
                &rows
            )
        )
    }

    fn sites_table(&self) -> String {
        let rows: Vec<String> = self
            .sites
            .iter()
            .map(|site| {
                format!(
                    "<tr data-site=\"{}\"><td><a href=\"{}\">{}</a></td><td class=\"num\">{}</td>\
                     <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                     <td class=\"num\">{}</td></tr>",
                    html::attr(&site.name),
                    html::attr(&site.file),
                    html::text(&site.name),
                    site.pages,
                    site.viewers,
                    site.templates,
                    html::percent(site.mean_kept_share),
                    site.emptied,
                )
            })
            .collect();
        format!(
            "<h2>Sites</h2>{}",
            html::table(
                "sites",
                &[
                    "site",
                    "pages",
                    "viewers",
                    "templates",
                    "mean kept",
                    "emptied"
                ],
                &rows
            )
        )
    }
}

/// The stages of `report.json`, with skips by reason and the time each took.
fn stages_table(run: &RunReport, timings: Option<&StageTimings>) -> String {
    let seconds = |stage: &str| {
        timings
            .and_then(|t| t.seconds.get(stage))
            .map_or("–".to_owned(), |s| format!("{s:.2}"))
    };
    let mut rows: Vec<String> = run
        .stages
        .iter()
        .map(|(stage, counts)| {
            let skipped: Vec<String> = counts
                .skipped
                .iter()
                .map(|(reason, n)| {
                    let reason = reason.to_string();
                    format!(
                        "<span class=\"skip\" data-reason=\"{}\">{} <b>{n}</b></span>",
                        html::attr(&reason),
                        html::text(&reason)
                    )
                })
                .collect();
            format!(
                "<tr data-stage=\"{}\"><td>{}</td><td class=\"num\" data-field=\"input\">{}</td>\
                 <td class=\"num\" data-field=\"output\">{}</td><td>{}</td>\
                 <td class=\"num\" data-field=\"seconds\">{}</td></tr>",
                html::attr(stage),
                html::text(stage),
                counts.input,
                counts.output,
                if skipped.is_empty() {
                    "none".to_owned()
                } else {
                    skipped.join(" ")
                },
                seconds(stage),
            )
        })
        .collect();
    let index = report_stage_name(dbce_pipeline::index::STAGE);
    rows.push(format!(
        "<tr data-stage=\"{index}\"><td>{index}</td><td class=\"num\"></td>\
         <td class=\"num\" data-field=\"indexed\">{}</td><td>documents indexed</td>\
         <td class=\"num\" data-field=\"seconds\">{}</td></tr>",
        run.indexed,
        seconds(&index)
    ));
    let merge = report_stage_name(dbce_pipeline::merge::STAGE);
    rows.push(format!(
        "<tr data-stage=\"{merge}\"><td>{merge}</td><td class=\"num\"></td>\
         <td class=\"num\"></td><td>CDXJ merged, report written</td>\
         <td class=\"num\" data-field=\"seconds\">{}</td></tr>",
        seconds(&merge)
    ));
    let note = if timings.is_some() {
        "Seconds are wall-clock time of the last local run on all its threads (the report's own \
         time is not among them)."
    } else {
        "No times were recorded (the stages ran as separate tasks)."
    };
    format!(
        "<h2>Records per stage</h2>{}<p class=\"note\">{note}</p>\n",
        html::table(
            "stages",
            &["stage", "in", "out", "skipped, by reason", "seconds"],
            &rows
        )
    )
}

/// A table of `counts` by name with each one's share of `total`.
fn count_table(id: &str, counts: &BTreeMap<String, u64>, total: u64) -> String {
    let rows: Vec<String> = counts
        .iter()
        .map(|(name, &n)| {
            format!(
                "<tr data-key=\"{}\"><td>{}</td><td class=\"num\" data-count>{n}</td>\
                 <td class=\"num\">{}</td></tr>",
                html::attr(name),
                html::text(name),
                html::percent(n as f64 / total.max(1) as f64)
            )
        })
        .collect();
    if rows.is_empty() {
        return html::table(
            id,
            &["", "pages", "share"],
            &["<tr><td colspan=\"3\">none</td></tr>".to_owned()],
        );
    }
    html::table(id, &["", "pages", "share"], &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_bars_are_nothing_then_tenths_closed_above() {
        assert_eq!(histogram_bar(0, 10), 0);
        assert_eq!(histogram_bar(0, 0), 0);
        assert_eq!(histogram_bar(1, 10), 1);
        assert_eq!(histogram_bar(1, 1000), 1);
        assert_eq!(histogram_bar(11, 100), 2);
        assert_eq!(histogram_bar(10, 10), 10);
        assert_eq!(histogram_bar(99, 100), 10);
    }
}
