//! Error pages by explicit rules: soft-404s, error templates and login walls.
//!
//! No development set labels error pages, so nothing is learned here. The rules ask for two
//! things at once, a signal (an error title or heading, an error message, a password field)
//! and a short page, so that an article *about* 404 errors or a shop with a login box in its
//! header stays what it is.

use dbce_dom::{Document, NodeKind, word_count};

/// Which rule made a page an error page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorPageRule {
    /// The `<title>` or the first `<h1>` names an HTTP error or a missing page, and the body
    /// has fewer than [`SHORT_PAGE_WORDS`] words outside links.
    ErrorTitle,
    /// The body has fewer than [`TINY_PAGE_WORDS`] words outside links and says that the
    /// page is missing ("page not found", "the page you are looking for", …).
    ErrorMessage,
    /// A password field, a title, first heading or URL that asks to sign in, and fewer than
    /// [`LOGIN_WALL_WORDS`] words outside links and forms: the page is its sign-in form. (A
    /// password field alone is not enough: forum software hides a login form in every thread.)
    LoginWall,
}

/// Words outside links below which a page with an error title counts as an error page.
pub const SHORT_PAGE_WORDS: u32 = 250;
/// Words outside links below which an error message makes a page an error page.
pub const TINY_PAGE_WORDS: u32 = 120;
/// Words outside links and forms below which a page with a password field is a login wall.
pub const LOGIN_WALL_WORDS: u32 = 150;

/// Words outside links and forms from which no rule can make a page an error page: every rule
/// needs fewer than its limit of the words it counts (outside links, or outside links and
/// forms), and those are never fewer than these.
const LONG_PAGE_WORDS: u32 = max(max(SHORT_PAGE_WORDS, TINY_PAGE_WORDS), LOGIN_WALL_WORDS);

/// The larger of `a` and `b`, in a constant.
const fn max(a: u32, b: u32) -> u32 {
    if a > b { a } else { b }
}

impl ErrorPageRule {
    /// The confidence given to the rule's verdict. Not learned: set by hand, highest for the
    /// rule that needs the strongest signal.
    pub fn confidence(self) -> f32 {
        match self {
            ErrorPageRule::ErrorTitle => 0.9,
            ErrorPageRule::LoginWall => 0.8,
            ErrorPageRule::ErrorMessage => 0.7,
        }
    }

    /// A short name for reports: `error-title`, `error-message`, `login-wall`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorPageRule::ErrorTitle => "error-title",
            ErrorPageRule::ErrorMessage => "error-message",
            ErrorPageRule::LoginWall => "login-wall",
        }
    }
}

/// Phrases of a title or heading that name an error (lowercase).
const ERROR_TITLES: [&str; 12] = [
    "404",
    "page not found",
    "not found",
    "error 404",
    "410 gone",
    "500 internal",
    "server error",
    "403 forbidden",
    "access denied",
    "page does not exist",
    "page doesn't exist",
    "page unavailable",
];

/// Phrases of a body that say the page is missing (lowercase).
const ERROR_MESSAGES: [&str; 6] = [
    "page not found",
    "the page you are looking for",
    "the page you requested",
    "page does not exist",
    "page doesn't exist",
    "no longer available",
];

/// Phrases of a title, heading or URL that ask the reader to sign in (lowercase).
const LOGIN_WORDS: [&str; 9] = [
    "sign in",
    "sign-in",
    "signin",
    "log in",
    "log-in",
    "login",
    "sign on",
    "members only",
    "subscribe to continue",
];

/// The rule that makes `doc`, captured at `url`, an error page, if one does.
pub fn error_page(doc: &Document, url: &str) -> Option<ErrorPageRule> {
    let evidence = Evidence::of(doc);
    let names_error = |text: &str| ERROR_TITLES.iter().any(|p| text.contains(p));
    if evidence.unlinked_words < SHORT_PAGE_WORDS
        && (names_error(&evidence.title) || names_error(&evidence.h1))
    {
        return Some(ErrorPageRule::ErrorTitle);
    }
    if evidence.unlinked_words < TINY_PAGE_WORDS
        && ERROR_MESSAGES.iter().any(|p| evidence.text.contains(p))
    {
        return Some(ErrorPageRule::ErrorMessage);
    }
    let url = url.to_ascii_lowercase();
    let asks_to_sign_in = |text: &str| LOGIN_WORDS.iter().any(|p| text.contains(p));
    if evidence.password_field
        && evidence.unlinked_words - evidence.form_words < LOGIN_WALL_WORDS
        && (asks_to_sign_in(&evidence.title)
            || asks_to_sign_in(&evidence.h1)
            || asks_to_sign_in(&url))
    {
        return Some(ErrorPageRule::LoginWall);
    }
    None
}

/// What the rules read of a page, in one pass over its nodes.
#[derive(Default)]
struct Evidence {
    /// `<title>`, lowercase.
    title: String,
    /// The first `<h1>`'s text, lowercase.
    h1: String,
    /// The body's text outside links, lowercase, while it is short.
    text: String,
    unlinked_words: u32,
    /// Words outside links but inside forms.
    form_words: u32,
    password_field: bool,
}

impl Evidence {
    /// One walk over the body; whether a node is inside a link or a form is carried down from
    /// its parent (ids follow document order, so a parent is always seen first).
    fn of(doc: &Document) -> Self {
        const LINK: u8 = 1;
        const FORM: u8 = 2;
        const H1: u8 = 4;
        let mut evidence = Evidence {
            title: doc.title().unwrap_or_default().to_lowercase(),
            ..Evidence::default()
        };
        let Some(body) = doc.body() else {
            return evidence;
        };
        let first = body.id().get() as usize;
        let mut context = vec![0u8; doc.len() as usize - first];
        let mut seen_h1 = false;
        for node in body.descendants() {
            let index = node.id().get() as usize - first;
            let inherited = node.parent().map_or(0, |p| {
                context[(p.id().get() as usize).saturating_sub(first)]
            });
            match node.kind() {
                NodeKind::Element => {
                    let own = match node.name().unwrap_or_default() {
                        "a" => LINK,
                        "form" => FORM,
                        "h1" if !seen_h1 => {
                            seen_h1 = true;
                            H1
                        }
                        "input" => {
                            let password = node
                                .attr("type")
                                .is_some_and(|t| t.eq_ignore_ascii_case("password"));
                            evidence.password_field |= password;
                            0
                        }
                        _ => 0,
                    };
                    context[index] = inherited | own;
                }
                NodeKind::Text => {
                    let text = node.text().unwrap_or_default();
                    evidence.add_text(
                        text,
                        inherited & H1 != 0,
                        inherited & LINK != 0,
                        inherited & FORM != 0,
                    );
                    // Words outside links and forms only grow, and every rule needs fewer than
                    // this many: the rest of the page cannot make it an error page.
                    if evidence.unlinked_words - evidence.form_words >= LONG_PAGE_WORDS {
                        break;
                    }
                }
                NodeKind::Document => {}
            }
        }
        evidence
    }

    fn add_text(&mut self, text: &str, in_h1: bool, in_link: bool, in_form: bool) {
        if in_h1 && self.h1.len() < 200 {
            self.h1.push_str(&text.to_lowercase());
            self.h1.push(' ');
        }
        if in_link {
            return;
        }
        let words = word_count(text) as u32;
        self.unlinked_words += words;
        if in_form {
            self.form_words += words;
        }
        if self.unlinked_words < SHORT_PAGE_WORDS {
            self.text.push_str(&text.to_lowercase());
            self.text.push(' ');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_dom::SanitizeConfig;

    fn rule(html: &str) -> Option<ErrorPageRule> {
        rule_at(html, "https://example.org/members")
    }

    fn rule_at(html: &str, url: &str) -> Option<ErrorPageRule> {
        error_page(
            &Document::parse(html, &SanitizeConfig::default()).unwrap(),
            url,
        )
    }

    const NAV: &str = "<nav><a href=/>Home</a><a href=/shop>Shop</a><a href=/blog>Blog</a></nav>";

    #[test]
    fn a_short_page_with_an_error_title_is_an_error_page() {
        let html = format!(
            "<title>Page Not Found | Example</title>{NAV}<h1>Oops!</h1><p>Try the search.</p>"
        );
        assert_eq!(rule(&html), Some(ErrorPageRule::ErrorTitle));
    }

    #[test]
    fn an_article_about_404_errors_is_not_an_error_page() {
        let story = "<p>Broken links hurt a site, and search engines notice them quickly. </p>";
        let html = format!(
            "<title>How to fix 404 errors</title><h1>How to fix 404 errors</h1>{}",
            story.repeat(30)
        );
        assert_eq!(rule(&html), None);
    }

    #[test]
    fn a_page_read_up_to_its_limit_is_judged_by_every_word() {
        // The walk stops once no rule can fire, and not before: 12 words a paragraph, 20 make
        // 240 (under the error title's 250), 21 make 252.
        let para = "<p>Broken links hurt a site and search engines notice them quickly enough.</p>";
        let page = |n| format!("<title>404 Not Found</title>{}", para.repeat(n));
        assert_eq!(rule(&page(20)), Some(ErrorPageRule::ErrorTitle));
        assert_eq!(rule(&page(21)), None);
        // Words in a form count for the error title, not for the login wall.
        let form = format!(
            "<title>Sign in</title><form><input type=password>{}</form>",
            para.repeat(25)
        );
        assert_eq!(rule(&form), Some(ErrorPageRule::LoginWall));
    }

    #[test]
    fn a_short_page_saying_the_page_is_missing_is_an_error_page() {
        let html = format!(
            "<title>Example</title>{NAV}<h2>Sorry</h2><p>The page you are looking for has moved.</p>"
        );
        assert_eq!(rule(&html), Some(ErrorPageRule::ErrorMessage));
    }

    #[test]
    fn a_page_that_is_its_sign_in_form_is_a_login_wall() {
        let html = format!(
            "<title>Members</title>{NAV}<form><label>Email</label><input type=email>\
             <label>Password</label><input type=PASSWORD><button>Sign in</button></form>"
        );
        assert_eq!(rule(&html), None, "a hidden login form of a thread");
        assert_eq!(
            rule_at(&html, "https://example.org/account/login?next=/"),
            Some(ErrorPageRule::LoginWall)
        );
        let titled = html.replace("Members", "Log in to Example");
        assert_eq!(rule(&titled), Some(ErrorPageRule::LoginWall));
        let story = "<p>The council met on Monday to vote on the plan for the harbour. </p>";
        let with_story = format!("{titled}{}", story.repeat(20));
        assert_eq!(rule(&with_story), None);
    }
}
